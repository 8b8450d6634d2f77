/**
 * The router's effects loop: a failed attempt's next step is decided as data (./steps.ts) and performed here, the
 * one place a recovery touches Temporal: it records the attempt for the gate, sleeps until a retry's time, waits
 * for a person's decision, starts the reconciliation, asks the gate to run again, or ends the call with its route
 * (./outcomes.ts). Sandbox-safe.
 */
import { isCancellation, patched, sleep } from '@temporalio/workflow';
import { recordOutcome } from '../../recovery/call-ledger';
import { argsHash } from '../../recovery/canonical';
import { RecoveryAction, routeFor } from '../../recovery/routes';
import { retriesSpent, routeOf, type CallState, type Facts, type Step } from '../../recovery/steps';
import { RecoveryAttr } from '../../recovery/trace-attributes';
import type { ReconcileResult } from '../reconcile';
import { reconcileCall } from '../reconcile-call';
import { hashedArgs, own } from '../router-helpers';
import type { ToolOutcome } from '../tool-router-types';
import type { ReadyScope, RouterContext } from './context';
import { recordAttempt, type FailedAttempt } from './dispatch';
import { routed, succeed } from './outcomes';
import { allowAgain } from './preflight';
import { afterApproval, afterReconcile, decide, reconcileFailed } from './steps';
import { guardrailStep, traceStep } from './trace';
import { verifyCall } from './verify';

export { WRITE_RETRIES_PATCH } from '../../recovery/steps';

/** How a recovery ends: run the call again, or its outcome. */
export type Next = { kind: 'again' } | { kind: 'end'; outcome: ToolOutcome };
const AGAIN: Next = Object.freeze({ kind: 'again' });

/** The call's state as a decision reads it. */
function callState(ctx: RouterContext, scope: ReadyScope): CallState {
  return {
    spec: scope.spec,
    stepId: scope.stepId,
    operationId: scope.operationId,
    reauthed: scope.reauthed,
    approved: scope.approval !== undefined,
    workflowRetries: scope.workflowRetries,
    maybeApplied: scope.maybeApplied === true,
    budgets: ctx.st.budgets,
  };
}

const route = (failure: Step['failure']) => routeFor(failure).action;
const factsOf = (ctx: RouterContext): Facts => ({ backoff: ctx.backoff, random: Math.random, patched, route });

/** Carries out the failure's recovery, step by step: run again, or the call's outcome. */
export async function recover(ctx: RouterContext, scope: ReadyScope, failed: FailedAttempt): Promise<Next> {
  const verified = await readPostcondition(ctx, scope, failed);
  if (verified.kind === 'end') return verified;
  const { attempt } = verified;
  const facts = factsOf(ctx);
  let step = decide(callState(ctx, scope), attempt, facts);
  for (;;) {
    if (step.budgets) ctx.st.budgets = step.budgets;
    if (step.kind !== 'settled') {
      recordAttempt(ctx, scope, attempt, step.failure, step.kind === 'wait_until' ? step.atMs : undefined);
    }
    switch (step.kind) {
      case 'run_again':
        if (!allowAgain(ctx, scope)) {
          step = step.otherwise;
          break;
        }
        if (step.action === RecoveryAction.REAUTH) scope.reauthed = true;
        scope.recovered = { failure: step.failure, action: step.action };
        return AGAIN;
      case 'wait_until': {
        const retry = step.action === RecoveryAction.RETRY;
        if (retry) scope.workflowRetries += 1;
        scope.recovered = { failure: step.failure, action: step.action };
        if ((await waitUntil(scope, step.atMs)) && allowAgain(ctx, scope)) return AGAIN;
        step = retry
          ? retriesSpent(callState(ctx, scope), attempt, facts)
          : routeOf(callState(ctx, scope), step.failure, facts);
        break;
      }
      case 'ask_person':
        step = await askPerson(ctx, scope, attempt, step);
        break;
      case 'reconcile':
        step = await reconcile(ctx, scope, step, facts);
        break;
      case 'settled':
        return settled(ctx, scope, step);
      case 'end':
        return { kind: 'end', outcome: ended(ctx, scope, attempt, step) };
    }
  }
}

/** Sleeps until `atMs` (workflow time, a durable timer), kept as the call's `retry_wait` span. */
async function waitUntil(scope: ReadyScope, atMs: number): Promise<true> {
  const sleptAtMs = Date.now();
  const delayMs = Math.max(1, atMs - sleptAtMs);
  await sleep(delayMs);
  traceStep(scope, 'retry_wait', sleptAtMs, { [RecoveryAttr.DELAY_MS]: delayMs });
  return true;
}

/**
 * Waits for a person's decision on an approval bound to these exact arguments. The request shows the arguments as
 * the refused activity previewed them (`FailureMeta.argsPreview`).
 */
async function askPerson(
  ctx: RouterContext,
  scope: ReadyScope,
  attempt: FailedAttempt,
  { failure }: { failure: FailedAttempt['failure'] },
): Promise<Step> {
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
  const action = allow ? RecoveryAction.REQUEST_APPROVAL : RecoveryAction.STOP;
  guardrailStep(scope, 'human_approval', { allow, reason: outcome.kind, action }, waitStartMs);
  if (outcome.kind === 'approved') {
    const { approved: _approved, ...grant } = outcome.grant;
    scope.approval = grant;
    const key = `${scope.name}|${scope.hash}`;
    ctx.st.grants[key] = own(ctx.st.grants, key) + 1;
  }
  return afterApproval(failure, outcome);
}

/** Looks the write up by operation_id (a child workflow) before anything is replayed; its result decides next. */
async function reconcile(
  ctx: RouterContext,
  scope: ReadyScope,
  step: Extract<Step, { kind: 'reconcile' }>,
  facts: Facts,
): Promise<Step> {
  const { failure } = step;
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
    return reconcileFailed(callState(ctx, scope), failure);
  }
  const by = settled.state === 'applied' ? settled.via : settled.state;
  traceStep(scope, 'reconcile', reconcileStartMs, { [RecoveryAttr.RECONCILED_BY]: by });
  scope.attempts += settled.replays;
  scope.activities += settled.replays;
  return afterReconcile(callState(ctx, scope), step, settled, facts);
}

/** A write found applied (or a postcondition that holds): the call succeeds, never re-executed. */
function settled(
  ctx: RouterContext,
  scope: ReadyScope,
  step: Extract<Step, { kind: 'settled' }>,
): { kind: 'end'; outcome: ToolOutcome } {
  scope.evidence = 'state_verified';
  scope.recovered = { failure: step.failure, action: RecoveryAction.RECONCILE };
  return { kind: 'end', outcome: succeed(ctx, scope, step.value, step.via) };
}

/** Ends the call with its route (counted for no-progress, with the observed state) or a forced action. */
function ended(
  ctx: RouterContext,
  scope: ReadyScope,
  attempt: FailedAttempt,
  { failure, action, routed: own, message, exhausted, personSaid }: Extract<Step, { kind: 'end' }>,
): ToolOutcome {
  const extra = {
    forceAction: action,
    ...(message ? { message } : {}),
    ...(exhausted ? { exhausted } : {}),
    ...(personSaid ? { personSaid } : {}),
  };
  if (!own) return routed(ctx, scope, failure, extra);
  const digest = argsHash({ class: failure.class, reason: failure.reason, status: failure.status ?? null });
  ctx.st.calls = recordOutcome(ctx.st.calls, scope.name, scope.hash, digest).ledger;
  const { observedState } = attempt.meta;
  return routed(ctx, scope, failure, observedState === undefined ? extra : { ...extra, observedState });
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
    const value = { alreadySatisfied: true, ...(answer.state === undefined ? {} : { state: answer.state }) };
    return settled(ctx, scope, { kind: 'settled', failure: attempt.failure, value, via: 'already_satisfied' });
  }
  if (answer.state === undefined) return { kind: 'route', attempt };
  return { kind: 'route', attempt: { ...attempt, meta: { ...attempt.meta, observedState: answer.state as never } } };
}
