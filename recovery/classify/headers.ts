/**
 * Case-insensitive header reads from either a plain record (Node's `IncomingHttpHeaders`, `Object.fromEntries`
 * of a response) or a WHATWG `Headers`-like object with `.get(name)`. Never throws; a bag that throws reads as empty.
 * Pure: no I/O.
 */
import { asArray, isObjectLike, ownKeys, readProp } from './safe';

/** One header's value in a plain record; Node gives `string[]` for repeated headers such as `set-cookie`. */
export type HeaderValue = string | string[] | undefined;
/** A WHATWG `Headers`-like object. `get` returns the values joined with `, `, or `null`. */
export interface HeadersLike {
  /** A header's value, case-insensitively; null when absent. */
  get(name: string): string | null;
}
/** Response headers as an adapter hands them over. */
export type HeadersInput = Readonly<Record<string, HeaderValue>> | HeadersLike;

/**
 * Every value of header `name` (case-insensitive), in order; `[]` when absent.
 * A `Headers`-like `.get()` yields one combined value; a record may hold a string or an array of strings.
 */
export function headerValues(headers: unknown, name: string): string[] {
  if (!isObjectLike(headers)) return [];
  const lower = name.toLowerCase();
  const get = readProp(headers, 'get');
  if (typeof get === 'function') {
    try {
      const v: unknown = get.call(headers, lower);
      if (typeof v === 'string') return [v];
      // A Map-like `get` may return arrays; fall through to the record scan otherwise.
      const arr = asArray(v);
      if (arr) return arr.filter((x): x is string => typeof x === 'string');
      if (v === null) return [];
    } catch {
      return [];
    }
  }
  const out: string[] = [];
  for (const key of ownKeys(headers)) {
    if (key.toLowerCase() !== lower) continue;
    const v = readProp(headers, key);
    if (typeof v === 'string') out.push(v);
    else if (typeof v === 'number' && Number.isFinite(v)) out.push(String(v));
    else for (const x of asArray(v) ?? []) if (typeof x === 'string') out.push(x);
  }
  return out;
}

/** The first value of header `name` (case-insensitive), trimmed; `undefined` when absent or blank. */
export function headerValue(headers: unknown, name: string): string | undefined {
  for (const v of headerValues(headers, name)) {
    const t = v.trim();
    if (t !== '') return t;
  }
  return undefined;
}
