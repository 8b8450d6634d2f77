/**
 * A test of plain data (activities/tool-read.ts reads a tool's arguments with it). Pure: no I/O.
 */

/** An object literal (or a null-prototype object); class instances, arrays and Proxies of arrays are not. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  // `Array.isArray` sees through a Proxy (ECMAScript §7.2.2 IsArray); a Proxy's prototype may be a lie.
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
