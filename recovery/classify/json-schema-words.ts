/**
 * A JSON Schema in words, for the `expected` of a field issue: "positive integer", "string of 1–80 characters",
 * "ISO date", "one of usd|eur", "array of string", "string or null". Reads through ./json-schema.ts (refs,
 * alternatives, bounded depth; never throws) and words numbers, formats and patterns with ./schema-words.ts.
 * Keywords: JSON Schema 2020-12 Validation §6 (`type`, `enum`, `const`, bounds, lengths, `pattern`), §7 (`format`);
 * Core §10.2–10.3 (`anyOf`, `oneOf`, `allOf`, `not`, `items`, `prefixItems`).
 * Pure: no I/O.
 */
import {
  MAX_DEPTH,
  MAX_VISITS,
  type Budget,
  branches,
  isInformative,
  isNullType,
  list,
  literalsOf,
  patternsOf,
  resolve,
  typesOf,
} from './json-schema';
import {
  choiceWords,
  FORMAT_WORDS,
  describeNumber,
  literalWord,
  namedValues,
  patternWords,
  type NumberBounds,
} from './schema-words';
import { formatOfPattern } from './zod-format-patterns';
import { isObjectLike, ownEntry, ownKeys, readNumber, readProp, readString } from './safe';

function describeString(n: unknown, root: unknown): string {
  const format = readString(n, 'format');
  const known = format !== undefined ? ownEntry(FORMAT_WORDS, format) : undefined;
  let base = known ?? 'string';
  const parts: string[] = [];
  const own = readString(n, 'pattern');
  for (const p of patternsOf(n, root)) {
    // A format's own regex (zod writes it beside `format`, or alone under `allOf`) is named by the format; it
    // names the exact format (`guid` under JSON Schema's `uuid`).
    const word = ownEntry(FORMAT_WORDS, formatOfPattern(p) ?? '');
    if (word !== undefined) base = word;
    else if (known === undefined || p !== own) parts.push(patternWords(p));
  }
  const min = readNumber(n, 'minLength');
  const max = readNumber(n, 'maxLength');
  if (min !== undefined && min === max) parts.push(`of exactly ${min} characters`);
  else if (min === 1 && max === undefined && base === 'string' && parts.length === 0) base = 'non-empty string';
  else if (min !== undefined && max !== undefined) parts.push(`of ${min}–${max} characters`);
  else if (min !== undefined) parts.push(`of at least ${min} characters`);
  else if (max !== undefined) parts.push(`of at most ${max} characters`);
  return [base, ...parts].join(' ');
}

function describeArray(n: unknown, root: unknown, w: Walk): string {
  const prefix = list(n, 'prefixItems');
  const items = readProp(n, 'items');
  if (prefix.length > 0) {
    const words = prefix.map((p) => wordsOf(p, root, deeper(w)));
    if (isObjectLike(items)) words.push(`…${wordsOf(items, root, deeper(w))}`);
    return `[${words.join(', ')}]`;
  }
  const noun = `array of ${isObjectLike(items) ? wordsOf(items, root, deeper(w)) : 'any value'}`;
  const min = readNumber(n, 'minItems');
  const max = readNumber(n, 'maxItems');
  if (min !== undefined && min === max) return `${noun} with exactly ${min} items`;
  if (min === 1 && max === undefined) return `non-empty ${noun}`;
  if (min !== undefined && max !== undefined) return `${noun} with ${min}–${max} items`;
  if (min !== undefined) return `${noun} with at least ${min} items`;
  if (max !== undefined) return `${noun} with at most ${max} items`;
  return noun;
}

const oneOfWords = (values: readonly unknown[]): string =>
  choiceWords([...new Set(namedValues(values).map(literalWord))]);

function describeAlternatives(alternatives: readonly unknown[], root: unknown, w: Walk): string {
  const nonNull = alternatives.filter((b) => !isNullType(resolve(b, root)));
  const orNull = nonNull.length < alternatives.length ? ' or null' : '';
  const literals = nonNull.map((b) => literalsOf(resolve(b, root)));
  if (nonNull.length > 0 && literals.every((l) => l !== undefined)) return `${oneOfWords(literals.flat())}${orNull}`;
  const words = [...new Set(nonNull.map((b) => wordsOf(b, root, deeper(w))))];
  const text = words.length > 4 ? `${words.slice(0, 4).join(' or ')} or …` : words.join(' or ');
  return `${text || 'null'}${orNull}`;
}

function describeType(type: string, n: unknown, root: unknown, w: Walk): string {
  switch (type) {
    case 'string':
      return describeString(n, root);
    case 'number':
    case 'integer': {
      const bounds: NumberBounds = {};
      for (const k of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'] as const) {
        const v = readNumber(n, k);
        if (v !== undefined) bounds[k] = v;
      }
      return describeNumber(bounds, type === 'integer');
    }
    case 'array':
      return describeArray(n, root, w);
    default:
      return type;
  }
}

/**
 * A JSON Schema in words: "positive integer", "string of 3–5 characters", "ISO date", "one of usd|eur",
 * "array of string", "string or null", "object". A schema that accepts anything is "any value"; `false` (or
 * `not: {}`, zod's `z.never()`) is "no value (remove this key)"; `undefined` or a broken ref is "a valid value".
 * @param root the document `$ref`s resolve in (default: `node`).
 */
export function describeSchema(node: unknown, root: unknown = node): string {
  return wordsOf(node, root, { depth: 0, budget: { left: MAX_VISITS } }) || 'a valid value';
}

/** Where a description is: its depth, and the visits left to the whole walk. */
interface Walk {
  depth: number;
  budget: Budget;
}

const deeper = (w: Walk): Walk => ({ depth: w.depth + 1, budget: w.budget });

function wordsOf(node: unknown, root: unknown, w: Walk): string {
  const n = resolve(node, root);
  if (w.depth > MAX_DEPTH || --w.budget.left < 0 || n === undefined) return 'a valid value';
  if (n === false || (isObjectLike(readProp(n, 'not')) && ownKeys(readProp(n, 'not')).length === 0)) {
    return 'no value (remove this key)';
  }
  if (!isInformative(n, root)) return 'any value';
  const literals = literalsOf(n);
  if (literals !== undefined) return oneOfWords(literals);
  const alternatives = branches(n);
  if (alternatives.length > 0) return describeAlternatives(alternatives, root, w);
  const types = typesOf(n);
  if (types.length > 0) {
    const words = types.filter((t) => t !== 'null').map((t) => describeType(t, n, root, w));
    return types.includes('null')
      ? `${words.join(' or ') || 'null'}${words.length > 0 ? ' or null' : ''}`
      : words.join(' or ');
  }
  if (readProp(n, 'properties') !== undefined || readProp(n, 'additionalProperties') !== undefined) return 'object';
  const members = list(n, 'allOf');
  if (members.length > 0) return [...new Set(members.map((m) => wordsOf(m, root, deeper(w))))].join(' and ');
  return 'a valid value';
}
