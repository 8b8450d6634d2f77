/**
 * Canonical form and hash of a tool call's arguments, for the Change-before-Retry gate's `args_changed`
 * evidence (docs/DESIGN.md, "The Change-before-Retry gate": the hash of the canonical arguments has changed).
 *
 * Equivalent encodings hash the same; any change of value hashes differently. The canonical text is
 * RFC 8785 (JSON Canonicalization Scheme) in shape — no whitespace, object keys sorted by UTF-16 code units
 * (RFC 8785 §3.2.3), numbers and strings as ECMAScript `JSON.stringify` writes them (§3.2.2) — plus one
 * addition: every string, key or value, is first put in Unicode Normalization Form C, so `"é"` typed as
 * U+00E9 and as `e` + U+0301 is the same argument.
 *
 * Pure: no I/O. Hashing is recovery/sha256.ts (no Node `crypto`), so the workflow sandbox can import it.
 */
import { sha256Hex } from './sha256';
import { formatPath, isRecoveryInputError, RecoveryInputError, RecoveryInputErrorCode } from './errors';

/** Deepest nesting of arrays and objects accepted, so a hostile value fails with a typed error, not a stack overflow. */
export const MAX_CANONICAL_DEPTH = 256;

/**
 * The canonical JSON text of `args`.
 *
 * What is NOT a change (same output):
 * - object key order; `1` vs `1.0` vs `1e0` (one JS number); `-0` vs `0` (JSON writes `-0` as `0`);
 * - NFC vs NFD spellings of the same string, in values and in keys;
 * - a key whose value is `undefined` vs an absent key, and `undefined` or a hole in an array vs `null`
 *   (both exactly as `JSON.stringify` does);
 * - a value with `toJSON` (e.g. `Date`) vs what its `toJSON` returns, as `JSON.stringify` does.
 *
 * What IS a change: any other value change, including `0` vs `"0"`, `null` vs absent, array order, case.
 *
 * Accepted: `null`, booleans, finite numbers, strings, arrays, plain objects (prototype `Object.prototype`
 * or `null`), and objects with a `toJSON` method.
 *
 * @throws RecoveryInputError `not_json` for what JSON cannot carry or would silently change: functions,
 *   symbols (as values or keys), bigint, NaN, ±Infinity, cycles, top-level `undefined`, class instances
 *   without `toJSON` (`Map`, `Set`, `RegExp`, typed arrays, boxed primitives), and two keys of one object that
 *   are the same string after NFC. The message names the path, e.g. `canonicalize: $.items[2].amount is NaN ...`.
 * @throws RecoveryInputError `not_json` when reading the value throws: a throwing getter or `toJSON`, a revoked
 *   Proxy, a Proxy whose traps throw (JSON.stringify would throw too). The message names the path and what
 *   threw, e.g. `canonicalize: $.card.number could not be read: its getter threw an Error (…)`; it never quotes the
 *   thrown message (it came from the caller's object and may carry anything), and no `cause` is attached.
 * @throws RecoveryInputError `limit_exceeded` when nesting is deeper than `MAX_CANONICAL_DEPTH`.
 */
export function canonicalize(args: unknown): string {
  const out = write(args, [], new Set<object>(), '', false);
  if (out === undefined) {
    throw notJson([], 'is undefined; JSON cannot carry it at the top level (pass {} for "no arguments")');
  }
  return out;
}

/**
 * SHA-256 of `canonicalize(args)` as UTF-8, in lowercase hex (64 characters).
 * Two argument values have the same hash exactly when their canonical forms are equal.
 *
 * @throws RecoveryInputError as `canonicalize` does.
 */
export function argsHash(args: unknown): string {
  return hashCanonical(canonicalize(args));
}

/** The sha256 hex of a canonical text from `canonicalize`, for callers that already hold it. */
export function hashCanonical(canonical: string): string {
  return sha256Hex(canonical);
}

/** Returns the canonical text of `value`, or `undefined` where JSON omits it (an object property) or writes `null` (an array slot). */
function write(
  value: unknown,
  path: (string | number)[],
  ancestors: Set<object>,
  key: string,
  isToJSONResult: boolean,
): string | undefined {
  if (typeof value !== 'object') return writeScalar(value, path);
  if (value === null) return 'null';
  const obj = value;

  // As JSON.stringify (ECMA-262 SerializeJSONProperty): call toJSON once; its result's own toJSON is not called.
  const toJSON = guard(path, 'reading it', () => (obj as { toJSON?: unknown }).toJSON);
  if (typeof toJSON === 'function' && !isToJSONResult) {
    const json = guard(path, 'its toJSON()', () => (toJSON as (k: string) => unknown).call(obj, key));
    return write(json, path, ancestors, key, true);
  }
  if (ancestors.has(obj)) throw notJson(path, 'is a cycle: it contains itself; JSON cannot carry it');
  if (path.length >= MAX_CANONICAL_DEPTH) {
    throw new RecoveryInputError(
      RecoveryInputErrorCode.LIMIT_EXCEEDED,
      `canonicalize: ${formatPath(path)} is nested deeper than ${MAX_CANONICAL_DEPTH} levels`,
      { path },
    );
  }

  ancestors.add(obj);
  try {
    return guard(path, 'Array.isArray', () => Array.isArray(obj))
      ? writeArray(obj as unknown[], path, ancestors)
      : writePlainObject(obj, path, ancestors);
  } finally {
    ancestors.delete(obj);
  }
}

/** The text of a value that is not an object (`typeof` other than `'object'`); `undefined` for `undefined`. */
function writeScalar(value: unknown, path: (string | number)[]): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value.normalize('NFC'));
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw notJson(path, `is ${String(value)}; JSON has no NaN or Infinity`);
      return JSON.stringify(value);
    case 'bigint':
      throw notJson(path, 'is a bigint; JSON cannot carry it (send it as a string)');
    case 'symbol':
      throw notJson(path, 'is a symbol; JSON cannot carry it');
    case 'function':
      throw notJson(path, 'is a function; JSON cannot carry it');
    default:
      return undefined; // 'undefined'
  }
}

/** `[a,b,…]`: each slot written at `path` + index; `undefined` and holes become `null`, as in JSON.stringify. */
function writeArray(arr: unknown[], path: (string | number)[], ancestors: Set<object>): string {
  const length = guard(path, 'its length', () => arr.length);
  const parts: string[] = [];
  for (let i = 0; i < length; i++) {
    const item = guard([...path, i], 'its getter', () => arr[i]);
    parts.push(write(item, [...path, i], ancestors, String(i), false) ?? 'null');
  }
  return `[${parts.join(',')}]`;
}

/**
 * `{"k":v,…}` of a plain object: NFC keys sorted by UTF-16 code units, `undefined` members left out.
 * @throws RecoveryInputError `not_json` for a non-plain object, a symbol key, or two keys equal after NFC.
 */
function writePlainObject(obj: object, path: (string | number)[], ancestors: Set<object>): string {
  if (!guard(path, 'its prototype', () => isPlainObject(obj))) {
    const name = guard(path, 'its constructor', () => (obj as { constructor?: { name?: unknown } }).constructor?.name);
    throw notJson(
      path,
      `is a ${typeof name === 'string' && name !== '' ? name : 'non-plain object'}; only plain objects, arrays and values with toJSON are accepted (JSON would change or drop its content)`,
    );
  }
  const symbols = guard(path, 'its keys', () =>
    Object.getOwnPropertySymbols(obj).filter((s) => Object.prototype.propertyIsEnumerable.call(obj, s)),
  );
  if (symbols.length > 0) throw notJson(path, `has a symbol key (${String(symbols[0])}); JSON cannot carry it`);

  const entries = new Map<string, string>();
  for (const rawKey of guard(path, 'its keys', () => Object.keys(obj))) {
    const childPath = [...path, rawKey];
    const child = guard(childPath, 'its getter', () => (obj as Record<string, unknown>)[rawKey]);
    const text = write(child, childPath, ancestors, rawKey, false);
    if (text === undefined) continue;
    const k = rawKey.normalize('NFC');
    if (entries.has(k)) {
      throw notJson(childPath, `is the same key as another key of its object after Unicode NFC normalisation`);
    }
    entries.set(k, text);
  }
  // RFC 8785 §3.2.3: sort by UTF-16 code units, which is what the default Array#sort comparison does.
  const keys = [...entries.keys()].sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${entries.get(k) as string}`).join(',')}}`;
}

/** A plain object from any realm: `{}`-made or `Object.create(null)`, not a class instance, Map, Date, boxed primitive. */
function isPlainObject(obj: object): boolean {
  if (Object.prototype.toString.call(obj) !== '[object Object]') return false;
  const proto = Object.getPrototypeOf(obj) as object | null;
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/**
 * Runs one read of the caller's value; anything it throws (a getter, `toJSON`, a Proxy trap, a revoked Proxy)
 * becomes `not_json` at `path`, naming `what` threw and the thrown value's kind, never its message.
 */
function guard<T>(path: (string | number)[], what: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (ownError(err)) throw err;
    throw notJson(
      path,
      `could not be read: ${what} threw ${thrownKind(err)} (a throwing getter or toJSON, or a revoked or hostile Proxy); only plain data is accepted`,
    );
  }
}

/** A `RecoveryInputError` thrown by a nested `write`. Asking a hostile thrown value (a Proxy) may throw too. */
function ownError(err: unknown): boolean {
  try {
    return isRecoveryInputError(err);
  } catch {
    return false;
  }
}

/** `an Error`, `a TypeError`, `a string`…: what was thrown, without its message. */
function thrownKind(err: unknown): string {
  let name: unknown;
  try {
    name = err instanceof Error ? err.name : undefined;
  } catch {
    name = undefined;
  }
  const kind =
    typeof name === 'string' && /^[A-Za-z_$][\w$]{0,39}$/.test(name) ? name : err === null ? 'null' : typeof err;
  if (kind === 'null' || kind === 'undefined') return kind;
  return `${/^[AEIOUaeiou]/.test(kind) ? 'an' : 'a'} ${kind}`;
}

function notJson(path: (string | number)[], rule: string): RecoveryInputError {
  return new RecoveryInputError(RecoveryInputErrorCode.NOT_JSON, `canonicalize: ${formatPath(path)} ${rule}`, {
    path,
  });
}
