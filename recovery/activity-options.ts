/**
 * The activity options a tool call runs with, derived from the tool and the policy — never Temporal's default
 * retry policy (unlimited attempts).
 *
 * - Reads get bounded server-side retries: `maximumAttempts` = 1 + the per-call retry budget, and
 *   `nonRetryableErrorTypes` = every failure class but `transient`. The activity sets `nextRetryDelay` per failure,
 *   so Temporal's own backoff fields are only the fallback for timeouts.
 * - A write gets `maximumAttempts: 1`, even one whose receiver deduplicates: once dispatched it is never retried by
 *   the server, so the workflow sees every attempt's failure and remembers whether one of them may have been applied
 *   (docs/DESIGN.md, "Phases"): the workflow retries it (workflows/router/recoveries.ts), and a write whose later
 *   attempt fails after an earlier one may have landed is reconciled, never reported failed. An activity timeout on a
 *   write is no answer either (a timeout is not an ApplicationFailure, so no `nonRetryableErrorTypes` entry could stop
 *   Temporal from retrying it).
 *
 * Source: the issue ("Retry policy derived from class and tool"); Temporal docs, "Activity Retry Policy"
 * (maximumAttempts, nonRetryableErrorTypes, and nextRetryDelay overriding the computed interval).
 * Durations are in ms (Temporal accepts numbers as milliseconds).
 */
import type { BackoffPolicy } from './backoff';
import type { BudgetPolicy } from './budgets';
import { FAILURE_CLASSES, FailureClass } from './failure';
import type { ToolSpec } from './tool-spec';

export interface ToolActivityOptions {
  startToCloseTimeout: number;
  heartbeatTimeout?: number;
  retry: {
    maximumAttempts: number;
    initialInterval: number;
    backoffCoefficient: number;
    maximumInterval: number;
    nonRetryableErrorTypes: string[];
  };
}

/** Every class but transient: what Temporal must never retry by itself. */
export const NON_RETRYABLE_TYPES: readonly string[] = Object.freeze(
  FAILURE_CLASSES.filter((c) => c !== FailureClass.TRANSIENT),
);

/** The options for one tool call. Pure. */
export function activityOptionsFor(
  spec: Pick<ToolSpec, 'effect' | 'idempotency' | 'startToCloseTimeoutMs' | 'heartbeatTimeoutMs'>,
  budgets: Pick<BudgetPolicy, 'perCallRetries'>,
  backoff: Pick<BackoffPolicy, 'initialIntervalMs' | 'backoffCoefficient' | 'maximumIntervalMs'>,
): ToolActivityOptions {
  const options: ToolActivityOptions = {
    startToCloseTimeout: spec.startToCloseTimeoutMs,
    retry: {
      maximumAttempts: spec.effect === 'read' ? 1 + budgets.perCallRetries : 1,
      initialInterval: backoff.initialIntervalMs,
      backoffCoefficient: backoff.backoffCoefficient,
      maximumInterval: backoff.maximumIntervalMs,
      nonRetryableErrorTypes: [...NON_RETRYABLE_TYPES],
    },
  };
  if (spec.heartbeatTimeoutMs !== undefined) options.heartbeatTimeout = spec.heartbeatTimeoutMs;
  return options;
}
