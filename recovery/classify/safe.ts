/**
 * Defensive readers for values of unknown shape (thrown errors, response bodies, header bags).
 *
 * A tool may throw anything, and a body may be a Proxy, an object with throwing getters or a cycle. The
 * classifiers read only through these helpers, which never throw: a read that throws is an absent value.
 * Pure: no I/O.
 */

/** A non-null object or function (errors may be functions with properties). */
export function isObjectLike(value: unknown): value is object {
  return (typeof value === 'object' && value !== null) || typeof value === 'function';
}

/** `value[key]`, or `undefined` when `value` is not object-like or the read throws. */
export function readProp(value: unknown, key: string): unknown {
  if (!isObjectLike(value)) return undefined;
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

/** `value[key]` when it is a string, else `undefined`. */
export function readString(value: unknown, key: string): string | undefined {
  const v = readProp(value, key);
  return typeof v === 'string' ? v : undefined;
}

/** `value[key]` when it is a finite number, else `undefined`. */
export function readNumber(value: unknown, key: string): number | undefined {
  const v = readProp(value, key);
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** `value` as an array, or `undefined` when it is not one (or inspecting it throws). */
export function asArray(value: unknown): readonly unknown[] | undefined {
  try {
    return Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Own enumerable string keys, or `[]` when listing them throws. */
export function ownKeys(value: unknown): string[] {
  if (!isObjectLike(value)) return [];
  try {
    return Object.keys(value);
  } catch {
    return [];
  }
}

/** True when `value` has `key` as an own property (never throws). */
export function hasOwn(value: unknown, key: string | number): boolean {
  if (!isObjectLike(value)) return false;
  try {
    return Object.hasOwn(value, key);
  } catch {
    return false;
  }
}

/**
 * `table[key]` when `key` is the table's own entry, else `undefined`: a key from outside (a schema's `format`, an
 * issue's `code`) named `constructor`, `toString` or `__proto__` is not found in Object.prototype.
 */
export function ownEntry<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/**
 * A short JSON-like rendering of any value, for `received` excerpts: strings quoted, numbers and booleans bare,
 * `bigint` as `12n`, objects as JSON (or `[object]` when JSON cannot render them). Never throws.
 * `maxChars` bounds the work on huge values; the caller truncates for display.
 */
export function renderValue(value: unknown, maxChars = 1_000): string {
  try {
    switch (typeof value) {
      case 'string':
        return JSON.stringify(value.length > maxChars ? value.slice(0, maxChars) : value);
      case 'number':
      case 'boolean':
        return String(value);
      case 'bigint':
        return `${value.toString()}n`;
      case 'undefined':
        return 'undefined';
      case 'symbol':
        return 'symbol';
      case 'function':
        return 'function';
      default: {
        if (value === null) return 'null';
        const json = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? `${v.toString()}n` : v));
        return typeof json === 'string' ? json.slice(0, maxChars) : '[object]';
      }
    }
  } catch {
    return Array.isArray(value) ? '[array]' : '[object]';
  }
}
