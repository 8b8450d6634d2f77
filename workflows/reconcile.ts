import { condition, upsertSearchAttributes } from '@temporalio/workflow';
import type { LookupAnswer } from '../activities/lookup-operation';
import type { BackoffPolicy } from '../recovery/backoff';
import type { ToolFailure } from '../recovery/failure';
import { isReplaySafe, type ToolSpec } from '../recovery/tool-spec';
import type { LookupRecord, ReviewCase, ReviewDecision } from './definitions';
import { lookupRounds, type LookupRounds, type Tally } from './reconcile-lookups';
import { ACCEPTED_NOT_FINAL, NOT_FOUND_NOT_FINAL, notFoundFinality } from './reconcile-not-found';
import { previewArgs } from './reconcile-preview';
import { replayer, type ReplayOutcome } from './reconcile-replay';
import { ownerCheck } from './reconcile-owner';
import { errorFacts, registerReview, type Inbox } from './reconcile-review';
import { verifyCall } from './router/verify';
import { RecoveryOperationId, RecoveryStatus, RecoveryTool } from './search-attributes';

/** The input: the write's spec, arguments, call and operation ids, failure, budgets and timeouts (ms). */
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
  /**
   * Replays with the same idempotency key in this reconciliation, automatic and by review together. A `replay`
   * decision beyond it is refused. @default 1
   */
  replayBudget?: number;
  /** StartToClose timeout of one lookup attempt, in ms (a lost worker is noticed by its heartbeat first). @default 10_000 */
  lookupTimeoutMs?: number;
  /** How long to wait for a review decision, in ms. @default 86_400_000 (24 h) */
  reviewTimeoutMs?: number;
  /** Set the Recovery* search attributes (they must be registered). @default true */
  searchAttributes?: boolean;
}

/** How a reconciliation ended. */
export type ReconcileResult = Tally &
  (
    | { state: 'applied'; value: unknown; via: 'verify' | 'lookup' | 'replay' | 'review_replay' }
    | { state: 'marked_applied'; resultRef: string; by: string; reason: string }
    | { state: 'abandoned'; by: string; reason: string }
    | { state: 'review_timed_out' }
    | { state: 'replay_failed'; failure: ToolFailure }
    /** The run that started it no longer owns the write (workflows/reconcile-owner.ts): nothing replayed. */
    | { state: 'owner_gone'; why: string }
  );

const DEFAULT_REVIEW_TIMEOUT_MS = 24 * 60 * 60 * 1000;

/**
 * What happens to a write whose outcome is unknown (phase `commit_unknown`), before anything is replayed (docs/DESIGN.md, "Reconcile"):
 *   lookup says applied     → return the first call's result; no re-execution;
 *   lookup says not_applied → once that is final (workflows/reconcile-not-found.ts), replay with the same key
 *                             (evidence `state_verified`), within the replay budget;
 *   still unknown           → poll within the lookup budget (each poll is a new time window), then human review.
 * A replay answered with a duplicate-key conflict (409 or 412 to the same key) means the first write may have
 * landed: it is looked up, in any path, review included, and reported applied when the lookup finds it; otherwise
 * it goes (back) to review with that fact. It is never routed as a conflict.
 *
 * Nothing here fails the workflow: a lookup or replay whose worker died is retried by Temporal, then counts as
 * "unknown". The router turns a reconciliation that still fails (terminated, say) into an escalation of the call.
 * Review: the `recovery.reviewCase` query shows the case; a reviewer sends `recovery.reviewDecision` (signal) or
 * `recovery.decideReview` (update, whose validator rejects what the workflow cannot take): `mark_applied` (with a
 * result reference), `replay` (same key; only while the replay budget lasts) or `abandon`. Inputs are parsed and
 * bounded (workflows/messages.ts). A review timeout (default 24 h) ends it without a replay.
 *
 * Started by the router as a child whose workflow id is `reconcile:<operationId>`, so one operation has one
 * reconciliation. Sets the search attributes RecoveryStatus / RecoveryTool / RecoveryOperationId.
 */
export async function reconcileOperationWorkflow(input: ReconcileInput): Promise<ReconcileResult> {
  const run = startRun(input);
  // 0. The postcondition first: when the state the write asks for holds already, nothing is looked up or replayed.
  const verified = input.spec.hasVerify ? await verifyFirst(run) : undefined;
  if (verified) return verified;
  // 1. Look the terminal state up, within the lookup budget; replay after `not_applied`, within the replay budget.
  const settled = await lookUpOrReplay(run);
  if (settled) return settled;
  // 2. Human review.
  return review(run);
}

/** One reconciliation's state, shared by its phases. */
interface Run {
  input: ReconcileInput;
  /** Workflow time the reconciliation began, ms since the epoch: after the attempt's failure reached the workflow. */
  startedAtMs: number;
  tally: Tally;
  replayBudget: number;
  /** What the `recovery.reviewCase` query shows. */
  caseView: ReviewCase;
  /**
   * The accepted review decision not yet acted on (set by the review handlers, taken by `review`), a request to check
   * the owner again (`recovery.checkOwner`), and why the owner is gone once a handler found it.
   */
  inbox: Inbox;
  /** Why the run that started it cannot receive its result, or `undefined` (workflows/reconcile-owner.ts). */
  owner: () => Promise<string | undefined>;
  looked: LookupRounds;
  replayOnce: () => Promise<ReplayOutcome>;
  /** Sets RecoveryStatus, when search attributes are on. */
  status: (value: string) => void;
  /** Marks the case done, sets its end status and returns `result`. */
  done: (result: ReconcileResult) => ReconcileResult;
}

/** The case view, the search attributes, the review handlers and the activities, in this order. */
function startRun(input: ReconcileInput): Run {
  const tally: Tally = { replays: 0, lookups: [] };
  const replayBudget = input.replayBudget ?? 1;
  const caseView: ReviewCase = {
    operationId: input.operationId,
    tool: input.spec.name,
    callId: input.callId,
    status: 'reconciling',
    message: input.failure.publicMessage,
    argsSummary: null,
    deduplicates: isReplaySafe(input.spec),
    canLookUp: input.spec.hasLookup,
    failure: errorFacts(input.failure),
    replays: 0,
    allowed: [],
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
  const inbox: Inbox = {};
  const owner = ownerCheck();
  registerReview(input, caseView, tally, replayBudget, inbox, owner);
  const replayOnce = replayer(input, tally);
  const looked = lookupRounds(input, tally);
  const done = (result: ReconcileResult): ReconcileResult => {
    caseView.status = 'done';
    status(END_STATUS[result.state]);
    return result;
  };
  const startedAtMs = Date.now();
  return { input, startedAtMs, tally, replayBudget, caseView, inbox, owner, looked, replayOnce, status, done };
}

/** Phase 0: `applied` via `verify` when the postcondition holds already; otherwise `undefined`. */
async function verifyFirst({ input, tally, done }: Run): Promise<ReconcileResult | undefined> {
  const answer = await verifyCall(input);
  if (answer.verdict !== 'holds') return undefined;
  const value = { alreadySatisfied: true, ...(answer.state === undefined ? {} : { state: answer.state }) };
  return done({ ...tally, state: 'applied', value, via: 'verify' });
}

/** Phase 1: lookups and replays within their budgets; `undefined` when the outcome is still open (to review). */
async function lookUpOrReplay(run: Run): Promise<ReconcileResult | undefined> {
  const { input, tally, replayBudget, looked, replayOnce, done } = run;
  if (input.spec.hasLookup) {
    let notFound = 0;
    let notBeforeMs: number | undefined;
    for (let i = 0; i < looked.budget; i++) {
      const answer = await looked.next(notBeforeMs);
      if (answer.state === 'applied') return done({ ...tally, state: 'applied', value: answer.result, via: 'lookup' });
      notFound = answer.state === 'not_applied' ? notFound + 1 : 0;
      if (answer.state !== 'not_applied' || tally.replays >= replayBudget) continue;
      const finality = notFoundFinality(input.spec, run.startedAtMs, notFound, input.failure);
      if (finality.kind === 'not_yet') {
        notBeforeMs = finality.lookAgainAtMs;
        continue;
      }
      if (finality.kind === 'never') continue;
      const gone = await run.owner();
      if (gone) return ownerGone(run, gone);
      const replayed = await replayOnce();
      notFound = 0;
      if (replayed.kind === 'applied')
        return done({ ...tally, state: 'applied', value: replayed.value, via: 'replay' });
      if (replayed.kind === 'failed') return done({ ...tally, state: 'replay_failed', failure: replayed.failure });
      // unknown again, not sent, or a duplicate key (the first write landed; a stale replica said otherwise): look
      // again.
    }
    if (notFound > 0)
      run.caseView.message = input.failure.reason === 'accepted' ? ACCEPTED_NOT_FINAL : NOT_FOUND_NOT_FINAL;
  } else if (isReplaySafe(input.spec) && replayBudget > 0) {
    // No lookup, but the receiver deduplicates by key: replaying the same key is harmless.
    const gone = await run.owner();
    if (gone) return ownerGone(run, gone);
    const replayed = await replayOnce();
    if (replayed.kind === 'applied') return done({ ...tally, state: 'applied', value: replayed.value, via: 'replay' });
    if (replayed.kind === 'failed') return done({ ...tally, state: 'replay_failed', failure: replayed.failure });
  }
  return undefined;
}

/** Phase 2: wait for review decisions until one ends the case or the review times out. */
async function review(run: Run): Promise<ReconcileResult> {
  const { input, tally, caseView, inbox, replayOnce, done } = run;
  // Only a case that reaches a person needs the preview (a lookup that settles it runs no preview activity). The case
  // takes decisions at once and its review deadline starts now: the preview fills `argsSummary` when its activity
  // answers and never delays the review (a worker lost mid-preview must not hold the case). A cancellation ends the
  // loop below.
  void previewArgs(input, caseView).catch(() => undefined);
  awaitReview(run);
  const deadline = Date.now() + (input.reviewTimeoutMs ?? DEFAULT_REVIEW_TIMEOUT_MS);
  // The owner is asked when the case reaches review, before any decision is acted on, and when asked to.
  inbox.recheck = true;
  for (;;) {
    const waiting = () => inbox.decision !== undefined || inbox.recheck === true || inbox.gone !== undefined;
    const arrived = await condition(waiting, Math.max(0, deadline - Date.now()));
    if (!arrived) return done({ ...tally, state: 'review_timed_out' });
    inbox.recheck = false;
    // A decision taken is carried out: others are refused as "not awaiting review" while the owner is asked.
    if (inbox.decision !== undefined) caseView.status = 'reconciling';
    const gone = inbox.gone ?? (await run.owner());
    if (gone) return ownerGone(run, gone);
    if (inbox.decision === undefined) continue;
    const d: ReviewDecision = inbox.decision;
    inbox.decision = undefined;
    if (d.decision === 'mark_applied')
      return done({ ...tally, state: 'marked_applied', resultRef: d.resultRef ?? '', by: d.by, reason: d.reason });
    if (d.decision === 'abandon') return done({ ...tally, state: 'abandoned', by: d.by, reason: d.reason });
    caseView.status = 'reconciling';
    const replayed = await replayOnce();
    if (replayed.kind === 'applied')
      return done({ ...tally, state: 'applied', value: replayed.value, via: 'review_replay' });
    if (replayed.kind === 'failed') return done({ ...tally, state: 'replay_failed', failure: replayed.failure });
    if (replayed.kind === 'duplicate_key') {
      const landed = input.spec.hasLookup ? await confirmLanded(run, 'review_replay') : undefined;
      if (landed) return done(landed);
      awaitReview(
        run,
        'The replay was refused because its idempotency key already exists: the write has most likely been applied. Mark it applied with its result reference.',
      );
      continue;
    }
    awaitReview(
      run,
      replayed.kind === 'not_sent'
        ? 'The replay could not be sent (the service refused it before anything was applied); it may be tried again.'
        : 'The replay, too, ended with an unknown outcome.',
    );
  }
}

/** The run that started the reconciliation no longer owns the write: the case ends, replaying nothing, saying why. */
function ownerGone(run: Run, why: string): ReconcileResult {
  run.caseView.message = why;
  return run.done({ ...run.tally, state: 'owner_gone', why });
}

/** The case awaits review (since the first time it did), with `message` when given. */
function awaitReview({ caseView, status }: Run, message?: string): void {
  caseView.status = 'awaiting_review';
  caseView.awaitingSinceMs ??= Date.now();
  if (message) caseView.message = message;
  status('AwaitingReview');
}

/** After a duplicate-key answer: the write landed if a lookup finds it now. */
async function confirmLanded(
  { tally, looked }: Run,
  via: 'replay' | 'review_replay',
): Promise<ReconcileResult | undefined> {
  const answer = await looked.poll();
  return answer?.state === 'applied' ? { ...tally, state: 'applied', value: answer.result, via } : undefined;
}

/** The RecoveryStatus a reconciliation ends with. */
const END_STATUS: Readonly<Record<ReconcileResult['state'], string>> = {
  applied: 'Done',
  marked_applied: 'Done',
  abandoned: 'Abandoned',
  review_timed_out: 'ReviewTimedOut',
  replay_failed: 'Failed',
  owner_gone: 'OwnerGone',
};

export type { LookupAnswer, LookupRecord };
