/**
 * One replay of a write under reconciliation (workflows/reconcile.ts), with the same operation_id: the `invokeTool`
 * activity, one attempt, and what it came to. Sandbox-safe.
 */
import { isCancellation, proxyActivities } from '@temporalio/workflow';
import type { ToolActivities } from './router/dispatch';
import { activityOptionsFor } from '../recovery/activity-options';
import { DEFAULT_BUDGET_POLICY } from '../recovery/budgets';
import type { ToolFailure } from '../recovery/failure';
import { fromActivityError } from './activity-failure';
import type { ReconcileInput } from './reconcile';
import type { Tally } from './reconcile-lookups';

/** A replay refused because its idempotency key already exists: a 409 conflict or a 412 precondition failure. */
export function isDuplicateKey(f: ToolFailure): boolean {
  return f.class === 'semantic_rejection' && (f.reason === 'conflict' || f.reason === 'precondition_failed');
}

/** What one replay with the same operation_id came to. */
export type ReplayOutcome =
  | { kind: 'applied'; value: unknown }
  | { kind: 'unknown' }
  /** Refused before it was sent (the breaker was open, the connection refused): nothing applied, no replay spent. */
  | { kind: 'not_sent' }
  | { kind: 'duplicate_key' }
  | { kind: 'failed'; failure: ToolFailure };

/** One replay with the same operation_id per call, counted in `tally.replays` unless it was not sent. */
export function replayer(input: ReconcileInput, tally: Tally): () => Promise<ReplayOutcome> {
  const { invokeTool } = proxyActivities<ToolActivities>({
    ...activityOptionsFor(input.spec, DEFAULT_BUDGET_POLICY, {
      initialIntervalMs: 1000,
      backoffCoefficient: 2,
      maximumIntervalMs: 10_000,
    }),
    retry: { maximumAttempts: 1 },
  });
  return async (): Promise<ReplayOutcome> => {
    tally.replays += 1;
    try {
      const r = await invokeTool({
        tool: input.spec.name,
        args: input.args,
        callId: input.callId,
        operationId: input.operationId,
      });
      return { kind: 'applied', value: r.value };
    } catch (err) {
      if (isCancellation(err)) throw err;
      const { failure } = fromActivityError(err, input.spec, input.callId, input.failure.diagnosticRef);
      if (failure.class === 'outcome_unknown') return { kind: 'unknown' };
      if (failure.class === 'transient' && failure.replaySafe) {
        tally.replays -= 1;
        return { kind: 'not_sent' };
      }
      return isDuplicateKey(failure) ? { kind: 'duplicate_key' } : { kind: 'failed', failure };
    }
  };
}
