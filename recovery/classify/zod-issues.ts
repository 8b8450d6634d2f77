/**
 * zod 4's issues read by their documented, typed fields (`$ZodIssue` in zod `v4/core/errors`: `code`, `path`,
 * `message`, `input`, and per code `expected`, `origin`, `minimum`/`maximum`/`inclusive`, `format`, `pattern`,
 * `prefix`/`suffix`/`includes`, `divisor`, `keys`, `values`, `errors`, `discriminator`, `options`), never zod's
 * internals; and a zod schema's JSON Schema, for when a caller gives the schema rather than its JSON form.
 *
 * Every read goes through never-throwing readers (./safe.ts), so a forged or foreign issue degrades to its message.
 * Pure: no I/O.
 */
import { zod } from '../zod-runtime';
import { choiceWords, FORMAT_WORDS, jsonFormatOf, namedValues, patternPartWords, patternWords } from './schema-words';
import { asArray, ownEntry, readProp, readString, renderValue } from './safe';
import { pathSegment } from './text';

/** At most this many field issues are reported for one call. */
export const MAX_ZOD_FIELD_ISSUES = 25;

export type Seg = string | number;

/** One problem: a zod issue, or one key of an `unrecognized_keys` issue (code `unknown_key`). */
export interface Entry {
  path: Seg[];
  code: string;
  issue: unknown;
}

/** A zod issue's `path` as keys and indexes (at most 64 segments). */
export function toPath(raw: unknown): Seg[] {
  return (asArray(raw) ?? []).slice(0, 64).map(toSegment);
}

/**
 * One path segment as a key or index (`pathSegment`: only a non-negative safe integer stays a number). A segment
 * that is neither (a symbol, or an object from a forged issue, e.g. `{ toString: false }`, which `String()` cannot
 * convert) becomes a description of it, never an exception.
 */
function toSegment(p: unknown): Seg {
  if (typeof p === 'number' || typeof p === 'string') return pathSegment(p);
  if (typeof p === 'symbol') return p.description ?? 'symbol';
  if (p === null || typeof p !== 'object') return String(p);
  try {
    return String(p);
  } catch {
    return '[object]';
  }
}

/** Most problems read from one error (`MAX_ZOD_FIELD_ISSUES` are reported; the rest only help suggestions). */
const MAX_ENTRIES = 4 * MAX_ZOD_FIELD_ISSUES;

/**
 * The problems of a zod error, in zod's order: one per issue, one per unrecognized key; at most `MAX_ENTRIES`
 * (suggestions compare each problem with its siblings).
 */
export function entriesOf(error: unknown): Entry[] {
  const entries: Entry[] = [];
  for (const issue of (asArray(readProp(error, 'issues')) ?? []).slice(0, MAX_ENTRIES)) {
    if (entries.length >= MAX_ENTRIES) break;
    const path = toPath(readProp(issue, 'path'));
    const code = readString(issue, 'code') ?? 'custom';
    if (code === 'unrecognized_keys') {
      for (const k of (asArray(readProp(issue, 'keys')) ?? []).slice(0, MAX_ZOD_FIELD_ISSUES)) {
        if (typeof k === 'string') entries.push({ path: [...path, k], code: 'unknown_key', issue });
      }
    } else entries.push({ path, code, issue });
  }
  return entries.slice(0, MAX_ENTRIES);
}

/** zod's `expected` / `origin` type names in words, where they differ. */
const TYPE_WORDS: Readonly<Record<string, string>> = Object.freeze({
  int: 'integer',
  bigint: 'integer',
  nan: 'number',
});

function regexSource(pattern: unknown): string | undefined {
  if (typeof pattern !== 'string') return undefined;
  const m = /^\/(.*)\/[a-z]*$/s.exec(pattern);
  return m ? m[1] : pattern;
}

const literal = (v: unknown): string => (typeof v === 'string' ? v : renderValue(v, 100));

function formatWords(issue: unknown): string {
  const format = readString(issue, 'format') ?? '';
  if (format === 'regex') return `string ${patternWords(regexSource(readProp(issue, 'pattern')) ?? '')}`;
  if (format === 'starts_with')
    return `string ${patternPartWords('starting with', literal(readProp(issue, 'prefix')))}`;
  if (format === 'ends_with') return `string ${patternPartWords('ending with', literal(readProp(issue, 'suffix')))}`;
  if (format === 'includes') return `string ${patternPartWords('containing', literal(readProp(issue, 'includes')))}`;
  return ownEntry(FORMAT_WORDS, jsonFormatOf(format)) ?? `${format} string`;
}

function sizeWords(issue: unknown, small: boolean): string {
  const origin = readString(issue, 'origin') ?? '';
  const limit = readProp(issue, small ? 'minimum' : 'maximum');
  const n = typeof limit === 'number' || typeof limit === 'bigint' ? limit.toString() : literal(limit);
  const inclusive = readProp(issue, 'inclusive') !== false;
  if (origin === 'string') {
    if (readProp(issue, 'exact') === true) return `string of exactly ${n} characters`;
    if (!small) return `string of at most ${n} characters`;
    return n === '1' ? 'non-empty string' : `string of at least ${n} characters`;
  }
  if (origin === 'array' || origin === 'set') {
    if (readProp(issue, 'exact') === true) return `exactly ${n} items`;
    return small ? (n === '1' ? 'non-empty list' : `at least ${n} items`) : `at most ${n} items`;
  }
  const noun = origin === 'int' || origin === 'bigint' ? 'integer' : 'number';
  if (small && n === '0') return `${inclusive ? 'non-negative' : 'positive'} ${noun}`;
  return `${noun} ${small ? (inclusive ? '>=' : '>') : inclusive ? '<=' : '<'} ${n}`;
}

function unionWords(issue: unknown): string {
  const options = (asArray(readProp(issue, 'options')) ?? []).slice(0, 50);
  if (options.length > 0) return `one of ${options.map(literal).join('|')}`;
  const words = new Set<string>();
  for (const branch of (asArray(readProp(issue, 'errors')) ?? []).slice(0, 8)) {
    const first = (asArray(branch) ?? [])[0];
    if (first !== undefined && toPath(readProp(first, 'path')).length === 0) words.add(expectedFromIssue(first));
  }
  return words.size > 0 ? [...words].join(' or ') : 'a valid value';
}

/** An issue's allowed values the router may name (./schema-words.ts `namedValues`). */
export const issueValues = (issue: unknown): readonly unknown[] =>
  namedValues(asArray(readProp(issue, 'values')) ?? []);

/** What each issue code says was expected, in words (zod 4 `$ZodIssue` codes). */
const EXPECTED_BY_CODE: Readonly<Record<string, (issue: unknown) => string>> = Object.freeze({
  invalid_type: (issue) => {
    const exp = readString(issue, 'expected') ?? 'a valid value';
    return ownEntry(TYPE_WORDS, exp) ?? exp;
  },
  invalid_value: (issue) => choiceWords(issueValues(issue).map(literal)),
  invalid_format: formatWords,
  too_small: (issue) => sizeWords(issue, true),
  too_big: (issue) => sizeWords(issue, false),
  not_multiple_of: (issue) => `multiple of ${literal(readProp(issue, 'divisor'))}`,
  invalid_union: unionWords,
});

/** What a zod issue says was expected, in words, when the schema is not known. */
export function expectedFromIssue(issue: unknown): string {
  const words = ownEntry(EXPECTED_BY_CODE, readString(issue, 'code') ?? '')?.(issue);
  if (words !== undefined) return words;
  const message = readString(issue, 'message');
  return message !== undefined && message.trim() !== '' ? message : 'a valid value';
}

/** The issue's type names that are numbers (`invalid_type`'s `expected`). */
export function issueExpectsNumber(issue: unknown): { numeric: boolean; integer: boolean } {
  const exp = readString(issue, 'expected');
  return { numeric: exp === 'number' || exp === 'int' || exp === 'bigint', integer: exp === 'int' || exp === 'bigint' };
}

/** The type word for "received": `a string`, `an object`, … when only the issue message is known. */
export function receivedFromMessage(issue: unknown): string | undefined {
  const received = readString(issue, 'received');
  if (received !== undefined) return received;
  const m = /received (\w+)\s*$/.exec(readString(issue, 'message') ?? '');
  if (!m) return undefined;
  const word = m[1]!;
  return word === 'undefined' ? 'missing' : `${/^[aeiou]/.test(word) ? 'an' : 'a'} ${word}`;
}

/** A zod schema's JSON Schema, once per schema object; `null` when it has none (or is not a zod schema). */
const jsonSchemas = new WeakMap<object, unknown>();

/**
 * The JSON Schema of a zod 4 schema, as a tool's spec holds it (`z.toJSONSchema(schema, { io: 'input',
 * unrepresentable: 'any' })`, as activities/define-tool.ts computes it), cached per schema object.
 * @returns the JSON Schema, or `undefined` when `schema` has no JSON form (zod throws, e.g. a transform's
 *   output, or it is not a zod schema): field issues then come from the issues alone.
 */
export function jsonSchemaOf(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null) return undefined;
  if (!jsonSchemas.has(schema)) {
    let json: unknown = null;
    try {
      json = zod().toJSONSchema(schema as never, { io: 'input', unrepresentable: 'any' });
    } catch {
      json = null;
    }
    jsonSchemas.set(schema, json);
  }
  return jsonSchemas.get(schema) ?? undefined;
}
