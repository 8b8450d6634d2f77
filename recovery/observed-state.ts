/**
 * The observed state a semantic rejection reports, so that a replan starts from what the world now holds
 * (docs/DESIGN.md, "Routes"), made safe for the model (docs/DESIGN.md, "What the model sees"): a bounded JSON copy
 * of the response body in which every string is redacted, values of secret-looking keys are dropped, and depth,
 * breadth and string length are capped.
 * Pure: no I/O.
 */
import { isSecretKey, redact } from './redact';

/** Deepest nesting kept; deeper values become `"[…]"`. */
export const MAX_OBSERVED_DEPTH = 4;
/** Most keys or items kept per object or array. */
export const MAX_OBSERVED_ENTRIES = 20;
/** Longest string kept, in characters. */
export const MAX_OBSERVED_STRING_CHARS = 200;

/** Keys whose values are dropped: anything `isSecretKey` names, plus these words anywhere in the key. */
const DROPPED_KEY =
  /(password|passwd|secret|token|api[_-]?key|authorization|cookie|credential|session|signature|stack|trace)/i;

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/**
 * A model-safe copy of `body`, or `undefined` when there is nothing to show (no body, an empty string, or a
 * non-JSON value such as a function).
 */
export function publicObservedState(body: unknown): JsonValue | undefined {
  if (body === undefined || body === '' || body === null) return undefined;
  const copy = walk(body, 0);
  return copy === undefined ? undefined : copy;
}

function walk(value: unknown, depth: number): JsonValue | undefined {
  if (value === null) return null;
  switch (typeof value) {
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'string': {
      const text = redact(value);
      return text.length > MAX_OBSERVED_STRING_CHARS ? `${text.slice(0, MAX_OBSERVED_STRING_CHARS)}…` : text;
    }
    case 'object':
      break;
    default:
      return undefined;
  }
  if (depth >= MAX_OBSERVED_DEPTH) return '[…]';
  if (Array.isArray(value)) {
    return value
      .slice(0, MAX_OBSERVED_ENTRIES)
      .map((v) => walk(v, depth + 1))
      .filter((v): v is JsonValue => v !== undefined);
  }
  const out: { [key: string]: JsonValue } = {};
  for (const key of Object.keys(value as object).slice(0, MAX_OBSERVED_ENTRIES)) {
    if (DROPPED_KEY.test(key) || isSecretKey(key)) continue;
    const v = walk((value as Record<string, unknown>)[key], depth + 1);
    if (v !== undefined) out[redact(key)] = v;
  }
  return out;
}
