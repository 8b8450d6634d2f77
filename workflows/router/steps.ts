/**
 * The router's decisions, pure: the first step after a failed attempt (its route, picked once, and that action's
 * decision, recovery/actions.ts), and the next after a person's decision or a reconciliation; ./recoveries.ts
 * performs each. No workflow API here. Sandbox-safe; tests beside (./steps.test.ts).
 */
import { ACTIONS } from '../../recovery/actions';
import { routeFor } from '../../recovery/routes';
import { end, routeOf, type CallState, type Facts, type Failed, type Step } from '../../recovery/steps';
import type { ToolFailure } from '../../recovery/failure';
import type { ApprovalOutcome } from '../approvals';
import type { ReconcileResult } from '../reconcile';

/** A person's decision on an approval request → the next step. */
export function afterApproval(failure: ToolFailure, outcome: ApprovalOutcome): Step {
  const stop = (message: string, personSaid?: string) =>
    end(failure, 'stop', { message, ...(personSaid ? { personSaid } : {}) });
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
        action: 'request_approval',
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
      return end(failure, 'stop', {
        message: 'A person reviewed this write and abandoned it; it was not replayed.',
      });
    case 'review_timed_out':
      return end(failure, 'escalate', {
        message: 'No review decision arrived in time; the write was not replayed.',
      });
    case 'owner_gone':
      return end(failure, 'escalate', {
        message: `${settled.why} A person must check whether the write was applied.`,
      });
    case 'replay_failed':
      // The replay failed in a known way: its own route, never as a retry of a write under reconciliation.
      return routeOf(call, { ...settled.failure, retryable: false }, facts, afterApplied === true);
  }
}

/** The reconciliation did not finish (not a cancellation): a person checks before anything is replayed. */
export function reconcileFailed(call: CallState, failure: ToolFailure): Step {
  return end(failure, 'escalate', {
    message: `The reconciliation of operation ${call.operationId} did not finish; a person must check whether the write was applied before anything is replayed.`,
  });
}

/** The first step after a failed attempt: its route, picked once, and that action's decision (`ACTIONS`). */
export function decide(call: CallState, failed: Failed, facts: Facts): Step {
  const { action } = routeFor(failed.failure);
  return ACTIONS[action].decide?.(call, failed, facts) ?? routeOf(call, failed.failure, facts, false, () => action);
}
