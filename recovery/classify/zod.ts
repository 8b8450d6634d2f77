/**
 * Zod validation errors → `invalid_arguments` with one field issue per problem.
 *
 * Source: docs/DESIGN.md, "Routes" (Repair). One generic message ("Invalid JSON input for tool") leaves the model
 * looping, and a validation error turned into a "finish" is a fake success; so the model gets per-field issues —
 * path, expected (in words), received (truncated to `MAX_RECEIVED_CHARS`, redacted; `missing` when absent) and a
 * concrete suggestion, e.g. "amount_cents must be a positive integer" — never one generic message.
 *
 * Works from the `ZodError` alone, and better with the call's `input` (for `received`) and the `schema` (for
 * `expected` in full, e.g. "positive integer" for a missing key where the issue only says "number", and for the
 * known keys an unknown key is compared to). Reads issues defensively (zod 4 issue shapes; anything else
 * degrades to its message).
 * Pure: no I/O.
 */
import type { z } from 'zod';
import { zod } from '../zod-runtime';
import { FailureClass, FailureReason, MAX_RECEIVED_CHARS, Phase } from '../failure';
import type { FieldIssue, ToolFailure } from '../failure';
import { isSecretKey } from '../redact';
import { buildFailure, type FailureDraft } from './build';
import { parseCallContext, type CallContext } from './context';
import { ClassifyError, ClassifyErrorCode } from './errors';
import { asArray, hasOwn, isObjectLike, ownKeys, readProp, readString, renderValue } from './safe';
import { closestKey, enumHint, numbersIn } from './suggest';
import { MAX_ISSUE_TEXT_CHARS, pathLabel, publicText, summarizeIssues, truncate } from './text';
import {
  FORMAT_EXAMPLES,
  FORMAT_WORDS,
  describeSchema,
  isInteger,
  isNumeric,
  objectKeys,
  requiredPrefix,
  schemaAt,
  stringFormat,
  unwrap,
} from './zod-describe';

/** At most this many field issues are reported for one call. */
export const MAX_ZOD_FIELD_ISSUES = 25;

/** What helps turn zod issues into field issues. Both optional. */
export interface ZodIssueOptions {
  /** The arguments as the model sent them: gives `received`. */
  input?: unknown;
  /** The schema they failed (a zod 4 schema): gives `expected` in full and the known keys. */
  schema?: unknown;
}

/** True for a zod `ZodError` (classic or core), also from another realm (checked by shape). */
export function isZodError(error: unknown): error is z.core.$ZodError {
  try {
    // zod's Symbol.hasInstance reads the value's properties: a hostile object may throw.
    if (error instanceof zod().core.$ZodError) return true;
  } catch {
    return false;
  }
  const name = readString(error, 'name');
  return (name === 'ZodError' || name === '$ZodError') && asArray(readProp(error, 'issues')) !== undefined;
}

type Seg = string | number;
type Present = { present: true; value: unknown } | { present: false };

interface Entry {
  path: Seg[];
  /** zod's issue code, or `unknown_key` for one key of an `unrecognized_keys` issue. */
  code: string;
  issue: unknown;
}

function toPath(raw: unknown): Seg[] {
  return (asArray(raw) ?? []).slice(0, 64).map(toSegment);
}

/**
 * One path segment as a key or index. A segment that is neither (a symbol, or an object from a forged issue, e.g.
 * `{ toString: false }`, which `String()` cannot convert) becomes a description of it, never an exception.
 */
function toSegment(p: unknown): Seg {
  if (typeof p === 'number' || typeof p === 'string') return p;
  if (typeof p === 'symbol') return p.description ?? 'symbol';
  if (p === null || typeof p !== 'object') return String(p);
  try {
    return String(p);
  } catch {
    return '[object]';
  }
}

function valueAt(input: unknown, path: readonly Seg[]): Present {
  let cur = input;
  for (const seg of path) {
    if (!isObjectLike(cur) || !hasOwn(cur, seg)) return { present: false };
    cur = readProp(cur, String(seg));
  }
  return cur === undefined ? { present: false } : { present: true, value: cur };
}

const pathKey = (path: readonly Seg[]): string => JSON.stringify(path);
const parentOf = (path: readonly Seg[]): Seg[] => path.slice(0, -1);
const lastName = (path: readonly Seg[]): string => pathLabel(path.slice(-1));

const TYPE_WORDS: Readonly<Record<string, string>> = Object.freeze({ int: 'integer', nan: 'number' });

function regexSource(pattern: unknown): string | undefined {
  if (pattern instanceof RegExp) return pattern.source;
  if (typeof pattern !== 'string') return undefined;
  const m = /^\/(.*)\/[a-z]*$/s.exec(pattern);
  return m ? m[1] : pattern;
}

function literal(v: unknown): string {
  return typeof v === 'string' ? v : renderValue(v, 100);
}

/** What a zod issue says was expected, in words, when the schema is not known. */
function expectedFromIssue(issue: unknown): string {
  const code = readString(issue, 'code');
  const message = readString(issue, 'message');
  switch (code) {
    case 'invalid_type': {
      const exp = readString(issue, 'expected') ?? 'a valid value';
      return TYPE_WORDS[exp] ?? exp;
    }
    case 'invalid_value': {
      const values = (asArray(readProp(issue, 'values')) ?? []).map(literal);
      return values.length === 1 ? `exactly ${values[0]}` : `one of ${values.join('|')}`;
    }
    case 'invalid_format': {
      const format = readString(issue, 'format') ?? '';
      if (format === 'regex') return `string matching ${regexSource(readProp(issue, 'pattern')) ?? 'the pattern'}`;
      if (format === 'starts_with') return `string starting with ${literal(readProp(issue, 'prefix'))}`;
      if (format === 'ends_with') return `string ending with ${literal(readProp(issue, 'suffix'))}`;
      if (format === 'includes') return `string containing ${literal(readProp(issue, 'includes'))}`;
      return FORMAT_WORDS[format] ?? `${format} string`;
    }
    case 'too_small':
    case 'too_big': {
      const small = code === 'too_small';
      const origin = readString(issue, 'origin') ?? '';
      const limit = readProp(issue, small ? 'minimum' : 'maximum');
      const n = typeof limit === 'number' || typeof limit === 'bigint' ? limit.toString() : literal(limit);
      const inclusive = readProp(issue, 'inclusive') !== false;
      if (origin === 'string')
        return small
          ? n === '1'
            ? 'non-empty string'
            : `string of at least ${n} characters`
          : `string of at most ${n} characters`;
      if (origin === 'array' || origin === 'set')
        return small ? (n === '1' ? 'non-empty list' : `at least ${n} items`) : `at most ${n} items`;
      const noun = origin === 'int' || origin === 'bigint' ? 'integer' : 'number';
      if (small && n === '0' && !inclusive) return `positive ${noun}`;
      if (small && n === '0' && inclusive) return `non-negative ${noun}`;
      return `${noun} ${small ? (inclusive ? '>=' : '>') : inclusive ? '<=' : '<'} ${n}`;
    }
    case 'not_multiple_of':
      return `multiple of ${literal(readProp(issue, 'divisor'))}`;
    case 'invalid_union': {
      const words = new Set<string>();
      for (const branch of (asArray(readProp(issue, 'errors')) ?? []).slice(0, 8)) {
        const first = (asArray(branch) ?? [])[0];
        if (first !== undefined && toPath(readProp(first, 'path')).length === 0) words.add(expectedFromIssue(first));
      }
      return words.size > 0 ? [...words].join(' or ') : 'a valid value';
    }
    default:
      return message !== undefined && message.trim() !== '' ? message : 'a valid value';
  }
}

/** The type word for "received": `a string`, `an object`, … when only the issue message is known. */
function receivedFromMessage(issue: unknown): string | undefined {
  const received = readString(issue, 'received');
  if (received !== undefined) return received;
  const m = /received (\w+)\s*$/.exec(readString(issue, 'message') ?? '');
  if (!m) return undefined;
  const word = m[1]!;
  return word === 'undefined' ? 'missing' : `${/^[aeiou]/.test(word) ? 'an' : 'a'} ${word}`;
}

interface Scope {
  options: ZodIssueOptions;
  hasInput: boolean;
  /** Per parent (pathKey): keys present in the input but not in the schema or reported unrecognized. */
  unknownKeys: Map<string, string[]>;
}

function presentAt(scope: Scope, e: Entry): Present {
  if (scope.hasInput) return valueAt(scope.options.input, e.path);
  if (hasOwn(e.issue, 'input')) {
    const v = readProp(e.issue, 'input');
    return v === undefined ? { present: false } : { present: true, value: v };
  }
  return receivedFromMessage(e.issue) === 'missing' ? { present: false } : { present: true, value: undefined };
}

function isMissing(scope: Scope, e: Entry): boolean {
  if (e.code === 'unknown_key') return false;
  return !presentAt(scope, e).present;
}

function knownKeysOf(scope: Scope, parent: readonly Seg[]): string[] {
  return scope.options.schema === undefined ? [] : objectKeys(schemaAt(scope.options.schema, parent));
}

function expectedOf(scope: Scope, e: Entry): string {
  if (e.code === 'unknown_key') {
    const known = knownKeysOf(scope, parentOf(e.path));
    return known.length > 0 ? `a known key (${known.join('|')})` : 'no such key';
  }
  const message = readString(e.issue, 'message');
  if (e.code === 'custom' && message && !/^invalid input$/i.test(message)) return message;
  const discriminator = readString(e.issue, 'discriminator');
  if (e.code === 'invalid_union' && discriminator !== undefined && scope.options.schema !== undefined) {
    const union = unwrap(schemaAt(scope.options.schema, parentOf(e.path)));
    const options = asArray(readProp(readProp(readProp(union, '_zod'), 'def'), 'options')) ?? [];
    const words = options
      .map((o) => describeSchema(schemaAt(o, [discriminator])))
      .map((w) => w.replace(/^exactly /, ''));
    if (words.length > 0) return `one of ${words.join('|')}`;
  }
  if (scope.options.schema !== undefined) {
    const sub = schemaAt(scope.options.schema, e.path);
    if (sub !== undefined) return describeSchema(sub);
  }
  return expectedFromIssue(e.issue);
}

function receivedOf(scope: Scope, e: Entry): string {
  const at = presentAt(scope, e);
  if (!at.present) return 'missing';
  const name = e.path[e.path.length - 1];
  if (typeof name === 'string' && isSecretKey(name)) return '[redacted]';
  if (!scope.hasInput && !hasOwn(e.issue, 'input')) return receivedFromMessage(e.issue) ?? 'not reported';
  return truncate(publicText(renderValue(at.value), 10 * MAX_RECEIVED_CHARS), MAX_RECEIVED_CHARS);
}

/** The sibling keys a string of several numbers should be split into: the field itself, then missing numeric siblings. */
function splitTargets(scope: Scope, e: Entry, count: number, entries: readonly Entry[]): string[] | undefined {
  const key = e.path[e.path.length - 1];
  if (typeof key !== 'string' || count < 2) return undefined;
  const parent = pathKey(parentOf(e.path));
  const siblings = entries
    .filter(
      (o) => o !== e && pathKey(parentOf(o.path)) === parent && o.path.length === e.path.length && isMissing(scope, o),
    )
    .filter((o) => {
      const sub = scope.options.schema === undefined ? undefined : schemaAt(scope.options.schema, o.path);
      if (sub !== undefined) return isNumeric(sub);
      const exp = readString(o.issue, 'expected');
      return exp === 'number' || exp === 'int' || exp === 'bigint';
    })
    .map((o) => o.path[o.path.length - 1])
    .filter((k): k is string => typeof k === 'string');
  const targets = [key, ...siblings].slice(0, count);
  return targets.length === count ? targets : undefined;
}

function splitHint(targets: readonly string[], nums: readonly number[]): string {
  const names =
    targets.length === 2
      ? `${targets[0]} and ${targets[1]}`
      : `${targets.slice(0, -1).join(', ')} and ${targets[targets.length - 1]}`;
  return `split into ${names}: ${targets.map((t, i) => `${t}=${nums[i]}`).join(', ')}`;
}

function expectsNumber(scope: Scope, e: Entry): { numeric: boolean; integer: boolean } {
  const sub = scope.options.schema === undefined ? undefined : schemaAt(scope.options.schema, e.path);
  if (sub !== undefined) return { numeric: isNumeric(sub), integer: isInteger(sub) };
  const exp = readString(e.issue, 'expected');
  return { numeric: exp === 'number' || exp === 'int' || exp === 'bigint', integer: exp === 'int' || exp === 'bigint' };
}

function suggestionOf(scope: Scope, e: Entry, expected: string, entries: readonly Entry[]): string {
  const label = pathLabel(e.path);
  const key = e.path[e.path.length - 1];
  const parent = parentOf(e.path);
  if (e.code === 'unknown_key' && typeof key === 'string') {
    const missingSiblings = entries
      .filter((o) => pathKey(parentOf(o.path)) === pathKey(parent) && isMissing(scope, o))
      .map((o) => lastName(o.path));
    const close = closestKey(key, [...missingSiblings, ...knownKeysOf(scope, parent)]);
    return close === undefined ? `remove ${key}` : `did you mean ${close}?`;
  }
  if (isMissing(scope, e)) {
    // A sibling string holding several numbers (`{"x":"861, 365"}`): "split into x and y".
    for (const o of entries) {
      if (o === e || pathKey(parentOf(o.path)) !== pathKey(parent)) continue;
      const at = presentAt(scope, o);
      const nums = at.present && typeof at.value === 'string' ? numbersIn(at.value) : undefined;
      const targets = nums ? splitTargets(scope, o, nums.length, entries) : undefined;
      if (nums && targets && typeof key === 'string' && targets.includes(key)) return splitHint(targets, nums);
    }
    // An unknown sibling key that is close to this one (`amount` for `amountCents`): "rename amount to amountCents".
    if (typeof key === 'string') {
      const unknown = scope.unknownKeys.get(pathKey(parent)) ?? [];
      const known = [key, ...knownKeysOf(scope, parent).filter((k) => k !== key)];
      const renamed = unknown.find((u) => closestKey(u, known) === key);
      if (renamed !== undefined) return `rename ${renamed} to ${key} (${expected})`;
    }
    const format =
      scope.options.schema === undefined ? undefined : stringFormat(unwrap(schemaAt(scope.options.schema, e.path)));
    const mask = format === undefined ? undefined : FORMAT_EXAMPLES[format];
    return `add ${label} (${expected}${mask ? `, ${mask}` : ''})`;
  }
  const at = presentAt(scope, e);
  const value = at.present ? at.value : undefined;
  if (typeof value === 'string') {
    const { numeric, integer } = expectsNumber(scope, e);
    const nums = numeric ? numbersIn(value) : undefined;
    if (nums && nums.length >= 2) {
      const targets = splitTargets(scope, e, nums.length, entries);
      if (targets) return splitHint(targets, nums);
    }
    if (nums && nums.length === 1) {
      const n = nums[0]!;
      return integer && !Number.isInteger(n)
        ? `send an integer without quotes, not the string ${renderValue(value, 40)}`
        : `send ${n} as a number, without quotes`;
    }
    const values = (asArray(readProp(e.issue, 'values')) ?? []).filter((v): v is string => typeof v === 'string');
    if (e.code === 'invalid_value' && values.length > 0)
      return enumHint(value, values) ?? `use one of ${values.join('|')}`;
    const sub = scope.options.schema === undefined ? undefined : unwrap(schemaAt(scope.options.schema, e.path));
    const prefix =
      sub === undefined
        ? readString(e.issue, 'format') === 'starts_with'
          ? readString(e.issue, 'prefix')
          : undefined
        : requiredPrefix(sub);
    if (prefix !== undefined && !value.startsWith(prefix)) return `use a value that starts with ${prefix}`;
    const format = sub === undefined ? readString(e.issue, 'format') : stringFormat(sub);
    const mask = format === undefined ? undefined : FORMAT_EXAMPLES[format];
    if (mask !== undefined) return `use the format ${mask}`;
  }
  if (e.code === 'invalid_value') {
    const values = (asArray(readProp(e.issue, 'values')) ?? []).map(literal);
    if (values.length > 0) return `use one of ${values.join('|')}`;
  }
  return `change ${label} to a ${expected}`.replace(/ a (?=[aeiou])/i, ' an ');
}

function buildScope(entries: readonly Entry[], options: ZodIssueOptions): Scope {
  const scope: Scope = { options, hasInput: hasOwn(options, 'input'), unknownKeys: new Map() };
  const addUnknown = (parent: readonly Seg[], key: string): void => {
    const k = pathKey(parent);
    const list = scope.unknownKeys.get(k) ?? [];
    if (!list.includes(key)) list.push(key);
    scope.unknownKeys.set(k, list);
  };
  for (const e of entries) {
    if (e.code === 'unknown_key') addUnknown(parentOf(e.path), String(e.path[e.path.length - 1]));
    else if (isMissing(scope, e)) {
      // A schema that strips unknown keys reports none: find them in the input.
      const parent = parentOf(e.path);
      const known = knownKeysOf(scope, parent);
      if (scope.hasInput && known.length > 0) {
        const obj = valueAt(options.input, parent);
        const container = parent.length === 0 ? options.input : obj.present ? obj.value : undefined;
        for (const k of ownKeys(container).slice(0, 200)) if (!known.includes(k)) addUnknown(parent, k);
      }
    }
  }
  return scope;
}

function entriesOf(error: unknown): Entry[] {
  const entries: Entry[] = [];
  for (const issue of (asArray(readProp(error, 'issues')) ?? []).slice(0, 4 * MAX_ZOD_FIELD_ISSUES)) {
    const path = toPath(readProp(issue, 'path'));
    const code = readString(issue, 'code') ?? 'custom';
    if (code === 'unrecognized_keys') {
      for (const k of (asArray(readProp(issue, 'keys')) ?? []).slice(0, MAX_ZOD_FIELD_ISSUES)) {
        if (typeof k === 'string') entries.push({ path: [...path, k], code: 'unknown_key', issue });
      }
    } else entries.push({ path, code, issue });
  }
  return entries;
}

/**
 * Field issues for a zod error: one per problem (one per unknown key), in zod's order, duplicates removed, at most
 * `MAX_ZOD_FIELD_ISSUES`. Each is valid against `fieldIssueSchema()`: `expected` in words, `received` rendered as
 * JSON, redacted and cut to `MAX_RECEIVED_CHARS` (`missing` when absent; `[redacted]` for a secret-named field;
 * the received type, e.g. `a string`, when `input` is not given), and a one-line `suggestion`.
 *
 * @param error a zod `ZodError` (anything else yields `[]`).
 * @param options `input` (the arguments as sent) and `schema` (the zod schema they failed); both optional.
 */
export function fieldIssuesFromZod(error: unknown, options: ZodIssueOptions = {}): FieldIssue[] {
  const entries = entriesOf(error);
  const scope = buildScope(entries, options);
  const seen = new Set<string>();
  const out: FieldIssue[] = [];
  for (const e of entries) {
    const expected = truncate(
      publicText(expectedOf(scope, e), MAX_ISSUE_TEXT_CHARS) || 'a valid value',
      MAX_ISSUE_TEXT_CHARS,
    );
    const issue: FieldIssue = {
      path: e.path,
      expected,
      received: receivedOf(scope, e),
      suggestion: truncate(
        publicText(suggestionOf(scope, e, expected, entries), MAX_ISSUE_TEXT_CHARS) || 'fix this field',
        MAX_ISSUE_TEXT_CHARS,
      ),
    };
    const key = JSON.stringify(issue);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(issue);
    if (out.length >= MAX_ZOD_FIELD_ISSUES) break;
  }
  return out;
}

/** The draft for arguments that fail their schema (shared with `classify` for a thrown ZodError). */
export function zodArgumentsDraft(
  error: unknown,
  tool: string,
  options: ZodIssueOptions,
  phase: Phase = Phase.PREFLIGHT,
): FailureDraft {
  const issues = fieldIssuesFromZod(error, options);
  const n = issues.length;
  return {
    class: FailureClass.INVALID_ARGUMENTS,
    reason: FailureReason.SCHEMA,
    phase,
    retryable: false,
    replaySafe: true,
    issues,
    publicMessage:
      n === 0
        ? `${tool}: the arguments are invalid; fix them and call again.`
        : `${tool}: ${n} invalid argument${n === 1 ? '' : 's'}; fix ${n === 1 ? 'it' : 'them'} and call again: ${summarizeIssues(issues)}.`,
  };
}

/**
 * Classifies arguments that failed their zod schema: `invalid_arguments/schema`, phase `preflight` (nothing was
 * sent), replay-safe, not retryable (only changed arguments can pass), with per-field `issues`.
 *
 * @param error the `ZodError` from `schema.safeParse(args)`.
 * @param ctx the call.
 * @param options `{ input, schema }`: pass both for full `received`/`expected` and key suggestions.
 * @returns a frozen, valid `ToolFailure`.
 * @throws ClassifyError `invalid_context` for a bad `ctx`; `invalid_outcome` when `error` is not a ZodError.
 */
export function classifyZodError(error: unknown, ctx: CallContext, options: ZodIssueOptions = {}): ToolFailure {
  const c = parseCallContext(ctx);
  if (!isZodError(error)) {
    throw new ClassifyError(
      ClassifyErrorCode.INVALID_OUTCOME,
      'classifyZodError: error must be a ZodError (from schema.safeParse)',
    );
  }
  return buildFailure(c, zodArgumentsDraft(error, c.tool, options));
}
