/**
 * What a family's reader may quote of an error: schema identifiers (a column, a constraint), field issues that name a
 * field but never its value, and a library's PascalCase error name as a business code. Pure: no I/O.
 */
import type { FieldIssue } from '../../failure';
import { RECEIVED_NOT_REPORTED } from '../text';

/** `v` when it is a schema identifier (a column, a constraint, an index: no spaces, no quotes), else `undefined`. */
export function identifier(v: unknown): string | undefined {
  return typeof v === 'string' && /^[A-Za-z_][A-Za-z0-9_$.-]{0,62}$/.test(v) ? v : undefined;
}

/** One field issue for a field the library named (a column, a parameter). Its value is never reported. */
export function fieldIssue(path: readonly (string | number)[], expected: string): FieldIssue {
  const label = path.map(String).join('.');
  return { path: [...path], expected, received: RECEIVED_NOT_REPORTED, suggestion: `fix ${label} and call again` };
}

/** A PascalCase library name as a business code: `NoSuchKey` → `no_such_key`, `…Exception` dropped. */
export function snakeCode(name: string): string | undefined {
  const core = name.replace(/(?:Exception|Error)$/, '');
  if (!/^[A-Za-z][A-Za-z0-9]{0,60}$/.test(core)) return undefined;
  return core
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}
