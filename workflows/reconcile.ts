/**
 * `reconcileOperationWorkflow`: what happens to a write whose outcome is unknown (phase `commit_unknown`), before
 * anything is replayed. Seed 000, "写操作超时且结果未知：先核对终态":
 *   lookup says applied     → return the first call's result; no re-execution;
 *   lookup says not_applied → replay once with the same idempotency key (evidence `state_verified`);
 *   still unknown           → poll within a budget (each poll is a new time window), then human review.
 * Review: the `recovery.reviewCase` query shows the case; a reviewer sends `recovery.reviewDecision` (signal) or
 * `recovery.decideReview` (update, whose validator rejects a decision for an operation not awaiting review):
 * `mark_applied` (with a result reference), `replay` (same key) or `abandon`. A review timeout (default 24 h)
 * ends it without a replay.
 *
 * Started by the router as a child whose workflow id is `reconcile:<operationId>`, so one operation has one
 * reconciliation. Sets the search attributes RecoveryStatus / RecoveryTool / RecoveryOperationId.
 */
import { condition, log, proxyActivities, setHandler, sleep, upsertSearchAttributes } from '@temporalio/workflow';
import type { createToolActivities } from '../activities/invoke-tool';
import { activityOptionsFor } from '../recovery/activity-options';
import { BackoffPolicySchema, nextDelay, type BackoffPolicy } from '../recovery/backoff';
import { DEFAULT_BUDGET_POLICY } from '../recovery/budgets';
import type { ToolFailure } from '../recovery/failure';
import { publicObservedState } from '../recovery/observed-state';
import { isReplaySafe, type ToolSpec } from '../recovery/tool-spec';
import { fromActivityError } from './activity-failure';
import {
  decideReviewUpdate,
  reviewCaseQuery,
  reviewDecisionSignal,
  type LookupRecord,
  type ReviewCase,
  type ReviewDecision,
} from './definitions';
import { RecoveryOperationId, RecoveryStatus, RecoveryTool } from './search-attributes';

type ToolActivities = ReturnType<typeof createToolActivities>;

export interface ReconcileInput {
  spec: ToolSpec;
  args: unknown;
  callId: string;
  operationId: string;
  /** The commit_unknown failure that started it. */
  failure: ToolFailure;
  /** Lookups before human review. @default 3 */
  lookupBudget?: number;
  /** Backoff between lookups. @default 1 s, doubling, +20 % jitter */
  lookupBackoff?: Partial<BackoffPolicy>;
  /** How long to wait for a review decision, in ms. @default 86_400_000 (24 h) */
  reviewTimeoutMs?: number;
  /** Set the Recovery* search attributes (they must be registered). @default true */
  searchAttributes?: boolean;
}

interface Tally {
  replays: number;
  lookups: LookupRecord[];
}

/** How a reconciliation ended. */
export type ReconcileResult = Tally &
  (
    | { state: 'applied'; value: unknown; via: 'lookup' | 'replay' | 'review_replay' }
    | { state: 'marked_applied'; resultRef: string; by: string; reason: string }
    | { state: 'abandoned'; by: string; reason: string }
    | { state: 'review_timed_out' }
    | { state: 'replay_failed'; failure: ToolFailure }
  );

const DEFAULT_REVIEW_TIMEOUT_MS = 24 * 60 * 60 * 1000;

/** A replay refused because its idempotency key already exists: a 409 conflict or a 412 precondition failure. */
function isDuplicateKey(f: ToolFailure): boolean {
  return f.class === 'semantic_rejection' && (f.reason === 'conflict' || f.reason === 'precondition_failed');
}

export async function reconcileOperationWorkflow(input: ReconcileInput): Promise<ReconcileResult> {
  const tally: Tally = { replays: 0, lookups: [] };
  const caseView: ReviewCase = {
    operationId: input.operationId,
    tool: input.spec.name,
    callId: input.callId,
    status: 'reconciling',
    message: input.failure.publicMessage,
    argsSummary: publicObservedState(input.args) ?? null,
    replays: 0,
    lookups: tally.lookups,
  };
  const useSearchAttributes = input.searchAttributes ?? true;
  const status = (value: string) => {
    if (useSearchAttributes) upsertSearchAttributes([{ key: RecoveryStatus, value }]);
  };
  if (useSearchAttributes) {
    upsertSearchAttributes([
      { key: RecoveryStatus, value: 'Reconciling' },
      { key: RecoveryTool, value: input.spec.name },
      { key: RecoveryOperationId, value: input.operationId },
    ]);
  }

  let decision: ReviewDecision | undefined;
  const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
  const problem = (d: ReviewDecision): string | undefined => {
    if (caseView.status !== 'awaiting_review') return `operation ${input.operationId} is not awaiting review`;
    if (typeof d !== 'object' || d === null) return 'a decision is an object';
    if (d.operationId !== input.operationId)
      return `this workflow reviews ${input.operationId}, not ${String(d.operationId).slice(0, 200)}`;
    if (!['mark_applied', 'replay', 'abandon'].includes(d.decision))
      return `unknown decision ${String(d.decision).slice(0, 50)}`;
    if (!text(d.by) || !text(d.reason)) return 'a decision needs `by` and `reason` (non-empty strings)';
    if (d.decision === 'mark_applied' && !text(d.resultRef)) return 'mark_applied needs a resultRef';
    return undefined;
  };
  setHandler(reviewCaseQuery, () => ({ ...caseView, replays: tally.replays }));
  setHandler(reviewDecisionSignal, (d) => {
    const why = problem(d);
    if (why) log.warn('review decision ignored', { why });
    else decision = d;
  });
  setHandler(
    decideReviewUpdate,
    (d) => {
      decision = d;
      return { ...caseView, replays: tally.replays };
    },
    {
      validator: (d) => {
        const why = problem(d);
        if (why) throw new Error(why);
      },
    },
  );

  const { lookupOperation } = proxyActivities<ToolActivities>({
    startToCloseTimeout: '30s',
    retry: { maximumAttempts: 1 },
  });
  const { invokeTool } = proxyActivities<ToolActivities>({
    ...activityOptionsFor(input.spec, DEFAULT_BUDGET_POLICY, {
      initialIntervalMs: 1000,
      backoffCoefficient: 2,
      maximumIntervalMs: 10_000,
    }),
    retry: { maximumAttempts: 1 },
  });

  /** One replay with the same operation_id. `undefined` when its outcome is unknown again. */
  const replayOnce = async (via: 'replay' | 'review_replay'): Promise<ReconcileResult | undefined> => {
    tally.replays += 1;
    try {
      const r = await invokeTool({
        tool: input.spec.name,
        args: input.args,
        callId: input.callId,
        operationId: input.operationId,
      });
      return { ...tally, state: 'applied', value: r.value, via };
    } catch (err) {
      const { failure } = fromActivityError(err, input.spec, input.callId, input.failure.diagnosticRef);
      if (failure.class === 'outcome_unknown') return undefined;
      return { ...tally, state: 'replay_failed', failure };
    }
  };

  const done = (result: ReconcileResult): ReconcileResult => {
    caseView.status = 'done';
    status(
      result.state === 'applied' || result.state === 'marked_applied'
        ? 'Done'
        : result.state === 'abandoned'
          ? 'Abandoned'
          : result.state === 'review_timed_out'
            ? 'ReviewTimedOut'
            : 'Failed',
    );
    return result;
  };

  // 1. Look the terminal state up, within the lookup budget.
  if (input.spec.hasLookup) {
    const backoff = BackoffPolicySchema.parse({ initialIntervalMs: 1000, ...input.lookupBackoff });
    const budget = input.lookupBudget ?? 3;
    for (let i = 0; i < budget; i++) {
      if (i > 0) {
        const d = nextDelay({ retryNumber: i, policy: backoff, random: Math.random });
        if (d.kind === 'wait') await sleep(d.delayMs);
      }
      const answer = await lookupOperation({
        tool: input.spec.name,
        operationId: input.operationId,
        callId: input.callId,
      });
      tally.lookups.push({
        state: answer.state,
        atMs: Date.now(),
        ...(answer.state === 'unknown' ? { detail: answer.detail } : {}),
      });
      if (answer.state === 'applied') return done({ ...tally, state: 'applied', value: answer.result, via: 'lookup' });
      if (answer.state === 'not_applied') {
        const replayed = await replayOnce('replay');
        // A conflict on a replay with the SAME key means the first write did land (a unique-key violation is
        // "already done", case C03): the lookup was stale. Keep looking it up instead of routing a 409.
        if (replayed && !(replayed.state === 'replay_failed' && isDuplicateKey(replayed.failure)))
          return done(replayed);
      }
    }
  } else if (isReplaySafe(input.spec)) {
    // No lookup, but the receiver deduplicates by key: replaying the same key is harmless.
    const replayed = await replayOnce('replay');
    if (replayed) return done(replayed);
  }

  // 2. Human review.
  caseView.status = 'awaiting_review';
  caseView.awaitingSinceMs = Date.now();
  status('AwaitingReview');
  const deadline = Date.now() + (input.reviewTimeoutMs ?? DEFAULT_REVIEW_TIMEOUT_MS);
  for (;;) {
    const arrived = await condition(() => decision !== undefined, Math.max(0, deadline - Date.now()));
    if (!arrived) return done({ ...tally, state: 'review_timed_out' });
    const d = decision as ReviewDecision;
    decision = undefined;
    if (d.decision === 'mark_applied')
      return done({ ...tally, state: 'marked_applied', resultRef: d.resultRef ?? '', by: d.by, reason: d.reason });
    if (d.decision === 'abandon') return done({ ...tally, state: 'abandoned', by: d.by, reason: d.reason });
    caseView.status = 'reconciling';
    const replayed = await replayOnce('review_replay');
    if (replayed) return done(replayed);
    caseView.status = 'awaiting_review';
    status('AwaitingReview');
  }
}
