/**
 * The word tables of field issues: string formats, example masks, number bounds and regex patterns in words, for
 * the `expected` of a field issue ("email address", "positive integer", "string starting with cus_").
 *
 * Keyed by JSON Schema's `format` (JSON Schema 2020-12 Validation §7.3: `date-time`, `date`, `time`,
 * `duration`, `email`, `uri`, `uuid`, `ipv4`, `ipv6`, …), plus the names zod 4's `z.toJSONSchema` emits for its
 * own formats (`base64`, `cidrv4`, `e164`, `ulid`, …; zod `json-schema-processors`, `formatMap`). A zod issue
 * names zod's format (`datetime`, `url`, `guid`): `jsonFormatOf` maps it with zod's own table.
 * Pure: no I/O.
 */
import { ownEntry } from './safe';

/** Format names (JSON Schema `format`) in words. */
export const FORMAT_WORDS: Readonly<Record<string, string>> = Object.freeze({
  email: 'email address',
  uri: 'URL',
  uuid: 'UUID',
  /** zod's `z.guid()`, written as `format: uuid` with a looser pattern (recognised by ./zod-format-patterns.ts). */
  guid: 'GUID',
  date: 'ISO date',
  'date-time': 'ISO datetime',
  time: 'ISO time',
  duration: 'ISO duration',
  ipv4: 'IPv4 address',
  ipv6: 'IPv6 address',
  hostname: 'hostname',
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

/** Example masks for formats a model often gets wrong (JSON Schema `format`). */
export const FORMAT_EXAMPLES: Readonly<Record<string, string>> = Object.freeze({
  date: 'YYYY-MM-DD',
  'date-time': 'YYYY-MM-DDTHH:MM:SSZ',
  time: 'HH:MM:SS',
});

/** zod's format name → JSON Schema's, where they differ (zod `json-schema-processors`, `formatMap`; `guid` keeps its own word). */
const ZOD_FORMATS: Readonly<Record<string, string>> = Object.freeze({
  url: 'uri',
  datetime: 'date-time',
  json_string: 'json-string',
});

/** The JSON Schema `format` for a format named by a zod issue (`datetime` → `date-time`). */
export function jsonFormatOf(zodFormat: string): string {
  return ownEntry(ZOD_FORMATS, zodFormat) ?? zodFormat;
}

/** A value the router may name: a non-string, or a word of at most 40 letters, digits and `_.:/@+-`. */
const PLAIN_VALUE = /^[\p{L}\p{N}_.:/@+-]{1,40}$/u;
/** What the router says of allowed values it does not name. */
export const UNNAMED_VALUES = "one of the values the tool's input schema lists";

/**
 * Allowed values the router may name (at most 50), or none when any string among them is more than a plain word: a
 * tool's input schema may be a server's (an MCP tool's `inputSchema`), and its words are data, never the router's
 * (docs/DESIGN.md, "Words have owners"). Both readers of allowed values (a JSON Schema's `enum`, a zod issue's
 * `values`) and the suggestions name values through it.
 */
export function namedValues(values: readonly unknown[]): readonly unknown[] {
  const first = values.slice(0, 50);
  return first.every((v) => typeof v !== 'string' || PLAIN_VALUE.test(v)) ? first : [];
}

/** Allowed values, each already in words, as the router says them: `exactly usd`, `one of usd|eur`, or `UNNAMED_VALUES`. */
export function choiceWords(words: readonly string[]): string {
  if (words.length === 0) return UNNAMED_VALUES;
  return words.length === 1 ? `exactly ${words[0]}` : `one of ${words.join('|')}`;
}

/** `"usd"` → usd; other literals rendered as JSON. Never throws. */
export function literalWord(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'bigint') return `${v.toString()}n`;
  if (v === undefined) return 'undefined';
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return '[value]';
  }
}

/** Bounds that are the range of a number format (`z.int()`, `z.int32()`, …), not a constraint someone wrote. */
const SENTINELS: ReadonlySet<number> = new Set([
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

/** A number's bounds, named as in JSON Schema 2020-12 Validation §6.2. */
export interface NumberBounds {
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
}

const real = (v: number | undefined): number | undefined => (v === undefined || SENTINELS.has(v) ? undefined : v);

/** A number's bounds in words: "positive integer", "integer between 1 and 10", "number > 5". */
export function describeNumber(bounds: NumberBounds, isInt: boolean): string {
  const noun = isInt ? 'integer' : 'number';
  const min = real(bounds.minimum);
  const max = real(bounds.maximum);
  const exMin = real(bounds.exclusiveMinimum);
  const exMax = real(bounds.exclusiveMaximum);
  const hasLow = min !== undefined || exMin !== undefined;
  const high = [...(max !== undefined ? [`<= ${max}`] : []), ...(exMax !== undefined ? [`< ${exMax}`] : [])];
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
  if (bounds.multipleOf !== undefined) extra = [...extra, `multiple of ${bounds.multipleOf}`];
  return extra.length === 0 ? text : `${text} ${extra.join(' and ')}`;
}

/** A run of literal characters in a regex source: plain characters, or a metacharacter escaped with `\`. */
const LITERAL = String.raw`(?:[^\\^$.*+?()[\]{}|]|\\[\\^$.*+?()[\]{}|/-])+`;
const STARTS = new RegExp(String.raw`^\^(${LITERAL})\.\*\$?$`);
const ENDS = new RegExp(String.raw`^\.\*(${LITERAL})\$$`);
const CONTAINS = new RegExp(`^(${LITERAL})$`);
const unescape = (s: string): string => s.replace(/\\(.)/g, '$1');

/** What the router says of a pattern it does not quote (a server's words, or too long to be plain). */
export const UNNAMED_PATTERN = "matching the pattern the tool's input schema gives";
/** A regex source the router may quote (`^ord-[0-9]+$`): at most 40 visible characters, none a space: no sentence. */
const PLAIN_PATTERN = /^[\p{L}\p{N}\p{P}\p{S}]{1,40}$/u;

/**
 * A pattern's literal part (`starting with cus_`), or `UNNAMED_PATTERN` unless it is a plain word (`PLAIN_VALUE`): an
 * MCP tool's input schema is the server's (docs/DESIGN.md, "Whose words reach the model"). ./zod-issues.ts uses it too.
 */
export function patternPartWords(relation: 'starting with' | 'ending with' | 'containing', part: string): string {
  return PLAIN_VALUE.test(part) ? `${relation} ${part}` : UNNAMED_PATTERN;
}

/**
 * A regex source in words. zod writes `.startsWith('cus_')` as `^cus_.*`, `.endsWith('.pdf')` as `.*\.pdf$` and
 * `.includes('@')` as `@` (zod `$ZodCheckStartsWith`, …): "starting with cus_", "ending with .pdf", "containing @";
 * any other pattern is "matching <source>" when it is plain (`PLAIN_PATTERN`), else `UNNAMED_PATTERN`.
 */
export function patternWords(source: string): string {
  const starts = STARTS.exec(source);
  if (starts) return patternPartWords('starting with', unescape(starts[1]!));
  const ends = ENDS.exec(source);
  if (ends) return patternPartWords('ending with', unescape(ends[1]!));
  const contains = CONTAINS.exec(source);
  if (contains) return patternPartWords('containing', unescape(contains[1]!));
  return PLAIN_PATTERN.test(source) ? `matching ${source}` : UNNAMED_PATTERN;
}

/** The literal prefix a `^…` pattern requires (`^cus_`, `^cus_.*`, `^ord-[0-9]+$` → `cus_`, `ord-`), if any. */
export function patternPrefix(source: string): string | undefined {
  const m = /^\^([A-Za-z0-9_:-]+)(?:$|[.([])/.exec(source);
  return m ? m[1] : undefined;
}
