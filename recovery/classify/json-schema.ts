/**
 * A JSON Schema reader for field issues: the sub-schema at a path, an object's keys, and the facts the
 * suggestions use (numeric, integer, `format`, a required prefix); the schema in words is ./json-schema-words.ts.
 *
 * Reads the JSON Schema a tool's spec carries (`inputSchema`: zod 4's `z.toJSONSchema(input, { io: 'input' })`,
 * or an MCP server's own) — what planners and MCP clients see, so the words match it. Keywords: JSON Schema
 * 2020-12 Core §10.2 (`allOf`, `anyOf`, `oneOf`, `not`), §10.3 (`properties`, `additionalProperties`, `items`,
 * `prefixItems`), §8.2.3 (`$ref`; here local refs only: `#`, `#/$defs/…`, `#/definitions/…`); Validation §6
 * (`type`, `enum`, `const`, bounds, lengths, `pattern`), §7 (`format`). A nullable value is
 * `anyOf: [X, { type: 'null' }]` (what zod emits for `.nullable()`).
 *
 * Total on any input: reads go through never-throwing readers (hostile getters read as absent), `$ref` chains and
 * recursion are bounded (a `$ref` cycle ends as "a valid value"). Pure: no I/O.
 */
import { patternPrefix } from './schema-words';
import { asArray, hasOwn, isObjectLike, ownKeys, readProp, readString } from './safe';

export const MAX_DEPTH = 8;
/** Most nodes one walk visits: alternatives that refer back to the root cannot make a walk exponential. */
export const MAX_VISITS = 256;

/** What is left of a walk's `MAX_VISITS`, shared by its recursive calls. */
export interface Budget {
  left: number;
}
const MAX_REF_HOPS = 16;
const MAX_BRANCHES = 16;

/** `node` with local `$ref`s followed (in `root`), or `undefined` for a dangling ref or a cycle of refs. */
export function resolve(node: unknown, root: unknown): unknown {
  let cur = node;
  for (let hop = 0; hop < MAX_REF_HOPS; hop++) {
    const ref = readString(cur, '$ref');
    if (ref === undefined) return cur;
    cur = pointer(root, ref);
  }
  return undefined;
}

/** A local JSON Pointer ref (`#`, `#/$defs/a~1b`) in `root` (RFC 6901: `~1` is `/`, `~0` is `~`). */
function pointer(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let cur = root;
  for (const raw of ref.slice(2).split('/').slice(0, 32)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!hasOwn(cur, key)) return undefined;
    cur = readProp(cur, key);
  }
  return cur;
}

export const list = (node: unknown, key: string): readonly unknown[] =>
  (asArray(readProp(node, key)) ?? []).slice(0, MAX_BRANCHES);
export const isNullType = (node: unknown): boolean => readString(node, 'type') === 'null';

/** The alternatives of a node (`anyOf` and `oneOf`), `[]` when it has none. */
export function branches(node: unknown): readonly unknown[] {
  return [...list(node, 'anyOf'), ...list(node, 'oneOf')];
}

/** The node's `type` as a list (`"string"` → `["string"]`). */
export function typesOf(node: unknown): string[] {
  const t = readProp(node, 'type');
  if (typeof t === 'string') return t === '' ? [] : [t];
  return (asArray(t) ?? []).filter((x): x is string => typeof x === 'string' && x !== '');
}

/** Keywords that say nothing about the value (annotations); a schema with only these accepts anything. */
const ANNOTATIONS: ReadonlySet<string> = new Set([
  '$schema',
  '$id',
  '$comment',
  'title',
  'description',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$defs',
  'definitions',
]);

/**
 * True when `node` (after refs) constrains the value: not `true`, `{}` or annotations only. zod writes what JSON
 * cannot hold (`bigint`, `Date`, `undefined`) as `{}` (`unrepresentable: 'any'`): then the issue says more.
 */
export function isInformative(node: unknown, root: unknown = node): boolean {
  const n = resolve(node, root);
  if (n === false) return true;
  return isObjectLike(n) && ownKeys(n).some((k) => !ANNOTATIONS.has(k));
}

/**
 * The sub-schema at `path` (object properties, then `additionalProperties`; array `prefixItems`, then `items`;
 * through `$ref`, `allOf` and the alternatives of `anyOf`/`oneOf`, several of which that have the path merge into
 * one `anyOf`), or `undefined` when the path leaves the schema. Refs in the result resolve against `root`.
 */
export function schemaAt(root: unknown, path: readonly PropertyKey[]): unknown {
  return at(root, root, path, { left: MAX_VISITS });
}

function at(node: unknown, root: unknown, path: readonly PropertyKey[], budget: Budget): unknown {
  if (--budget.left < 0) return undefined;
  const n = resolve(node, root);
  if (path.length === 0 || n === undefined) return n;
  const alternatives = branches(n);
  if (alternatives.length > 0) {
    const hits = alternatives.map((b) => at(b, root, path, budget)).filter((h) => h !== undefined);
    const own = step(n, root, path, budget);
    if (own !== undefined) hits.unshift(own);
    return hits.length <= 1 ? hits[0] : { anyOf: hits };
  }
  for (const member of list(n, 'allOf')) {
    const hit = at(member, root, path, budget);
    if (hit !== undefined) return hit;
  }
  return step(n, root, path, budget);
}

/** One step down from `n` itself (no alternatives). */
function step(n: unknown, root: unknown, path: readonly PropertyKey[], budget: Budget): unknown {
  const [head, ...rest] = path;
  if (typeof head === 'string') {
    const properties = readProp(n, 'properties');
    if (hasOwn(properties, head)) return at(readProp(properties, head), root, rest, budget);
    const extra = readProp(n, 'additionalProperties');
    return isObjectLike(extra) || extra === true ? at(extra === true ? {} : extra, root, rest, budget) : undefined;
  }
  if (typeof head === 'number') {
    const prefix = list(n, 'prefixItems');
    const items = readProp(n, 'items');
    if (head < prefix.length) return at(prefix[head], root, rest, budget);
    return isObjectLike(items) ? at(items, root, rest, budget) : undefined;
  }
  return undefined;
}

/** The declared keys of an object schema (through refs, `allOf` and alternatives), in declaration order. */
export function objectKeys(node: unknown, root: unknown = node, budget: Budget = { left: MAX_VISITS }): string[] {
  if (--budget.left < 0) return [];
  const n = resolve(node, root);
  const keys = new Set(ownKeys(readProp(n, 'properties')));
  for (const sub of [...list(n, 'allOf'), ...branches(n)]) for (const k of objectKeys(sub, root, budget)) keys.add(k);
  return [...keys];
}

/** The node's non-null types, through refs and nullable `anyOf` (`[]` when it names none). */
function valueTypes(node: unknown, root: unknown): string[] {
  const n = resolve(node, root);
  const own = typesOf(n).filter((t) => t !== 'null');
  if (own.length > 0) return own;
  return branches(n).flatMap((b) => typesOf(resolve(b, root)).filter((t) => t !== 'null'));
}

/** True when the schema accepts only numbers (JSON Schema `number` or `integer`). */
export function isNumeric(node: unknown, root: unknown = node): boolean {
  const types = valueTypes(node, root);
  return types.length > 0 && types.every((t) => t === 'number' || t === 'integer');
}

/** True when the schema accepts only integers. */
export function isInteger(node: unknown, root: unknown = node): boolean {
  const types = valueTypes(node, root);
  return types.length > 0 && types.every((t) => t === 'integer');
}

/** The string patterns of a node: its own `pattern` and those of its `allOf` (zod's form for several regexes). */
export function patternsOf(n: unknown, root: unknown): string[] {
  const own = readString(n, 'pattern');
  const more = list(n, 'allOf').map((m) => readString(resolve(m, root), 'pattern'));
  return [own, ...more].filter((p): p is string => p !== undefined);
}

/** The string's JSON Schema `format` (`email`, `date`, `date-time`, …), through refs and nullable, if any. */
export function stringFormat(node: unknown, root: unknown = node): string | undefined {
  const n = resolve(node, root);
  return (
    readString(n, 'format') ??
    branches(n)
      .map((b) => readString(resolve(b, root), 'format'))
      .find(Boolean)
  );
}

/** The literal prefix a string schema requires (a pattern `^cus_`, or zod's `.startsWith('cus_')`), if any. */
export function requiredPrefix(node: unknown, root: unknown = node): string | undefined {
  const n = resolve(node, root);
  for (const p of patternsOf(n, root)) {
    const prefix = patternPrefix(p);
    if (prefix !== undefined) return prefix;
  }
  return undefined;
}

/** The literal values a node allows (`const`, `enum`), or `undefined` when it is not a literal. */
export function literalsOf(n: unknown): readonly unknown[] | undefined {
  if (hasOwn(n, 'const')) return [readProp(n, 'const')];
  const values = asArray(readProp(n, 'enum'));
  return values !== undefined && values.length > 0 ? values.slice(0, 50) : undefined;
}
