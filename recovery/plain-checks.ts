/**
 * Fast acceptance of the core's hot records, ahead of their zod schemas: the attempt record and candidate call the
 * gate reads (recovery/gate-records.ts), and the `ToolFailure` that `buildFailure` has just assembled
 * (recovery/failure.ts). The router builds these values itself, so on its paths zod need not run for them
 * (docs/DESIGN.md, "Performance").
 *
 * Each check says yes only to a value its schema accepts unchanged; for anything else it says `undefined` (or
 * `false`) and the caller asks the schema, which gives the verdict and the error message as before. So a check can be
 * stricter than its schema, never looser: test/unit/plain-checks.property.test.ts holds each one to its schema on
 * arbitrary and near-valid values. The record checks read every field once and answer with a fresh plain copy of
 * what they read, so a getter cannot change a value after it was checked; a value whose reading throws is left to the
 * schema. An optional field present as `undefined` is left out of the copy (zod keeps it as `undefined`; every reader
 * treats the two alike).
 * Pure: no I/O.
 */
import {
  ERROR_CODE_PATTERN,
  FINGERPRINT_PATTERN,
  FAILURE_CLASSES,
  FAILURE_REASONS,
  MAX_PUBLIC_MESSAGE_CHARS,
  MAX_RECEIVED_CHARS,
  PHASES,
  type FieldIssue,
  type ToolFailure,
} from './failure';
import { SHA256_HEX, type AttemptRecord, type CandidateCall } from './gate-records';
import { isValidFailure } from './valid-failure';

const ATTEMPT_KEYS = new Set([
  'tool',
  'argsHash',
  'credentialVersion',
  'grantVersion',
  'failure',
  'endedAtMs',
  'earliestRetryAtMs',
]);
const CANDIDATE_KEYS = new Set(['tool', 'argsHash', 'credentialVersion', 'grantVersion']);
const FAILURE_KEYS = new Set([
  'tool',
  'callId',
  'class',
  'reason',
  'phase',
  'retryable',
  'replaySafe',
  'retryAfterMs',
  'publicMessage',
  'diagnosticRef',
  'status',
  'issues',
  'code',
  'fingerprint',
]);
const ISSUE_KEYS = new Set(['path', 'expected', 'received', 'suggestion']);
const CLASSES: ReadonlySet<string> = new Set(FAILURE_CLASSES);
const REASONS: ReadonlySet<string> = new Set(FAILURE_REASONS);
const PHASE_SET: ReadonlySet<string> = new Set(PHASES);

export type Fields = Record<string, unknown>;

/** An object literal (or a null-prototype object): what the router builds; class instances are left to zod. */
export function isPlainObject(value: unknown): value is Fields {
  // `Array.isArray` sees through a Proxy (ECMAScript §7.2.2 IsArray); a Proxy's prototype may be a lie.
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
export const isName = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

/** `value` as an object whose own keys are all in `allowed` (the schemas are strict), else undefined. */
export function fieldsOf(value: unknown, allowed: ReadonlySet<string>): Fields | undefined {
  if (!isPlainObject(value)) return undefined;
  for (const k of Object.keys(value)) if (!allowed.has(k)) return undefined;
  return value as Fields;
}

/** True when `a` is an array whose every index holds a value `ok` accepts (a hole is `undefined`, as zod reads it). */
export function every<T>(a: unknown, ok: (v: T) => boolean): boolean {
  if (!Array.isArray(a)) return false;
  for (let i = 0; i < a.length; i++) if (!ok(a[i] as T)) return false;
  return true;
}

/**
 * The call part shared by an attempt and a candidate, read once, as a fresh object, or undefined. An absent optional
 * field stays absent (as zod leaves it out); it is never set to `undefined`.
 */
function callPart(f: Fields): Fields | undefined {
  const tool = f.tool;
  const argsHash = f.argsHash;
  const credentialVersion = f.credentialVersion;
  const grantVersion = f.grantVersion;
  if (!isName(tool) || typeof argsHash !== 'string' || !SHA256_HEX.test(argsHash)) return undefined;
  if (!isCount(credentialVersion) || (grantVersion !== undefined && !isCount(grantVersion))) return undefined;
  const call: Fields = { tool, argsHash, credentialVersion };
  if (grantVersion !== undefined) call.grantVersion = grantVersion;
  return call;
}

/**
 * `value` as an `AttemptRecord` when it is one whose failure is already known valid (recovery/valid-failure.ts),
 * else undefined: `attemptRecordSchema()` decides.
 */
export function acceptedAttempt(value: unknown): AttemptRecord | undefined {
  try {
    const f = fieldsOf(value, ATTEMPT_KEYS);
    const call = f && callPart(f);
    if (f === undefined || call === undefined) return undefined;
    const failure = f.failure;
    const endedAtMs = f.endedAtMs;
    const earliestRetryAtMs = f.earliestRetryAtMs;
    if (!isValidFailure(failure) || !isCount(endedAtMs)) return undefined;
    if (earliestRetryAtMs !== undefined && !(isCount(earliestRetryAtMs) && earliestRetryAtMs >= endedAtMs)) {
      return undefined;
    }
    call.failure = failure;
    call.endedAtMs = endedAtMs;
    if (earliestRetryAtMs !== undefined) call.earliestRetryAtMs = earliestRetryAtMs;
    return Object.freeze(call) as AttemptRecord;
  } catch {
    return undefined;
  }
}

/** `value` as a `CandidateCall` when it plainly is one, else undefined: `candidateCallSchema()` decides. */
export function acceptedCandidate(value: unknown): CandidateCall | undefined {
  try {
    const f = fieldsOf(value, CANDIDATE_KEYS);
    const call = f && callPart(f);
    return call === undefined ? undefined : (Object.freeze(call) as CandidateCall);
  } catch {
    return undefined;
  }
}

/** `value` when it is a time in ms since the epoch (`timeMs()`: a safe integer ≥ 0), else undefined. */
export function acceptedTimeMs(value: unknown): number | undefined {
  return isCount(value) ? value : undefined;
}

/**
 * True when `f` passes `toolFailureSchema()` for plain reasons; false means "ask the schema". Only for a failure
 * the caller has just assembled as plain data (`buildFailure`'s object literals): it reads fields more than once, so
 * a value with getters or a Proxy is not its business (the record checks above read once and copy).
 */
export function plainlyValidFailure(f: ToolFailure): boolean {
  try {
    return plainFailure(f);
  } catch {
    return false;
  }
}

function plainFailure(f: ToolFailure): boolean {
  if (fieldsOf(f, FAILURE_KEYS) === undefined) return false;
  if (!isName(f.tool) || !isName(f.callId) || !isName(f.diagnosticRef)) return false;
  if (!CLASSES.has(f.class) || !REASONS.has(f.reason) || !PHASE_SET.has(f.phase)) return false;
  if (typeof f.retryable !== 'boolean' || typeof f.replaySafe !== 'boolean') return false;
  if (f.retryable && !(f.replaySafe && f.class === 'transient')) return false;
  if (f.class === 'outcome_unknown' && f.phase !== 'commit_unknown') return false;
  const m = f.publicMessage;
  if (typeof m !== 'string' || m.length < 1 || m.length > MAX_PUBLIC_MESSAGE_CHARS) return false;
  if (f.retryAfterMs !== undefined && !isCount(f.retryAfterMs)) return false;
  const s = f.status;
  if (s !== undefined && !(typeof s === 'number' && Number.isInteger(s) && s >= 100 && s <= 599)) return false;
  if (f.code !== undefined && !(typeof f.code === 'string' && ERROR_CODE_PATTERN.test(f.code))) return false;
  if (f.fingerprint !== undefined && !(typeof f.fingerprint === 'string' && FINGERPRINT_PATTERN.test(f.fingerprint)))
    return false;
  return f.issues === undefined || every(f.issues, plainlyValidIssue);
}

const isSegment = (s: unknown): boolean => typeof s === 'string' || (typeof s === 'number' && Number.isFinite(s));

function plainlyValidIssue(i: FieldIssue): boolean {
  if (fieldsOf(i, ISSUE_KEYS) === undefined || !every(i.path, isSegment)) return false;
  if (!isName(i.expected) || !isName(i.suggestion)) return false;
  return typeof i.received === 'string' && i.received.length <= MAX_RECEIVED_CHARS;
}
