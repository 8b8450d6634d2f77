/**
 * Small pure helpers of the router: what counts as an empty result, which arguments the gate hashes, the digest of
 * a result for no-progress detection. Sandbox-safe.
 */
import { argsHash } from '../recovery/canonical';
import type { ToolSpec } from '../recovery/tool-spec';

/** A valid result with nothing in it: `""`, `null`, `[]`, `{}`, or an object whose fields are all empty lists. */
export function isEmptyResult(value: unknown): boolean {
  if (value === '' || value === null || value === undefined) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') {
    const fields = Object.values(value as Record<string, unknown>);
    return fields.length === 0 || fields.every((v) => Array.isArray(v) && v.length === 0);
  }
  return false;
}

export function structuredCloneJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Largest arguments accepted, as canonical JSON characters; larger ones would not fit a Temporal payload. */
export const MAX_ARGS_CHARS = 256 * 1024;

/** A counter of a JSON-carried record, read as an own property (a tool may be named `constructor`). */
export function own(record: Record<string, number>, key: string): number {
  return Object.hasOwn(record, key) ? (record[key] ?? 0) : 0;
}

/**
 * Sets an entry of a JSON-carried record as an own property: a tool or a step may be named `__proto__` (the name
 * rules allow it), and `record.__proto__ = v` would set nothing (or the prototype), so the entry would never be read.
 */
export function setOwn<V>(record: Record<string, V>, key: string, value: V): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * The arguments as the tool will see them, for the gate's hash. A zod object that strips unknown keys (its JSON
 * Schema has `properties` and no `additionalProperties`) ignores extra keys, so they are no change: without this,
 * `{slot, note: "please"}` would pass the gate as "changed arguments" for an identical request. The idempotency
 * field, which the activity overwrites with the operation_id, is no change either.
 */
export function hashedArgs(spec: ToolSpec, args: unknown): unknown {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return args;
  const schema = spec.inputSchema as { properties?: Record<string, unknown>; additionalProperties?: unknown };
  const stripsUnknown = schema.properties !== undefined && !('additionalProperties' in schema);
  const idempotencyField = spec.idempotency.carrier === 'field' ? spec.idempotency.name : undefined;
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args as Record<string, unknown>)) {
    if (key === idempotencyField) continue;
    if (stripsUnknown && !Object.prototype.hasOwnProperty.call(schema.properties, key)) continue;
    kept[key] = value;
  }
  return kept;
}

/**
 * The arguments an activity receives: `hashedArgs`' (what the tool's schema keeps), with the idempotency field set to
 * the operation_id when the tool carries its key in a field (the activity writes it there too).
 */
export function dispatchedArgs(spec: ToolSpec, kept: unknown, operationId: string): unknown {
  if (spec.idempotency.carrier !== 'field' || typeof kept !== 'object' || kept === null || Array.isArray(kept))
    return kept;
  return { ...kept, [spec.idempotency.name]: operationId };
}

/** A digest of a result for no-progress detection; a result that cannot be hashed counts as always new. */
export function outcomeDigest(value: unknown): string {
  try {
    return argsHash(value ?? null);
  } catch {
    return `unhashable:${Math.random()}`;
  }
}
