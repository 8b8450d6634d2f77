/**
 * A zod 4 schema in words, for the `expected` of a field issue: "string matching ^cus_", "positive integer",
 * "one of usd|eur", "ISO date". Also the sub-schema at a path, and an object's known keys.
 *
 * Reads the schema's definition (`_zod.def`) and the definitions of its checks (`def.checks[i]._zod.def`: `check`
 * is `greater_than`, `less_than`, `min_length`, `number_format`, …) through readers that never throw, so an
 * unknown or future schema kind degrades to its type name instead of failing. Source: zod 4 core (`$ZodType`,
 * `$ZodCheck*Def` in `zod/v4/core/checks`). The checks are folded here rather than read from zod's constraint bag
 * (`_zod.bag`), which zod up to 4.5 filled for its own checks and zod 4.6 leaves empty; the bag is still read for
 * what the fold does not find (a third-party check's `onattach`).
 * Pure: no I/O.
 */
import { asArray, isObjectLike, ownKeys, readNumber, readProp, readString } from './safe';

const MAX_DEPTH = 6;

function defOf(schema: unknown): unknown {
  return readProp(readProp(schema, '_zod'), 'def');
}
function bagOf(schema: unknown): unknown {
  return readProp(readProp(schema, '_zod'), 'bag');
}

/** A schema's bounds and format, folded from its checks (the names of zod's bag, which it replaces). */
export interface SchemaConstraints {
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  /** From `length_equals` / `size_equals`. */
  length?: number;
  /** The last format check's `format` (`safeint`, `email`, `regex`, …). */
  format?: string;
}

type Bound = 'minimum' | 'maximum' | 'exclusiveMinimum' | 'exclusiveMaximum';
const LOWER: ReadonlySet<Bound> = new Set(['minimum', 'exclusiveMinimum']);

/** Where each zod 4 check kind puts its value (zod core `$ZodCheck*Def`): [constraint, field of the check's def]. */
const CHECK_FIELDS: Readonly<Record<string, readonly (readonly [keyof SchemaConstraints, string])[]>> = Object.freeze({
  min_length: [['minimum', 'minimum']],
  max_length: [['maximum', 'maximum']],
  length_equals: [['length', 'length']],
  min_size: [['minimum', 'minimum']],
  max_size: [['maximum', 'maximum']],
  size_equals: [['length', 'size']],
  multiple_of: [['multipleOf', 'value']],
});

/**
 * The constraints of a schema: each check's def (and the schema's own, when the schema is itself a check, as
 * `z.int()` is), tightest bound winning; then the bag's entries for whatever no check gave.
 */
export function constraintsOf(schema: unknown): SchemaConstraints {
  const out: SchemaConstraints = {};
  const narrow = (key: Bound, value: unknown) => {
    if (typeof value !== 'number' || Number.isNaN(value)) return;
    const cur = out[key];
    if (cur === undefined || (LOWER.has(key) ? value > cur : value < cur)) out[key] = value;
  };
  for (const c of [schema, ...(asArray(readProp(defOf(schema), 'checks')) ?? [])]) {
    const d = defOf(c);
    const check = readString(d, 'check');
    if (check === undefined) continue;
    if (check === 'greater_than' || check === 'less_than') {
      const inclusive = readProp(d, 'inclusive') === true;
      const key =
        check === 'greater_than'
          ? inclusive
            ? 'minimum'
            : 'exclusiveMinimum'
          : inclusive
            ? 'maximum'
            : 'exclusiveMaximum';
      narrow(key, readProp(d, 'value'));
    } else if (check.endsWith('_format')) {
      const format = readString(d, 'format');
      if (format !== undefined) out.format = format;
    }
    for (const [key, field] of CHECK_FIELDS[check] ?? []) {
      const v = readNumber(d, field);
      if (v === undefined) continue;
      if (key === 'minimum' || key === 'maximum') narrow(key, v);
      else out[key] = v as never;
    }
  }
  const bag = bagOf(schema);
  for (const key of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'length'] as const) {
    const v = readNumber(bag, key);
    if (out[key] === undefined && v !== undefined) out[key] = v;
  }
  out.format ??= readString(bag, 'format');
  if (out.format === undefined) delete out.format;
  return out;
}
/** The schema's kind: `string`, `number`, `object`, `optional`, … (zod 4 `def.type`). */
export function schemaType(schema: unknown): string | undefined {
  return readString(defOf(schema), 'type');
}

/** Wrapper kinds whose meaning is their `innerType`. */
const WRAPPERS = new Set(['optional', 'default', 'prefault', 'readonly', 'catch', 'nonoptional', 'success', 'promise']);

/** The schema under optional/default/readonly/pipe/lazy wrappers (nullable kept: it changes the meaning). */
export function unwrap(schema: unknown): unknown {
  let s = schema;
  for (let i = 0; i < 16; i++) {
    const def = defOf(s);
    const type = readString(def, 'type');
    if (type !== undefined && WRAPPERS.has(type)) s = readProp(def, 'innerType');
    else if (type === 'pipe') s = readProp(def, 'in');
    else if (type === 'lazy') {
      const getter = readProp(def, 'getter');
      try {
        s = typeof getter === 'function' ? (getter as () => unknown)() : undefined;
      } catch {
        return undefined;
      }
    } else return s;
  }
  return s;
}

/** Format names (zod 4 `format`) in words. */
export const FORMAT_WORDS: Readonly<Record<string, string>> = Object.freeze({
  email: 'email address',
  url: 'URL',
  uuid: 'UUID',
  guid: 'GUID',
  date: 'ISO date',
  datetime: 'ISO datetime',
  time: 'ISO time',
  duration: 'ISO duration',
  ipv4: 'IPv4 address',
  ipv6: 'IPv6 address',
  cidrv4: 'IPv4 CIDR range',
  cidrv6: 'IPv6 CIDR range',
  base64: 'base64 string',
  base64url: 'base64url string',
  jwt: 'JWT',
  emoji: 'emoji',
  nanoid: 'nanoid',
  cuid: 'cuid',
  cuid2: 'cuid2',
  ulid: 'ULID',
  xid: 'XID',
  ksuid: 'KSUID',
  e164: 'E.164 phone number',
  lowercase: 'lowercase string',
  uppercase: 'uppercase string',
});

/** Example masks for formats a model often gets wrong. */
export const FORMAT_EXAMPLES: Readonly<Record<string, string>> = Object.freeze({
  date: 'YYYY-MM-DD',
  datetime: 'YYYY-MM-DDTHH:MM:SSZ',
  time: 'HH:MM:SS',
});

/** Bounds that are the range of a number format, not a constraint someone wrote. */
const SENTINELS = new Set([
  Number.MAX_SAFE_INTEGER,
  -Number.MAX_SAFE_INTEGER,
  2147483647,
  -2147483648,
  4294967295,
  3.4028234663852886e38,
  -3.4028234663852886e38,
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
]);
const INT_FORMATS = new Set(['safeint', 'int32', 'uint32', 'int64', 'uint64']);

function bound(bag: unknown, key: string): number | undefined {
  const v = readNumber(bag, key);
  return v === undefined || SENTINELS.has(v) ? undefined : v;
}

/** `"usd"` → usd; other literals rendered as JSON. */
function literalWord(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'bigint') return `${v.toString()}n`;
  if (v === undefined) return 'undefined';
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return '[value]';
  }
}

/** The format of a string schema (`email`, `date`, `regex`, `starts_with`, …), if any. */
export function stringFormat(schema: unknown): string | undefined {
  return readString(defOf(schema), 'format') ?? constraintsOf(schema).format;
}

/** The `^…` literal prefix a string schema requires (from `.startsWith()` or a regex like `/^cus_/`), if any. */
export function requiredPrefix(schema: unknown): string | undefined {
  for (const c of asArray(readProp(defOf(schema), 'checks')) ?? []) {
    const d = defOf(c);
    const prefix = readString(d, 'prefix');
    if (readString(d, 'format') === 'starts_with' && prefix) return prefix;
    const pattern = readProp(d, 'pattern');
    if (readString(d, 'format') === 'regex' && pattern instanceof RegExp) {
      const m = /^\^([A-Za-z0-9_:-]+)(?:$|[.([])/.exec(pattern.source);
      if (m) return m[1];
    }
  }
  return undefined;
}

function describeString(schema: unknown): string {
  const def = defOf(schema);
  const bag = constraintsOf(schema);
  const parts: string[] = [];
  const format = readString(def, 'format');
  let base = format !== undefined && FORMAT_WORDS[format] ? FORMAT_WORDS[format]! : 'string';
  for (const c of asArray(readProp(def, 'checks')) ?? []) {
    const d = defOf(c);
    const f = readString(d, 'format');
    const pattern = readProp(d, 'pattern');
    if (f === 'regex' && pattern instanceof RegExp) parts.push(`matching ${pattern.source}`);
    else if (f === 'starts_with') parts.push(`starting with ${literalWord(readProp(d, 'prefix'))}`);
    else if (f === 'ends_with') parts.push(`ending with ${literalWord(readProp(d, 'suffix'))}`);
    else if (f === 'includes') parts.push(`containing ${literalWord(readProp(d, 'includes'))}`);
    else if (f !== undefined && FORMAT_WORDS[f] && base === 'string') base = FORMAT_WORDS[f]!;
  }
  const len = readNumber(bag, 'length');
  const min = readNumber(bag, 'minimum');
  const max = readNumber(bag, 'maximum');
  if (len !== undefined) parts.push(`of exactly ${len} characters`);
  else if (min === 1 && max === undefined && base === 'string' && parts.length === 0) base = 'non-empty string';
  else if (min !== undefined && max !== undefined) parts.push(`of ${min}–${max} characters`);
  else if (min !== undefined) parts.push(`of at least ${min} characters`);
  else if (max !== undefined) parts.push(`of at most ${max} characters`);
  return [base, ...parts].join(' ');
}

/** A number schema's constraints in words: "positive integer", "integer between 1 and 10", "number > 5". */
export function describeNumberBag(bag: unknown, isInt: boolean): string {
  const noun = isInt ? 'integer' : 'number';
  const min = bound(bag, 'minimum');
  const max = bound(bag, 'maximum');
  const exMin = bound(bag, 'exclusiveMinimum');
  const exMax = bound(bag, 'exclusiveMaximum');
  const multipleOf = readNumber(bag, 'multipleOf');
  const hasLow = min !== undefined || exMin !== undefined;
  const high: string[] = [];
  if (max !== undefined) high.push(`<= ${max}`);
  if (exMax !== undefined) high.push(`< ${exMax}`);
  let text: string;
  let extra: string[];
  if (exMin === 0 && min === undefined) [text, extra] = [`positive ${noun}`, high];
  else if (min === 0 && exMin === undefined) [text, extra] = [`non-negative ${noun}`, high];
  else if (!hasLow && exMax === 0 && max === undefined) [text, extra] = [`negative ${noun}`, []];
  else if (!hasLow && max === 0 && exMax === undefined) [text, extra] = [`non-positive ${noun}`, []];
  else if (min !== undefined && max !== undefined && exMin === undefined && exMax === undefined) {
    [text, extra] = [`${noun} between ${min} and ${max}`, []];
  } else {
    text = noun;
    extra = [...(min !== undefined ? [`>= ${min}`] : []), ...(exMin !== undefined ? [`> ${exMin}`] : []), ...high];
  }
  if (multipleOf !== undefined) extra = [...extra, `multiple of ${multipleOf}`];
  return extra.length === 0 ? text : `${text} ${extra.join(' and ')}`;
}

function describeArray(schema: unknown, depth: number): string {
  const bag = constraintsOf(schema);
  const el = describeSchema(readProp(defOf(schema), 'element'), depth + 1);
  const len = readNumber(bag, 'length');
  const min = readNumber(bag, 'minimum');
  const max = readNumber(bag, 'maximum');
  const noun = `array of ${el}`;
  if (len !== undefined) return `${noun} with exactly ${len} items`;
  if (min === 1 && max === undefined) return `non-empty ${noun}`;
  if (min !== undefined && max !== undefined) return `${noun} with ${min}–${max} items`;
  if (min !== undefined) return `${noun} with at least ${min} items`;
  if (max !== undefined) return `${noun} with at most ${max} items`;
  return noun;
}

/**
 * A schema in words. Unknown kinds degrade to their type name; `undefined` input gives `"a valid value"`.
 * @param depth recursion guard (internal).
 */
export function describeSchema(schema: unknown, depth = 0): string {
  if (depth > MAX_DEPTH) return 'a valid value';
  const def = defOf(schema);
  const type = readString(def, 'type');
  if (type === undefined) return 'a valid value';
  if (WRAPPERS.has(type) || type === 'pipe' || type === 'lazy') {
    const inner = unwrap(schema);
    return inner === schema ? type : describeSchema(inner, depth + 1);
  }
  switch (type) {
    case 'nullable':
      return `${describeSchema(readProp(def, 'innerType'), depth + 1)} or null`;
    case 'string':
      return describeString(schema);
    case 'number': {
      const constraints = constraintsOf(schema);
      return describeNumberBag(constraints, INT_FORMATS.has(constraints.format ?? ''));
    }
    case 'bigint':
      return 'integer';
    case 'boolean':
    case 'null':
    case 'date':
    case 'symbol':
      return type;
    case 'undefined':
    case 'void':
      return 'no value';
    case 'any':
    case 'unknown':
      return 'any value';
    case 'never':
      return 'no value (remove this key)';
    case 'enum': {
      const entries = readProp(def, 'entries');
      const values = ownKeys(entries).map((k) => literalWord(readProp(entries, k)));
      return `one of ${values.join('|')}`;
    }
    case 'literal': {
      const values = (asArray(readProp(def, 'values')) ?? []).map(literalWord);
      return values.length === 1 ? `exactly ${values[0]}` : `one of ${values.join('|')}`;
    }
    case 'array':
      return describeArray(schema, depth);
    case 'tuple':
      return `[${(asArray(readProp(def, 'items')) ?? []).map((s) => describeSchema(s, depth + 1)).join(', ')}]`;
    case 'union': {
      const words = [...new Set((asArray(readProp(def, 'options')) ?? []).map((s) => describeSchema(s, depth + 1)))];
      return words.length > 4 ? `${words.slice(0, 4).join(' or ')} or …` : words.join(' or ');
    }
    case 'object':
    case 'record':
    case 'intersection':
      return 'object';
    case 'template_literal':
      return 'string';
    default:
      return type;
  }
}

/**
 * The sub-schema at `path` (object keys, array/tuple indexes, record values; through wrappers and unions —
 * the first union option that has the path), or `undefined` when the path leaves the schema.
 */
export function schemaAt(schema: unknown, path: readonly PropertyKey[], depth = 0): unknown {
  if (depth > 32) return undefined;
  if (path.length === 0) return schema;
  const s = unwrap(schema);
  const def = defOf(s);
  const type = readString(def, 'type');
  const [head, ...rest] = path;
  switch (type) {
    case 'nullable':
      return schemaAt(readProp(def, 'innerType'), path, depth + 1);
    case 'object': {
      const shape = readProp(def, 'shape');
      if (typeof head === 'string' && Object.prototype.hasOwnProperty.call(isObjectLike(shape) ? shape : {}, head)) {
        return schemaAt(readProp(shape, head), rest, depth + 1);
      }
      const catchall = readProp(def, 'catchall');
      return catchall !== undefined && schemaType(catchall) !== 'never'
        ? schemaAt(catchall, rest, depth + 1)
        : undefined;
    }
    case 'array':
      return typeof head === 'number' ? schemaAt(readProp(def, 'element'), rest, depth + 1) : undefined;
    case 'tuple': {
      const items = asArray(readProp(def, 'items')) ?? [];
      if (typeof head !== 'number') return undefined;
      return schemaAt(head < items.length ? items[head] : readProp(def, 'rest'), rest, depth + 1);
    }
    case 'record':
      return schemaAt(readProp(def, 'valueType'), rest, depth + 1);
    case 'union':
      for (const option of asArray(readProp(def, 'options')) ?? []) {
        const hit = schemaAt(option, path, depth + 1);
        if (hit !== undefined) return hit;
      }
      return undefined;
    case 'intersection':
      return schemaAt(readProp(def, 'left'), path, depth + 1) ?? schemaAt(readProp(def, 'right'), path, depth + 1);
    default:
      return undefined;
  }
}

/** The declared keys of an object schema (through wrappers), in declaration order; `[]` for other kinds. */
export function objectKeys(schema: unknown): string[] {
  const s = unwrap(schema);
  const def = defOf(s);
  if (readString(def, 'type') === 'nullable') return objectKeys(readProp(def, 'innerType'));
  return readString(def, 'type') === 'object' ? ownKeys(readProp(def, 'shape')) : [];
}

/** True when the schema (through wrappers) is a number or bigint. */
export function isNumeric(schema: unknown): boolean {
  const t = schemaType(unwrap(schema));
  return t === 'number' || t === 'bigint';
}

/** True when the schema (through wrappers) is an integer number. */
export function isInteger(schema: unknown): boolean {
  const s = unwrap(schema);
  return schemaType(s) === 'number' && INT_FORMATS.has(constraintsOf(s).format ?? '');
}
