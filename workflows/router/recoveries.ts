/**
 * The recovery handlers: the route table picks the action (recovery/routes.ts), and this table carries it out.
 * Each handler returns "run again" (the gate found new evidence), "end with this outcome", or "end with this
 * failure's own route"; actions without a handler (repair, replan, reject, escalate, stop) end with their route
 * and the feedback for the model (docs/DESIGN.md, "Routes"). Sandbox-safe.
 */
import { isCancellation, patched, sleep } from '@temporalio/workflow';
import { nextDelay } from '../../recovery/backoff';
import { ExhaustedBudget } from '../../recovery/budgets';
import { recordOutcome } from '../../recovery/call-ledger';
import { argsHash } from '../../recovery/canonical';
import { FailureClass, FailureReason, Phase, type ToolFailure } from '../../recovery/failure';
import { retriesSpentMessage } from '../../recovery/classify/sent';
import { RecoveryAction, routeFor } from '../../recovery/routes';
import { RecoveryAttr } from '../../recovery/trace-attributes';
import { isReplaySafe } from '../../recovery/tool-spec';
import type { ReconcileResult } from '../reconcile';
import { reconcileCall } from '../reconcile-call';
import { hashedArgs, own } from '../router-helpers';
import type { Reconciled, ToolOutcome } from '../tool-router-types';
import { spendUnit, type ReadyScope, type RouterContext } from './context';
import { recordAttempt, type FailedAttempt } from './dispatch';
import { routed, succeed } from './outcomes';
import { allowAgain } from './preflight';
import { guardrailStep, traceStep } from './trace';
import { verifyCall } from './verify';

/** What a handler decided. */
export type Next = { kind: 'again' } | { kind: 'end'; outcome: ToolOutcome } | { kind: 'route'; failure: ToolFailure };
type Recovery = (ctx: RouterContext, scope: ReadyScope, attempt: FailedAttempt) => Promise<Next>;

const AGAIN: Next = Object.freeze({ kind: 'again' });
const end = (outcome: ToolOutcome): Next => ({ kind: 'end', outcome });

/**
 * The broker refreshed the credential in the worker (single-flight); replay once with the new version. A second
 * refusal goes to a person: one refresh per call, never a loop on a rotating refresh token.
 */
async function reauth(ctx: RouterContext, scope: ReadyScope, attempt: FailedAttempt): Promise<Next> {
  recordAttempt(ctx, scope, attempt, attempt.failure);
  if (!scope.reauthed && allowAgain(ctx, scope)) {
    scope.reauthed = true;
    scope.recovered = { failure: attempt.failure, action: RecoveryAction.REAUTH };
    return AGAIN;
  }
  return end(
    routed(ctx, scope, attempt.failure, {
      forceAction: RecoveryAction.ESCALATE,
      message: 'The credential was refused even after a refresh; a person must re-authorise.',
    }),
  );
}

/**
 * A 403 a person can lift: wait for an approval bound to these exact arguments; run again once with it. The request
 * shows the arguments as the refused activity previewed them (`FailureMeta.argsPreview`).
 */
async function requestApproval(ctx: RouterContext, scope: ReadyScope, attempt: FailedAttempt): Promise<Next> {
  const { failure } = attempt;
  recordAttempt(ctx, scope, attempt, failure);
  const stop = (message: string, personSaid?: string) =>
    end(
      routed(ctx, scope, failure, { forceAction: RecoveryAction.STOP, message, ...(personSaid ? { personSaid } : {}) }),
    );
  if (scope.approval) return stop('The action is still forbidden after approval.');
  const waitStartMs = Date.now();
  const outcome = await ctx.approvals.wait({
    callId: scope.callId,
    tool: scope.spec.name,
    operationId: scope.operationId,
    // A person reads the server's words too (quoted, redacted): the model gets them only as `serverSaid`.
    message: failure.publicMessage + (failure.serverSaid ? ` Server said: "${failure.serverSaid}".` : ''),
    argsDigest: scope.hash,
    // Redacted and bounded by the activity that was refused (activities/preview-arguments.ts); null from a worker
    // that did not send it.
    argsPreview: attempt.meta.argsPreview ?? null,
    // In the run's memory only, for a person's view (query option `arguments`): what `argsDigest` covers.
    args: hashedArgs(scope.spec, scope.args),
    turn: scope.turn,
  });
  const allow = outcome.kind === 'approved';
  const verdict = {
    allow,
    reason: outcome.kind,
    action: allow ? RecoveryAction.REQUEST_APPROVAL : RecoveryAction.STOP,
  };
  guardrailStep(scope, 'human_approval', verdict, waitStartMs);
  switch (outcome.kind) {
    case 'expired':
      return stop(
        `The approval request expired after ${span(outcome.afterMs)} without a decision; the action was not taken.`,
      );
    case 'revoked':
      return stop('The approval was revoked before it was used; the action was not taken.');
    case 'denied':
      return stop('A person declined this action.', outcome.grant.reason);
  }
  const { approved: _approved, ...grant } = outcome.grant;
  scope.approval = grant;
  const key = `${scope.name}|${scope.hash}`;
  ctx.st.grants[key] = own(ctx.st.grants, key) + 1;
  scope.recovered = { failure, action: RecoveryAction.REQUEST_APPROVAL };
  return allowAgain(ctx, scope) ? AGAIN : stop('The approved call could not run again.');
}

/** A duration for people: whole hours, minutes or seconds when it is one, else ms. */
function span(ms: number): string {
  if (ms > 0 && ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms > 0 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/**
 * Temporal already retried a replay-safe call (its retry policy). A write that is not replay-safe, refused before
 * anything was sent, is retried here after backoff, within the per-call budget. Then the failure is persistent for
 * this run; a write the breaker still refuses is escalated as never sent.
 */
async function retry(ctx: RouterContext, scope: ReadyScope, attempt: FailedAttempt): Promise<Next> {
  const { failure } = attempt;
  if (writeRetriedHere(scope, failure)) {
    const room = spendUnit(ctx, 'retry', scope.stepId);
    const delay = nextDelay({
      retryNumber: scope.workflowRetries + 1,
      retryAfterMs: failure.retryAfterMs,
      policy: ctx.backoff,
      random: Math.random,
    });
    if (room.allowed && delay.kind === 'wait') {
      scope.workflowRetries += 1;
      recordAttempt(ctx, scope, attempt, failure, attempt.endedAtMs + delay.delayMs);
      scope.recovered = { failure, action: RecoveryAction.RETRY };
      const sleptAtMs = Date.now();
      await sleep(delay.delayMs);
      traceStep(scope, 'retry_wait', sleptAtMs, { [RecoveryAttr.DELAY_MS]: delay.delayMs });
      if (allowAgain(ctx, scope)) return AGAIN;
    }
  }
  const persistent: ToolFailure = {
    ...failure,
    retryable: false,
    publicMessage: retriesSpentMessage(failure.publicMessage),
  };
  if (persistent.reason !== FailureReason.CIRCUIT_OPEN || scope.spec.effect !== 'write' || scope.maybeApplied) {
    return { kind: 'route', failure: persistent };
  }
  recordAttempt(ctx, scope, attempt, persistent);
  return end(
    routed(ctx, scope, persistent, {
      forceAction: RecoveryAction.ESCALATE,
      exhausted: ExhaustedBudget.PER_CALL_RETRIES,
      message:
        'The service behind this tool kept failing and its calls stayed paused, so this write was never sent. A person must run it once the service recovers.',
    }),
  );
}

/** The write may have been applied: look it up by operation_id (a child workflow) before anything is replayed. */
async function reconcile(ctx: RouterContext, scope: ReadyScope, attempt: FailedAttempt): Promise<Next> {
  const { failure } = attempt;
  recordAttempt(ctx, scope, attempt, failure);
  let settled: ReconcileResult;
  const reconcileStartMs = Date.now();
  const { operationId } = scope;
  // Carried across continue-as-new while it runs: the next run reconciles it itself (./intent.ts `sentBefore`).
  ctx.st.reconciling = [...(ctx.st.reconciling ?? []).filter((id) => id !== operationId), operationId];
  try {
    const input = { spec: scope.spec, args: scope.args, callId: scope.callId, operationId, failure, ...ctx.reconcile };
    settled = await reconcileCall(ctx.reconciliations, input);
    // Received here, so this run owns the write now (a reset kept the child of the run it replaced): once more.
    if (settled.state === 'owner_gone') settled = await reconcileCall(ctx.reconciliations, input);
    ctx.st.reconciling = ctx.st.reconciling.filter((id) => id !== operationId);
  } catch (err) {
    if (isCancellation(err)) throw err;
    traceStep(scope, 'reconcile', reconcileStartMs, { [RecoveryAttr.RECONCILED_BY]: 'failed' });
    const message = `The reconciliation of operation ${scope.operationId} did not finish; a person must check whether the write was applied before anything is replayed.`;
    return end(routed(ctx, scope, failure, { forceAction: RecoveryAction.ESCALATE, message }));
  }
  const by = settled.state === 'applied' ? settled.via : settled.state;
  traceStep(scope, 'reconcile', reconcileStartMs, { [RecoveryAttr.RECONCILED_BY]: by });
  scope.attempts += settled.replays;
  scope.activities += settled.replays;
  const settledBy = (value: unknown, via: Reconciled) => {
    scope.evidence = 'state_verified';
    scope.recovered = { failure, action: RecoveryAction.RECONCILE };
    return end(succeed(ctx, scope, value, via));
  };
  const stopWith = (forceAction: RecoveryAction, message: string) =>
    end(routed(ctx, scope, failure, { forceAction, message }));
  switch (settled.state) {
    case 'applied':
      return settledBy(settled.value, settled.via === 'verify' ? 'already_satisfied' : settled.via);
    case 'marked_applied':
      return settledBy({ resultRef: settled.resultRef }, 'marked_applied');
    case 'abandoned':
      return stopWith(RecoveryAction.STOP, 'A person reviewed this write and abandoned it; it was not replayed.');
    case 'review_timed_out':
      return stopWith(RecoveryAction.ESCALATE, 'No review decision arrived in time; the write was not replayed.');
    case 'owner_gone':
      return stopWith(RecoveryAction.ESCALATE, `${settled.why} A person must check whether the write was applied.`);
    case 'replay_failed':
      // The replay failed in a known way: route that failure, never as a retry of a write under reconciliation.
      return { kind: 'route', failure: { ...settled.failure, retryable: false } };
  }
}

/**
 * A refused write whose answer may mean "already" (or a version conflict) and whose tool has a postcondition: read
 * it before routing (docs/DESIGN.md, "Already done is done"). `holds` ends the call as a success, never
 * re-executed; otherwise the failure is routed as it was, with the state the read found as its observed state.
 */
async function readPostcondition(
  ctx: RouterContext,
  scope: ReadyScope,
  attempt: FailedAttempt,
): Promise<{ kind: 'end'; outcome: ToolOutcome } | { kind: 'route'; attempt: FailedAttempt }> {
  if (!scope.spec.hasVerify || attempt.meta.postcondition === undefined) return { kind: 'route', attempt };
  scope.activities += 1;
  const answer = await verifyCall(scope);
  if (answer.verdict === 'holds') {
    scope.evidence = 'state_verified';
    scope.recovered = { failure: attempt.failure, action: RecoveryAction.RECONCILE };
    const value = { alreadySatisfied: true, ...(answer.state === undefined ? {} : { state: answer.state }) };
    return { kind: 'end', outcome: succeed(ctx, scope, value, 'already_satisfied') };
  }
  if (answer.state === undefined) return { kind: 'route', attempt };
  return { kind: 'route', attempt: { ...attempt, meta: { ...attempt.meta, observedState: answer.state as never } } };
}

/** The handler of each action that re-executes or settles a call. One table. */
export const RECOVERIES: Readonly<Record<RecoveryAction, Recovery | null>> = Object.freeze({
  reauth,
  request_approval: requestApproval,
  retry,
  reconcile,
  // These end the call with their route and the feedback for the model (recovery/actions.ts says how).
  repair: null,
  replan: null,
  reject: null,
  escalate: null,
  stop: null,
} satisfies Record<RecoveryAction, Recovery | null>);

/** The patch that moved a deduplicated write's retries into the workflow (Temporal docs, "Patching"). */
export const WRITE_RETRIES_PATCH = 'recovery-router:write-retries-in-workflow';

/**
 * The workflow retries a write itself, after backoff, within the per-call budget: a write that is not replay-safe
 * only after a failure known to happen before anything was sent; a write whose receiver deduplicates after any
 * retryable failure (its activity has one attempt, recovery/activity-options.ts). Runs recorded before that keep the
 * server's retries (no patch marker).
 */
function writeRetriedHere(scope: ReadyScope, failure: ToolFailure): boolean {
  if (scope.spec.effect !== 'write' || !failure.replaySafe) return false;
  return !isReplaySafe(scope.spec) || (failure.retryable && patched(WRITE_RETRIES_PATCH));
}

/**
 * A later failure of a write an earlier attempt of which may have been applied: it is that unknown outcome, not its
 * own failure (docs/DESIGN.md, "Phases"), so it is reconciled.
 */
function unknownAfterApplied(scope: ReadyScope, failure: ToolFailure): ToolFailure | undefined {
  if (!scope.maybeApplied || failure.class === FailureClass.OUTCOME_UNKNOWN) return undefined;
  if (!patched(WRITE_RETRIES_PATCH)) return undefined;
  return {
    ...failure,
    class: FailureClass.OUTCOME_UNKNOWN,
    phase: Phase.COMMIT_UNKNOWN,
    retryable: false,
    publicMessage:
      'An earlier attempt of this write may have been applied before this one failed; it is looked up before anything runs again.',
  };
}

/** Carries out the failure's route: run again, or the call's outcome. */
export async function recover(
  ctx: RouterContext,
  scope: ReadyScope,
  failed: FailedAttempt,
): Promise<{ kind: 'again' } | { kind: 'end'; outcome: ToolOutcome }> {
  const verified = await readPostcondition(ctx, scope, failed);
  if (verified.kind === 'end') return verified;
  const { attempt } = verified;
  const handler = RECOVERIES[routeFor(attempt.failure).action];
  let next = handler ? await handler(ctx, scope, attempt) : { kind: 'route' as const, failure: attempt.failure };
  const unknown = next.kind === 'route' ? unknownAfterApplied(scope, next.failure) : undefined;
  if (unknown) next = await reconcile(ctx, scope, { ...attempt, failure: unknown });
  if (next.kind !== 'route') return next;
  const { failure } = next;
  recordAttempt(ctx, scope, attempt, failure);
  const digest = argsHash({ class: failure.class, reason: failure.reason, status: failure.status ?? null });
  ctx.st.calls = recordOutcome(ctx.st.calls, scope.name, scope.hash, digest).ledger;
  const { observedState } = attempt.meta;
  return end(routed(ctx, scope, failure, observedState === undefined ? {} : { observedState })) as {
    kind: 'end';
    outcome: ToolOutcome;
  };
}
