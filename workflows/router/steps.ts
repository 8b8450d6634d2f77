/**
 * Each recovery as a pure decision: (the call's state, its failure, the run's facts) → the next step, as data. The
 * route table picks the action (recovery/routes.ts, called once per failure here); `RECOVERIES` turns it into a
 * step; the router's effects loop (./recoveries.ts) performs it: records the attempt, sleeps, waits for a person,
 * starts the reconciliation, or ends the call with its route and the feedback for the model (docs/DESIGN.md,
 * "Routes"). No workflow API here: the clock, randomness and `patched` are facts the loop passes in.
 * Sandbox-safe; tests beside (./steps.test.ts), in milliseconds.
 */
import { nextDelay, type BackoffPolicy } from '../../recovery/backoff';
import { ExhaustedBudget, spend, type BudgetLedger } from '../../recovery/budgets';
import { retriesSpentMessage } from '../../recovery/classify/sent';
import { FailureClass, FailureReason, Phase, type ToolFailure } from '../../recovery/failure';
import { RecoveryAction, routeFor } from '../../recovery/routes';
import { isReplaySafe, type ToolSpec } from '../../recovery/tool-spec';
import type { ApprovalOutcome } from '../approvals';
import type { ReconcileResult } from '../reconcile';
import type { Reconciled } from '../tool-router-types';

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
  /** An attempt of this write may have been applied (a failure in phase `commit_unknown`; docs/DESIGN.md, "Phases"). */
  maybeApplied: boolean;
  budgets: BudgetLedger;
}

/** What a decision reads of the run: the backoff, randomness for jitter, Temporal's `patched`. */
export interface Facts {
  backoff: BackoffPolicy;
  random: () => number;
  patched: (patchId: string) => boolean;
}

/** The failed attempt a decision is about: its failure and when it ended (ms since the epoch). */
export interface Failed {
  failure: ToolFailure;
  endedAtMs: number;
}

type Decide = (call: CallState, failed: Failed, facts: Facts) => Step;

/** The patch that moved a deduplicated write's retries into the workflow (Temporal docs, "Patching"). */
export const WRITE_RETRIES_PATCH = 'recovery-router:write-retries-in-workflow';

const end = (failure: ToolFailure, action: RecoveryAction, more: Partial<EndStep> = {}): EndStep => ({
  kind: 'end',
  failure,
  action,
  routed: false,
  ...more,
});

/**
 * The broker refreshed the credential in the worker (single-flight); replay once with the new version. A second
 * refusal goes to a person: one refresh per call, never a loop on a rotating refresh token.
 */
const reauth: Decide = (call, { failure }) => {
  const escalate = end(failure, RecoveryAction.ESCALATE, {
    message: 'The credential was refused even after a refresh; a person must re-authorise.',
  });
  return call.reauthed ? escalate : { kind: 'run_again', failure, action: RecoveryAction.REAUTH, otherwise: escalate };
};

/** A 403 a person can lift: ask for an approval bound to these exact arguments (`afterApproval` decides on it). */
const requestApproval: Decide = (call, { failure }) =>
  call.approved
    ? end(failure, RecoveryAction.STOP, { message: 'The action is still forbidden after approval.' })
    : { kind: 'ask_person', failure };

/** A person's decision on an approval request → the next step. */
export function afterApproval(failure: ToolFailure, outcome: ApprovalOutcome): Step {
  const stop = (message: string, personSaid?: string) =>
    end(failure, RecoveryAction.STOP, { message, ...(personSaid ? { personSaid } : {}) });
  switch (outcome.kind) {
    case 'expired':
      return stop(
        `The approval request expired after ${span(outcome.afterMs)} without a decision; the action was not taken.`,
      );
    case 'revoked':
      return stop('The approval was revoked before it was used; the action was not taken.');
    case 'denied':
      return stop('A person declined this action.', outcome.grant.reason);
    case 'approved':
      return {
        kind: 'run_again',
        failure,
        action: RecoveryAction.REQUEST_APPROVAL,
        otherwise: stop('The approved call could not run again.'),
      };
  }
}

/** A duration for people: whole hours, minutes or seconds when it is one, else ms. */
export function span(ms: number): string {
  if (ms > 0 && ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms > 0 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/**
 * Temporal already retried a replay-safe call (its retry policy). A write that is not replay-safe, refused before
 * anything was sent, waits here after backoff, within the per-call budget; otherwise `retriesSpent`.
 */
const retry: Decide = (call, failed, facts) => {
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
  return { kind: 'wait_until', failure, atMs, why, action: RecoveryAction.RETRY, budgets: room.ledger };
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
  return end(failure, RecoveryAction.ESCALATE, {
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

/** The write may have been applied: look it up by operation_id (a child workflow) before anything is replayed. */
const reconcile: Decide = (_call, { failure }) => ({ kind: 'reconcile', failure });

/**
 * A reconciliation's result → the next step. `afterApplied`: the reconciliation was of a failure taken as the unknown
 * outcome of an earlier attempt (`routeOf`), so a replay's failure is not taken as one again.
 */
export function afterReconcile(
  call: CallState,
  { failure, afterApplied }: { failure: ToolFailure; afterApplied?: true },
  settled: ReconcileResult,
  facts: Facts,
): Step {
  switch (settled.state) {
    case 'applied': {
      const via = settled.via === 'verify' ? 'already_satisfied' : settled.via;
      return { kind: 'settled', failure, value: settled.value, via };
    }
    case 'marked_applied':
      return { kind: 'settled', failure, value: { resultRef: settled.resultRef }, via: 'marked_applied' };
    case 'abandoned':
      return end(failure, RecoveryAction.STOP, {
        message: 'A person reviewed this write and abandoned it; it was not replayed.',
      });
    case 'review_timed_out':
      return end(failure, RecoveryAction.ESCALATE, {
        message: 'No review decision arrived in time; the write was not replayed.',
      });
    case 'owner_gone':
      return end(failure, RecoveryAction.ESCALATE, {
        message: `${settled.why} A person must check whether the write was applied.`,
      });
    case 'replay_failed':
      // The replay failed in a known way: its own route, never as a retry of a write under reconciliation.
      return routeOf(call, { ...settled.failure, retryable: false }, facts, afterApplied === true);
  }
}

/** The reconciliation did not finish (not a cancellation): a person checks before anything is replayed. */
export function reconcileFailed(call: CallState, failure: ToolFailure): Step {
  return end(failure, RecoveryAction.ESCALATE, {
    message: `The reconciliation of operation ${call.operationId} did not finish; a person must check whether the write was applied before anything is replayed.`,
  });
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
  action = (): RecoveryAction => routeFor(failure).action,
): Step {
  if (!unknownChecked && call.maybeApplied && failure.class !== FailureClass.OUTCOME_UNKNOWN) {
    if (facts.patched(WRITE_RETRIES_PATCH)) {
      return { kind: 'reconcile', failure: unknownAfterApplied(failure), afterApplied: true };
    }
  }
  return { kind: 'end', failure, action: action(), routed: true };
}

function unknownAfterApplied(failure: ToolFailure): ToolFailure {
  return {
    ...failure,
    class: FailureClass.OUTCOME_UNKNOWN,
    phase: Phase.COMMIT_UNKNOWN,
    retryable: false,
    publicMessage:
      'An earlier attempt of this write may have been applied before this one failed; it is looked up before anything runs again.',
  };
}

/** Each action's decision: the compiler forces a row for every action. Actions that end the call take their route. */
export const RECOVERIES: Readonly<Record<RecoveryAction, Decide | null>> = Object.freeze({
  reauth,
  request_approval: requestApproval,
  retry,
  reconcile,
  repair: null,
  replan: null,
  reject: null,
  escalate: null,
  stop: null,
} satisfies Record<RecoveryAction, Decide | null>);

/** The first step after a failed attempt: its route, picked once, and that action's decision. */
export function decide(call: CallState, failed: Failed, facts: Facts): Step {
  const { action } = routeFor(failed.failure);
  const decision = RECOVERIES[action];
  if (decision) return decision(call, failed, facts);
  return routeOf(call, failed.failure, facts, false, () => action);
}
