/**
 * What a recovery looks like in a trace: the attribute names and values of the spans the library emits
 * (docs/observability.md lists them). Names come from the OpenTelemetry GenAI semantic conventions
 * (gen-ai-spans.md, "Execute tool span": `gen_ai.operation.name`, `gen_ai.tool.name`, `gen_ai.tool.call.id`,
 * `gen_ai.tool.type`, `error.type`), gen-ai-security.md ("Apply guardrail" span: the approval and the
 * Change-before-Retry gate are guardrails) and, for what is the router's own, one namespace: `recovery_router.*`.
 * No attribute carries an operation id (the write's idempotency key) or anything derived from it: a span names a
 * call by its call id (issue 36).
 *
 * `error.type` is the failure class: a low-cardinality list the conventions ask instrumentations to document
 * (`ERROR_TYPES`); `_OTHER` (the conventions' fallback) for an error that carries no ToolFailure. Every value here
 * is public by construction: a ToolFailure's public fields (class, reason, phase, flags, status, provider code),
 * never its message beyond `publicMessage`, never arguments, results, headers or the diagnostic.
 *
 * Pure and sandbox-safe: workflow code builds its spans' attributes with it.
 */
import { FAILURE_CLASSES, type ToolFailure } from './failure';
import type { RecoveryRecord } from './records';
import { routeFor } from './routes';

/** An attribute value: OpenTelemetry's primitive attribute types. */
export type TraceAttributes = Record<string, string | number | boolean>;

/** Attribute names of the GenAI semantic conventions (and OpenTelemetry's general `error.type`). */
export const GenAiAttr = {
  OPERATION_NAME: 'gen_ai.operation.name',
  TOOL_NAME: 'gen_ai.tool.name',
  TOOL_CALL_ID: 'gen_ai.tool.call.id',
  TOOL_TYPE: 'gen_ai.tool.type',
  ERROR_TYPE: 'error.type',
  /** OpenTelemetry's HTTP attribute, for a failure that had an HTTP status. */
  HTTP_STATUS: 'http.response.status_code',
  /** gen-ai-security.md, "Apply guardrail": who judged, what, the verdict and (for a deny) why. */
  GUARDIAN_NAME: 'gen_ai.guardian.name',
  TARGET_TYPE: 'gen_ai.security.target.type',
  TARGET_ID: 'gen_ai.security.target.id',
  DECISION_TYPE: 'gen_ai.security.decision.type',
  DECISION_REASON: 'gen_ai.security.decision.reason',
} as const;

/** The router's attributes: one namespace, `recovery_router.`. */
export const RecoveryAttr = {
  ACTION: 'recovery_router.action',
  REASON: 'recovery_router.reason',
  PHASE: 'recovery_router.phase',
  /** The activity attempt, 1-based (an attempt span). */
  ATTEMPT: 'recovery_router.attempt',
  /** Activity attempts the call used in all (a recovery span). */
  ATTEMPTS: 'recovery_router.attempts',
  EVIDENCE: 'recovery_router.evidence',
  RECONCILED_BY: 'recovery_router.reconciled_by',
  BUDGET_LEFT_RETRIES: 'recovery_router.budget_left.retries',
  BUDGET_LEFT_REPAIRS: 'recovery_router.budget_left.repairs',
  BUDGET_LEFT_REPLANS: 'recovery_router.budget_left.replans',
  BUDGET_LEFT_RUN_ATTEMPTS: 'recovery_router.budget_left.run_attempts',
  BREAKER_STATE: 'recovery_router.breaker_state',
  RETRYABLE: 'recovery_router.retryable',
  REPLAY_SAFE: 'recovery_router.replay_safe',
  /** The server's `Retry-After`, ms. */
  RETRY_AFTER_MS: 'recovery_router.retry_after_ms',
  /** The delay Temporal waits before the next attempt (`nextRetryDelay`), ms. */
  NEXT_RETRY_DELAY_MS: 'recovery_router.next_retry_delay_ms',
  /** The provider's structured error code (`insufficient_funds`). */
  CODE: 'recovery_router.code',
  TERMINAL: 'recovery_router.terminal',
  /** On a call that succeeded after a recovery: the class of the failure it recovered from. */
  RECOVERED_FROM: 'recovery_router.recovered_from',
  /** The class of the failure a replan answered. */
  REPLAN_AFTER: 'recovery_router.replan_after',
  /** A workflow-side wait before a retry, ms. */
  DELAY_MS: 'recovery_router.delay_ms',
  /** Shadow mode: `shadow` or `enforce`, and what enforce did (`unchanged`, `non_retryable`, …). */
  MODE: 'recovery_router.mode',
  ENFORCED: 'recovery_router.enforced',
  /** Shadow mode: the activity type. */
  ACTIVITY: 'recovery_router.activity',
  /** Shadow mode: the activity's declared effect (`read`, `write`, `unknown`). */
  EFFECT: 'recovery_router.effect',
} as const;

/** The fallback `error.type` of the conventions: an error that carries no classified failure. */
export const OTHER_ERROR_TYPE = '_OTHER';

/** Every `error.type` the library reports: the failure classes, then `_OTHER`. */
export const ERROR_TYPES: readonly string[] = Object.freeze([...FAILURE_CLASSES, OTHER_ERROR_TYPE]);

/**
 * The attributes of a classified failure: `error.type` (its class), the action its route picks
 * (recovery/routes.ts), reason, phase, the replay flags, Retry-After, the HTTP status and the provider's code.
 * @throws RecoveryInputError when `failure` is not a valid ToolFailure (as `routeFor` does).
 */
export function failureAttributes(failure: ToolFailure): TraceAttributes {
  const out: TraceAttributes = {
    [GenAiAttr.ERROR_TYPE]: failure.class,
    [RecoveryAttr.ACTION]: routeFor(failure).action,
    [RecoveryAttr.REASON]: failure.reason,
    [RecoveryAttr.PHASE]: failure.phase,
    [RecoveryAttr.RETRYABLE]: failure.retryable,
    [RecoveryAttr.REPLAY_SAFE]: failure.replaySafe,
  };
  if (failure.retryAfterMs !== undefined) out[RecoveryAttr.RETRY_AFTER_MS] = failure.retryAfterMs;
  if (failure.status !== undefined) out[GenAiAttr.HTTP_STATUS] = failure.status;
  if (failure.code !== undefined) out[RecoveryAttr.CODE] = failure.code;
  return out;
}

/**
 * The attributes of a call's recovery span, from its recovery record (recovery/records.ts): the final action
 * (after budgets), class, reason, phase, evidence, attempts, budgets left, how it ended and how a write was settled.
 * `error.type` only when the call did not succeed.
 */
export function recordAttributes(record: RecoveryRecord): TraceAttributes {
  const out: TraceAttributes = {
    [GenAiAttr.TOOL_NAME]: record.tool,
    [GenAiAttr.TOOL_CALL_ID]: record.callId,
    [RecoveryAttr.ATTEMPTS]: record.attempts,
    [RecoveryAttr.TERMINAL]: record.terminal,
    [RecoveryAttr.BUDGET_LEFT_RETRIES]: record.budgetsLeft.retries,
    [RecoveryAttr.BUDGET_LEFT_REPAIRS]: record.budgetsLeft.repairs,
    [RecoveryAttr.BUDGET_LEFT_REPLANS]: record.budgetsLeft.replans,
    [RecoveryAttr.BUDGET_LEFT_RUN_ATTEMPTS]: record.budgetsLeft.runAttempts,
  };
  // A call that ended well did not end in an error: its class is what it recovered from, not its `error.type`.
  if (record.class !== undefined) {
    out[record.terminal === 'succeeded' ? RecoveryAttr.RECOVERED_FROM : GenAiAttr.ERROR_TYPE] = record.class;
  }
  if (record.action !== undefined) out[RecoveryAttr.ACTION] = record.action;
  if (record.reason !== undefined) out[RecoveryAttr.REASON] = record.reason;
  if (record.phase !== undefined) out[RecoveryAttr.PHASE] = record.phase;
  if (record.evidence !== undefined) out[RecoveryAttr.EVIDENCE] = record.evidence;
  if (record.reconciled !== undefined) out[RecoveryAttr.RECONCILED_BY] = record.reconciled;
  return out;
}

/** Who judged a call (`gen_ai.guardian.name`), and the verdict: `allow` or `deny` with a low-cardinality reason. */
export type Guardian = 'human_approval' | 'change_before_retry';
export type Verdict = { allow: boolean; reason?: string; action: string };

/**
 * The attributes of a guardrail span (gen-ai-security.md, "Apply guardrail"): `guardian` judged the tool call
 * `callId`; the verdict apart from the action the router takes (`recovery_router.action`), a deny's reason
 * (`denied`, `expired`, `revoked`, the gate's refusal code) beside it.
 */
export function guardrailAttributes(guardian: Guardian, callId: string, verdict: Verdict): TraceAttributes {
  return {
    [GenAiAttr.OPERATION_NAME]: 'apply_guardrail',
    [GenAiAttr.GUARDIAN_NAME]: guardian,
    [GenAiAttr.TARGET_TYPE]: 'tool_call',
    [GenAiAttr.TARGET_ID]: callId,
    [GenAiAttr.DECISION_TYPE]: verdict.allow ? 'allow' : 'deny',
    ...(verdict.allow || verdict.reason === undefined ? {} : { [GenAiAttr.DECISION_REASON]: verdict.reason }),
    [RecoveryAttr.ACTION]: verdict.action,
  };
}
