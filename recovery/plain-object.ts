/**
 * A test of plain data (activities/tool-read.ts reads a tool's arguments with it), and a deep freeze of it (the rule
 * tables). Pure: no I/O.
 */

/** An object literal (or a null-prototype object); class instances, arrays and Proxies of arrays are not. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  // `Array.isArray` sees through a Proxy (ECMAScript §7.2.2 IsArray); a Proxy's prototype may be a lie.
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** `value` frozen in place with every array and plain object in it (a table's rows, their lists); a RegExp is not. */
export function deepFreeze<T>(value: T): T {
  if (Array.isArray(value) || isPlainObject(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
