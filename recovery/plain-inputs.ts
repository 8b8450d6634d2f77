/**
 * Fast acceptance of the parts every workflow input of the router carries, ahead of their zod schemas: a tool spec
 * (`toolSpecSchema()`), a partial budget policy (`budgetOverrideSchema()`) and a partial backoff policy
 * (`backoffOverrideSchema()`). A workflow's input arrives as JSON on every run, and inside Temporal's workflow
 * sandbox zod parses it 20 to 30 times slower than in plain Node (measured: ≈ 0.3 ms of worker CPU per
 * `toolPlanWorkflow` run, docs/DESIGN.md "Performance"), so the workflows check their input here first.
 *
 * Each check answers `true` only for a value its schema accepts; `false` means "ask the schema", which gives the
 * verdict and the error message as before. A check may refuse what its schema accepts, never the reverse
 * (test/unit/plain-inputs.property.test.ts). The callers use only the verdict, not a parsed copy, so these checks
 * read the value and return nothing else. Pure: no I/O.
 */
import { MAX_BACKOFF_INTERVAL_MS, MAX_RETRY_AFTER_CAP_MS } from './backoff';
import { MAX_PER_CALL_RETRIES } from './budget-schemas';
import { fieldsOf, isName, isPlainObject } from './plain-checks';
import { MAX_COMMIT_WINDOW_MS, TOOL_NAME_PATTERN } from './tool-spec';

const SPEC_KEYS = new Set([
  'name',
  'description',
  'inputSchema',
  'effect',
  'idempotency',
  'hasLookup',
  'hasVerify',
  'scope',
  'approvalCanLift',
  'startToCloseTimeoutMs',
  'heartbeatTimeoutMs',
  'settleMs',
  'lookupLagMs',
]);
const NONE_KEYS = new Set(['carrier']);
const KEYED_KEYS = new Set(['carrier', 'name', 'deduplicates']);
const ARGUMENTS_KEYS = new Set(['carrier', 'deduplicates']);
const BUDGET_KEYS = new Set([
  'perCallRetries',
  'perTurnReplans',
  'perCallRepairs',
  'perRunAttempts',
  'consecutiveUnknownToolTurns',
]);
const BACKOFF_KEYS = new Set([
  'initialIntervalMs',
  'backoffCoefficient',
  'maximumIntervalMs',
  'jitterRatio',
  'maxRetryAfterMs',
]);

/** A safe integer in [min, max]: zod 4's `z.number().int().min(min).max(max)`. */
export function isIntIn(v: unknown, min: number, max = Number.MAX_SAFE_INTEGER): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= min && v <= max;
}

/** A finite number in [min, max]: zod 4's `z.number().min(min).max(max)` (which refuses ±Infinity and NaN). */
function isNumberIn(v: unknown, min: number, max: number): v is number {
  return typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max;
}

/** `undefined` (absent, or present as `undefined`: what `.optional()` accepts) or a value `ok` accepts. */
export function optional(v: unknown, ok: (v: unknown) => boolean): boolean {
  return v === undefined || ok(v);
}

export const isBoolean = (v: unknown): v is boolean => typeof v === 'boolean';

/** A plain object whose every own value `ok` accepts: `z.record(z.string(), …)` over a plain object. */
export function isRecordOf(v: unknown, ok: (value: unknown) => boolean): boolean {
  if (!isPlainObject(v) || Object.getOwnPropertySymbols(v).length > 0) return false;
  for (const k of Object.keys(v)) if (!ok(v[k])) return false;
  return true;
}

function plainIdempotency(v: unknown): boolean {
  const carrier = isPlainObject(v) ? v.carrier : undefined;
  switch (carrier) {
    case 'none':
      return fieldsOf(v, NONE_KEYS) !== undefined;
    case 'header':
    case 'field': {
      const f = fieldsOf(v, KEYED_KEYS);
      return f !== undefined && isName(f.name) && isBoolean(f.deduplicates);
    }
    case 'arguments': {
      const f = fieldsOf(v, ARGUMENTS_KEYS);
      return f !== undefined && f.deduplicates === true;
    }
    default:
      return false;
  }
}

/** True when `v` passes `toolSpecSchema()` for plain reasons; false: ask the schema. */
export function plainlyValidToolSpec(v: unknown): boolean {
  const f = fieldsOf(v, SPEC_KEYS);
  if (f === undefined) return false;
  if (typeof f.name !== 'string' || !TOOL_NAME_PATTERN.test(f.name) || !isName(f.description)) return false;
  if (!isRecordOf(f.inputSchema, () => true) || (f.effect !== 'read' && f.effect !== 'write')) return false;
  if (!plainIdempotency(f.idempotency) || !isBoolean(f.hasLookup) || !isBoolean(f.approvalCanLift)) return false;
  if (!optional(f.hasVerify, isBoolean) || !optional(f.scope, isName)) return false;
  if (!optional(f.settleMs, (t) => isIntIn(t, 0, MAX_COMMIT_WINDOW_MS))) return false;
  if (!optional(f.lookupLagMs, (t) => isIntIn(t, 0, MAX_COMMIT_WINDOW_MS))) return false;
  return isIntIn(f.startToCloseTimeoutMs, 1) && optional(f.heartbeatTimeoutMs, (t) => isIntIn(t, 1));
}

/** True when `v` passes `budgetOverrideSchema()` for plain reasons (every limit an integer in its range). */
export function plainlyValidBudgetOverride(v: unknown): boolean {
  const f = fieldsOf(v, BUDGET_KEYS);
  if (f === undefined) return false;
  const atLeast = (min: number) => (n: unknown) => isIntIn(n, min);
  return (
    optional(f.perCallRetries, (n) => isIntIn(n, 0, MAX_PER_CALL_RETRIES)) &&
    optional(f.perTurnReplans, atLeast(0)) &&
    optional(f.perCallRepairs, atLeast(0)) &&
    optional(f.perRunAttempts, atLeast(1)) &&
    optional(f.consecutiveUnknownToolTurns, atLeast(1))
  );
}

/** True when `v` passes `backoffOverrideSchema()` for plain reasons (each field within its own bounds). */
export function plainlyValidBackoffOverride(v: unknown): boolean {
  const f = fieldsOf(v, BACKOFF_KEYS);
  if (f === undefined) return false;
  return (
    optional(f.initialIntervalMs, (n) => isIntIn(n, 1, MAX_BACKOFF_INTERVAL_MS)) &&
    optional(f.backoffCoefficient, (n) => isNumberIn(n, 1, 100)) &&
    optional(f.maximumIntervalMs, (n) => isIntIn(n, 1, MAX_BACKOFF_INTERVAL_MS)) &&
    optional(f.jitterRatio, (n) => isNumberIn(n, 0, 1)) &&
    optional(f.maxRetryAfterMs, (n) => isIntIn(n, 0, MAX_RETRY_AFTER_CAP_MS))
  );
}
