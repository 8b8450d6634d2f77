/**
 * The step types and the decisions `ACTIONS` (./actions.ts) carries: (the call's state, its failure, the run's facts)
 * → the next step, as data. No route table here (`Facts.route`), so ./actions.ts imports this without a cycle.
 * Sandbox-safe; tests in workflows/router/steps.test.ts.
 */
import { nextDelay, type BackoffPolicy } from './backoff';
import { ExhaustedBudget, spend, type BudgetLedger } from './budgets';
import { retriesSpentMessage } from './classify/sent';
import { FailureClass, FailureReason, Phase, type ToolFailure } from './failure';
import type { RecoveryAction } from './actions';
import { isReplaySafe, type ToolSpec } from './tool-spec';
import type { Reconciled } from '../workflows/tool-router-types';

/** How a call that ends with a routed failure ends: its action (the route's, or forced) and what the model is told. */
export interface EndStep {
  kind: 'end';
  failure: ToolFailure;
  action: RecoveryAction;
  /** The failure's own route (not forced): the outcome is counted for no-progress, the observed state shown. */
  routed: boolean;
  message?: string;
  exhausted?: ExhaustedBudget;
  personSaid?: string;
}

/** The next step of a call's recovery. Each records `failure` as the call's last failed attempt first. */
export type Step = (
  | { kind: 'run_again'; failure: ToolFailure; action: RecoveryAction; otherwise: Step }
  /** Sleep until `atMs` (workflow time), then run again if the gate allows; a `retry` spends a workflow retry. */
  | { kind: 'wait_until'; failure: ToolFailure; atMs: number; why: string; action: RecoveryAction }
  | { kind: 'ask_person'; failure: ToolFailure }
  | { kind: 'reconcile'; failure: ToolFailure; afterApplied?: true }
  | { kind: 'settled'; failure: ToolFailure; value: unknown; via: Reconciled }
  | EndStep
) & { budgets?: BudgetLedger };

/** What a decision reads of the call. */
export interface CallState {
  spec: ToolSpec;
  stepId: string;
  operationId: string;
  reauthed: boolean;
  approved: boolean;
  workflowRetries: number;
  /** An attempt of this write may have been applied (`commit_unknown`, or a duplicate key: `mayHaveApplied`). */
  maybeApplied: boolean;
  budgets: BudgetLedger;
}

/** What a decision reads of the run, passed in by the loop. */
export interface Facts {
  backoff: BackoffPolicy;
  /** Randomness for jitter. */
  random: () => number;
  /** Temporal's `patched`. */
  patched: (patchId: string) => boolean;
  /** A failure's action (recovery/routes.ts `routeFor`), passed in: the route table imports ./actions.ts. */
  route: (failure: ToolFailure) => RecoveryAction;
}

/** The failed attempt a decision is about: its failure and when it ended (ms since the epoch). */
export interface Failed {
  failure: ToolFailure;
  endedAtMs: number;
}

/** An action's decision: the first step after a failed attempt routed to it. */
export type Decide = (call: CallState, failed: Failed, facts: Facts) => Step;

/** The patch that moved a deduplicated write's retries into the workflow (Temporal docs, "Patching"). */
export const WRITE_RETRIES_PATCH = 'recovery-router:write-retries-in-workflow';

export const end = (failure: ToolFailure, action: RecoveryAction, more: Partial<EndStep> = {}): EndStep => ({
  kind: 'end',
  failure,
  action,
  routed: false,
  ...more,
});

/**
 * Temporal already retried a replay-safe call (its retry policy). A write that is not replay-safe, refused before
 * anything was sent, waits here after backoff, within the per-call budget; otherwise `retriesSpent`.
 */
export const retry: Decide = (call, failed, facts) => {
  const { failure } = failed;
  if (!writeRetriedHere(call.spec, failure, facts)) return retriesSpent(call, failed, facts);
  const room = spend(call.budgets, 'retry', call.stepId);
  const delay = nextDelay({
    retryNumber: call.workflowRetries + 1,
    retryAfterMs: failure.retryAfterMs,
    policy: facts.backoff,
    random: facts.random,
  });
  if (!room.allowed || delay.kind !== 'wait') return { ...retriesSpent(call, failed, facts), budgets: room.ledger };
  const why = failure.retryAfterMs === undefined ? 'backoff' : 'retry_after';
  const atMs = failed.endedAtMs + delay.delayMs;
  return { kind: 'wait_until', failure, atMs, why, action: 'retry', budgets: room.ledger };
};

/**
 * The retries are spent: the failure is persistent for this run and takes its own route; a write the breaker still
 * refuses is escalated as never sent.
 */
export function retriesSpent(call: CallState, failed: Failed, facts: Facts): Step {
  const failure: ToolFailure = {
    ...failed.failure,
    retryable: false,
    publicMessage: retriesSpentMessage(failed.failure.publicMessage),
  };
  if (failure.reason !== FailureReason.CIRCUIT_OPEN || call.spec.effect !== 'write' || call.maybeApplied) {
    return routeOf(call, failure, facts);
  }
  return end(failure, 'escalate', {
    exhausted: ExhaustedBudget.PER_CALL_RETRIES,
    message:
      'The service behind this tool kept failing and its calls stayed paused, so this write was never sent. A person must run it once the service recovers.',
  });
}

/**
 * The workflow retries a write itself, after backoff, within the per-call budget: a write that is not replay-safe
 * only after a failure known to happen before anything was sent; a write whose receiver deduplicates after any
 * retryable failure (its activity has one attempt, recovery/activity-options.ts). Runs recorded before that keep the
 * server's retries (no patch marker).
 */
function writeRetriedHere(spec: ToolSpec, failure: ToolFailure, facts: Facts): boolean {
  if (spec.effect !== 'write' || !failure.replaySafe) return false;
  return !isReplaySafe(spec) || (failure.retryable && facts.patched(WRITE_RETRIES_PATCH));
}

/**
 * A failure that ends with its own route. A later failure of a write an earlier attempt of which may have been
 * applied is that unknown outcome, not its own failure (docs/DESIGN.md, "Phases"): it is reconciled instead, once
 * per recovery (`unknownChecked`).
 */
export function routeOf(
  call: CallState,
  failure: ToolFailure,
  facts: Facts,
  unknownChecked = false,
  action = (): RecoveryAction => facts.route(failure),
): Step {
  const later = !unknownChecked && call.maybeApplied && failure.class !== FailureClass.OUTCOME_UNKNOWN;
  if (later && facts.patched(WRITE_RETRIES_PATCH)) {
    const unknown = mayHaveApplied(failure, 'later_failure', call.spec, facts.patched);
    return { kind: 'reconcile', failure: unknown, afterApplied: true };
  }
  return { kind: 'end', failure, action: action(), routed: true };
}

/** The patch that made "an earlier attempt may have applied" one fact (`mayHaveApplied`; DESIGN.md, "Reconcile"). */
export const MAY_HAVE_APPLIED_PATCH = 'recovery-router:may-have-applied';

/**
 * `failure`, of a write an earlier attempt of which may have been applied, as that unknown outcome (docs/DESIGN.md,
 * "Phases", "Reconcile" 4). `why`: a repeat was refused as a duplicate of its key, or a later attempt failed. It is
 * replay-safe only when its receiver deduplicates by the key, as recovery/classify/sent.ts says of any unknown outcome
 * and the review desk warns before a replay; runs recorded before keep the old value.
 */
export function mayHaveApplied(
  failure: ToolFailure,
  why: 'duplicate_key' | 'later_failure',
  spec: ToolSpec,
  patched: Facts['patched'],
): ToolFailure {
  const replaySafe = failure.replaySafe && isReplaySafe(spec);
  const before = why === 'later_failure' && failure.replaySafe;
  return {
    ...failure,
    class: FailureClass.OUTCOME_UNKNOWN,
    phase: Phase.COMMIT_UNKNOWN,
    retryable: false,
    replaySafe: replaySafe === before || patched(MAY_HAVE_APPLIED_PATCH) ? replaySafe : before,
    publicMessage:
      why === 'duplicate_key'
        ? 'A repeat of this write was refused as a duplicate of its idempotency key: the first one may have been applied.'
        : 'An earlier attempt of this write may have been applied before this one failed; it is looked up before anything runs again.',
  };
}

/**
 * The one "an earlier attempt may have sent this write" failure, before it is sent (docs/DESIGN.md, "Reconcile"):
 * `outcome_unknown/earlier_attempt` in `commit_unknown`, never replay-safe, looked up first. `publicMessage` says which
 * earlier attempt (a workflow retry, a reset's run, a retried activity). The fields of a `ToolFailure` it sets.
 */
export function earlierAttempt(publicMessage: string) {
  return {
    class: FailureClass.OUTCOME_UNKNOWN,
    reason: FailureReason.EARLIER_ATTEMPT,
    phase: Phase.COMMIT_UNKNOWN,
    retryable: false,
    replaySafe: false,
    publicMessage,
  } as const;
}
