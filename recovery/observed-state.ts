/**
 * The observed state a semantic rejection reports, so that a replan starts from what the world now holds
 * (docs/DESIGN.md, "Routes"), made safe for the model (docs/DESIGN.md, "What the model sees"): a bounded JSON copy
 * of the response body in which every string and key is stripped of invisible characters and redacted, the values
 * of keys that name a secret or an account identifier are dropped at any depth (`keyMeaning`, with the parent's
 * key: `{ api: { key } }`), and so is the value of a named entry whose name does (`{ name: 'API_KEY', value }`);
 * depth, breadth, string length and the number of values visited are capped.
 *
 * Total on foreign values: a getter or a Proxy trap that throws, a revoked Proxy, a cycle, a BigInt, a symbol or a
 * function never makes it throw; what cannot be read is left out. A body that arrives as JSON text is parsed first.
 * Pure: no I/O; the budget of a call is local to it.
 */
import { parseBody } from './classify/body';
import { readProp } from './classify/safe';
import { keyMeaning } from './redact-keys';
import { cutAtWhitespace, redact } from './redact';
import { stripControls } from './untrusted';

/** Deepest nesting kept; deeper values become `"[…]"`. */
export const MAX_OBSERVED_DEPTH = 4;
/** Most keys or items kept per object or array. */
export const MAX_OBSERVED_ENTRIES = 20;
/** Longest string kept, in characters. */
export const MAX_OBSERVED_STRING_CHARS = 200;
/** Most values (objects, arrays and leaves) read from one body; later ones are left out. */
export const MAX_OBSERVED_NODES = 400;
/** Longest key kept, in characters; a longer key is left out with its value. */
export const MAX_OBSERVED_KEY_CHARS = 100;
/** Longest JSON text parsed as a body, in characters; longer text is kept as a (cut) string. */
export const MAX_OBSERVED_JSON_CHARS = 256 * 1024;
/** Longest part of a string that is redacted, in characters: it is cut at a whitespace first. */
const MAX_READ_STRING_CHARS = 4 * 1024;

/** The fields that name a named entry, and those that hold its value (`namesASecret`). */
const NAME_FIELD = /^(?:name|key|header|variable|field|param(?:eter)?)$/i;
const VALUE_FIELD = /^(?:value|val|data|secret|content|text|valueFrom)$/i;

/** Keys whose values carry stack traces (their paths and hosts are of no use to the model). */
const STACK_KEY = /^(?:stack|stack_?trace|trace|traceback|backtrace)$/i;

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/**
 * A model-safe copy of `body`, or `undefined` when there is nothing to show (no body, an empty string, or a
 * non-JSON value such as a function). Never throws.
 */
export function publicObservedState(body: unknown): JsonValue | undefined {
  if (body === undefined || body === '' || body === null) return undefined;
  const budget = { nodes: MAX_OBSERVED_NODES };
  const copy = walk(parseBody(body, MAX_OBSERVED_JSON_CHARS), 0, undefined, budget);
  return copy === undefined ? undefined : copy;
}

function walk(
  value: unknown,
  depth: number,
  parentKey: string | undefined,
  budget: { nodes: number },
): JsonValue | undefined {
  if (budget.nodes <= 0) return undefined;
  budget.nodes -= 1;
  switch (typeof value) {
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'string':
      return publicString(value);
    case 'object':
      break;
    default:
      return undefined;
  }
  if (value === null) return null;
  if (depth >= MAX_OBSERVED_DEPTH) return '[…]';
  try {
    if (Array.isArray(value)) return walkArray(value, depth, parentKey, budget);
    if (ArrayBuffer.isView(value)) return '[binary]';
    if (value instanceof Date) return Number.isFinite(value.getTime()) ? value.toISOString() : null;
    return walkObject(value, depth, parentKey, budget);
  } catch {
    return undefined; // a revoked Proxy, a trap or getter that throws: nothing is shown of it
  }
}

function walkArray(
  items: readonly unknown[],
  depth: number,
  parentKey: string | undefined,
  budget: { nodes: number },
): JsonValue[] {
  const out: JsonValue[] = [];
  const n = Math.min(items.length, MAX_OBSERVED_ENTRIES);
  for (let i = 0; i < n; i++) {
    const v = walk(readProp(items, String(i)), depth + 1, parentKey, budget);
    if (v !== undefined) out.push(v);
  }
  return out;
}

function walkObject(
  value: object,
  depth: number,
  parentKey: string | undefined,
  budget: { nodes: number },
): { [key: string]: JsonValue } {
  const out: { [key: string]: JsonValue } = {};
  const keys = Object.keys(value).slice(0, MAX_OBSERVED_ENTRIES);
  const namesSecret = namesASecret(value, keys);
  for (const key of keys) {
    if (key.length > MAX_OBSERVED_KEY_CHARS || STACK_KEY.test(key)) continue;
    if (keyMeaning(key, parentKey) !== undefined || (namesSecret && VALUE_FIELD.test(key))) continue;
    const v = walk(readProp(value, key), depth + 1, key, budget);
    if (v === undefined) continue;
    const shown = redact(stripControls(key));
    Object.defineProperty(out, shown, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * True when `value` is a named entry whose name names a secret or an account: `{ name: 'API_KEY', value }`
 * (Kubernetes `env`, CI and PaaS config vars), `{ Key: 'Authorization', Value }` (header lists); its `VALUE_FIELD`
 * fields are then left out.
 */
function namesASecret(value: object, keys: readonly string[]): boolean {
  for (const key of keys) {
    if (!NAME_FIELD.test(key)) continue;
    const name = readProp(value, key);
    if (typeof name === 'string' && name.length <= MAX_OBSERVED_KEY_CHARS && keyMeaning(name) !== undefined)
      return true;
  }
  return false;
}

/** A string as the model may read it: cut (at a whitespace), `stripControls`ed, redacted, cut to length. */
function publicString(text: string): string {
  const head = text.length > MAX_READ_STRING_CHARS ? `${cutAtWhitespace(text, MAX_READ_STRING_CHARS)}…` : text;
  const out = redact(stripControls(head));
  return out.length > MAX_OBSERVED_STRING_CHARS ? `${out.slice(0, MAX_OBSERVED_STRING_CHARS)}…` : out;
}
