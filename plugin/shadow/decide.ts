/**
 * What the router would do with a failure of one of the worker's own activities, and what `enforce` does with it
 * (docs/shadow-mode.md). The activity is classified as a tool: its type is the tool's name, its declared effect the
 * tool's (`write` when undeclared: "may have been sent" wins, docs/DESIGN.md "Phases"), with the classifier every
 * tool call gets (recovery/classify), then routed by the route table (recovery/routes.ts).
 *
 * Enforce changes only Temporal's retry of the attempt, and only for what the classifier recognises:
 * - a persistent failure → the same `type` and message, non-retryable, the original as `cause`;
 *   `authentication` gets one retry first (the re-auth route: an activity that reads its credential per attempt
 *   gets a fresh one), then non-retryable;
 * - a retryable failure with `Retry-After` → `nextRetryDelay` = the larger of Retry-After and the attempt's
 *   exponential delay, plus jitter (recovery/backoff.ts `nextDelay`; RFC 9110 §10.2.3); a Retry-After above
 *   `maxRetryAfterMs` → non-retryable;
 * - an unknown outcome of a declared write → its lookup when it has one, else the failure `outcome_unknown`
 *   (non-retryable, the original as `cause`): never replayed blind (docs/DESIGN.md, "Reconcile"). An error no rule
 *   recognises, thrown by a write, is such an outcome too (`outcome_unknown/unrecognized`: "may have been sent"
 *   wins, docs/DESIGN.md "Phases").
 * Left as they are: an error no rule recognises on a read (`unrecoverable/unrecognized`) or a bug in the tool, retryable failures without
 * Retry-After, unknown outcomes of an activity whose effect is undeclared, and an `ApplicationFailure` the activity
 * already made non-retryable or gave a `nextRetryDelay`. Node-side only.
 */
import { ApplicationFailure, type ApplicationFailureOptions } from '@temporalio/common';
import { nextDelay, type BackoffPolicy } from '../../recovery/backoff';
import { classify } from '../../recovery/classify';
import { FailureClass, FailureReason, type ToolFailure } from '../../recovery/failure';
import { routeFor, type RecoveryAction } from '../../recovery/routes';
import type { ShadowActivityDeclaration } from './options';

/** The activity attempt that failed. */
export interface ActivityFacts {
  activityType: string;
  activityId: string;
  workflowId?: string;
  /** 1-based. */
  attempt: number;
}

/** What the router would do. `effect` as declared (`unknown` when not). */
export interface ShadowVerdict {
  failure: ToolFailure;
  action: RecoveryAction;
  effect: 'read' | 'write' | 'unknown';
  /** A lookup is declared for the activity. */
  canLookUp: boolean;
}

/** How enforce changed the attempt's failure, as spans, metrics and logs name it. */
export type Enforced = 'unchanged' | 'non_retryable' | 'next_retry_delay' | 'outcome_unknown';

export type Enforcement =
  | { kind: 'unchanged' }
  | { kind: 'lookup' }
  | { kind: 'throw'; enforced: Exclude<Enforced, 'unchanged'>; error: ApplicationFailure; nextRetryDelayMs?: number };

/** Classifies what the activity threw. Never throws for any error. */
export function classifyActivityFailure(
  err: unknown,
  facts: ActivityFacts,
  declared: ShadowActivityDeclaration | undefined,
  nowMs: number,
): ShadowVerdict {
  const failure = classify(
    { kind: 'thrown', error: err },
    {
      tool: facts.activityType,
      callId: facts.activityId,
      effect: declared?.effect ?? 'write',
      deduplicates: declared?.deduplicates ?? false,
      approvalCanLift: false,
      nowMs,
      diagnosticRef: `${facts.workflowId ?? 'standalone'}/${facts.activityId}/${facts.attempt}`,
    },
  );
  return {
    failure,
    action: routeFor(failure).action,
    effect: declared?.effect ?? 'unknown',
    canLookUp: typeof declared?.lookup === 'function',
  };
}

/** What enforce does with `verdict`. `random` ∈ [0, 1) draws the jitter. */
export function enforcement(
  verdict: ShadowVerdict,
  err: unknown,
  attempt: number,
  backoff: BackoffPolicy,
  random: () => number = Math.random,
): Enforcement {
  const { failure } = verdict;
  if (err instanceof ApplicationFailure && (err.nonRetryable || err.nextRetryDelay !== undefined)) {
    return { kind: 'unchanged' };
  }
  if (failure.class === FailureClass.OUTCOME_UNKNOWN) {
    if (verdict.effect !== 'write') return { kind: 'unchanged' };
    if (verdict.canLookUp) return { kind: 'lookup' };
    return { kind: 'throw', enforced: 'outcome_unknown', error: outcomeUnknown(failure, err) };
  }
  if (failure.reason === FailureReason.UNRECOGNIZED || failure.reason === FailureReason.TOOL_BUG)
    return { kind: 'unchanged' };
  if (failure.retryable) {
    if (failure.retryAfterMs === undefined) return { kind: 'unchanged' };
    const delay = nextDelay({ retryNumber: attempt, retryAfterMs: failure.retryAfterMs, policy: backoff, random });
    if (delay.kind === 'give_up') return { kind: 'throw', enforced: 'non_retryable', error: wrap(err, true) };
    const error = wrap(err, false, delay.delayMs);
    return { kind: 'throw', enforced: 'next_retry_delay', error, nextRetryDelayMs: delay.delayMs };
  }
  if (failure.class === FailureClass.AUTHENTICATION && attempt === 1) return { kind: 'unchanged' };
  if (failure.class === FailureClass.TRANSIENT) return { kind: 'unchanged' };
  return { kind: 'throw', enforced: 'non_retryable', error: wrap(err, true) };
}

/** The failure a write whose outcome is unknown ends with: catchable by its type, never retried. */
export function outcomeUnknown(failure: ToolFailure, cause: unknown): ApplicationFailure {
  return stackless(cause, { type: FailureClass.OUTCOME_UNKNOWN, message: failure.publicMessage, nonRetryable: true });
}

/** `err` again, with its type, message and details, made non-retryable or given a `nextRetryDelay` (ms). */
function wrap(err: unknown, nonRetryable: boolean, nextRetryDelayMs?: number): ApplicationFailure {
  const app = err instanceof ApplicationFailure ? err : undefined;
  const e = err as { name?: unknown; message?: unknown } | null;
  const type = app?.type ?? (typeof e?.name === 'string' ? e.name : 'Error');
  const message = typeof e?.message === 'string' ? e.message : String(err);
  return stackless(err, {
    type,
    message,
    nonRetryable,
    ...(nextRetryDelayMs === undefined ? {} : { nextRetryDelay: nextRetryDelayMs }),
    ...(app?.details ? { details: [...app.details] } : {}),
  });
}

/**
 * The failure of `options`, with `cause` (an Error) as its cause and no stack of its own: the cause keeps the
 * activity's own stack; this wrapper's would only show the interceptor.
 */
function stackless(cause: unknown, options: ApplicationFailureOptions): ApplicationFailure {
  const thrown = ApplicationFailure.create({ ...options, ...(cause instanceof Error ? { cause } : {}) });
  thrown.stack = '';
  return thrown;
}
