/**
 * One dispatch of a call: the `invokeTool` activity's input, its attempts counted (Temporal's own retries spend the
 * per-call retry budget, for the record), the credential version it reports kept, and its failure back to data.
 * Sandbox-safe.
 */
import { patched, type ActivityInterfaceFor } from '@temporalio/workflow';
import type { createToolActivities } from '../../activities/invoke-tool';
import { recordFailure } from '../../recovery/call-ledger';
import { FailureClass, FailureReason, Phase, type FailureMeta, type ToolFailure } from '../../recovery/failure';
import { RecoveryAction } from '../../recovery/routes';
import { MAY_HAVE_APPLIED_PATCH, mayHaveApplied } from '../../recovery/steps';
import { fromActivityError } from '../activity-failure';
import { isDuplicateKey } from '../reconcile-replay';
import { setOwn } from '../router-helpers';
import { spendUnit, versions, type ReadyScope, type RouterContext } from './context';
import { runtimeFailure } from './outcomes';

export type ToolActivities = ActivityInterfaceFor<ReturnType<typeof createToolActivities>>;

/** A dispatch that failed: the failure, the edge's facts, and what the attempt ran with. */
export interface FailedAttempt {
  failure: ToolFailure;
  meta: FailureMeta;
  versions: { credentialVersion: number; grantVersion: number };
  /** Workflow time when it ended, ms since the epoch. */
  endedAtMs: number;
}

export type Dispatched = { ok: true; value: unknown } | { ok: false; attempt: FailedAttempt };

/** What a dispatch sends, and the credential and grant versions it runs with. */
export interface DispatchStart {
  input: Parameters<ToolActivities['invokeTool']>[0];
  used: FailedAttempt['versions'];
}

/**
 * The three steps of one dispatch, synchronous around the activity, which the caller awaits itself:
 *
 *   const started = startDispatch(ctx, scope);
 *   try { done = dispatched(ctx, scope, await invokeTool(started.input)); }
 *   catch (err) { done = dispatchFailed(ctx, scope, started, err); }
 *
 * Not an async function of its own: every promise workflow code creates costs a source-mapped stack capture in the
 * worker (Temporal's stack-trace query), and an async function's result and each `await` are one each
 * (docs/DESIGN.md, "Performance").
 */
export function startDispatch(ctx: RouterContext, scope: ReadyScope): DispatchStart {
  scope.activities += 1;
  const used = versions(ctx, scope.spec.name, scope.hash);
  const input = {
    tool: scope.name,
    args: scope.args,
    callId: scope.callId,
    operationId: scope.operationId,
    ...(scope.approval ? { approval: scope.approval } : {}),
    // The replay after a refresh: with the refreshed version, which the worker that runs it may not hold yet.
    ...(scope.reauthed ? { refreshOnAuthFailure: false, credentialVersion: used.credentialVersion } : {}),
  };
  return { input, used };
}

/** The activity's answer: its attempts counted, the credential version it reports kept. */
export function dispatched(
  ctx: RouterContext,
  scope: ReadyScope,
  result: Awaited<ReturnType<ToolActivities['invokeTool']>>,
): Dispatched {
  countAttempts(ctx, scope, result.attempt, result.credentialVersion);
  // Temporal retried this activity: only transient, replay-safe failures are retried server-side.
  if (result.attempt > 1) {
    // The first failure's class and reason, when the activity carried them (activities/retried-after.ts).
    const cls = result.retriedAfter?.class ?? FailureClass.TRANSIENT;
    const reason = result.retriedAfter?.reason ?? FailureReason.UNSPECIFIED;
    const failure = runtimeFailure(scope, cls, reason, 'Retried by Temporal.', { phase: Phase.DISPATCH });
    scope.recovered = { failure, action: RecoveryAction.RETRY };
  }
  return { ok: true, value: result.value };
}

/** The activity's failure, back to data (workflows/activity-failure.ts), its attempts counted. */
export function dispatchFailed(
  ctx: RouterContext,
  scope: ReadyScope,
  started: DispatchStart,
  err: unknown,
): Dispatched {
  const { failure, meta } = fromActivityError(err, scope.spec, scope.callId, scope.diagnosticRef);
  const attempt = meta.attempt ?? 1;
  countAttempts(ctx, scope, attempt, meta.credentialVersion);
  // A duplicate-key conflict answering a re-execution under the same key may mean the first write landed: look
  // it up instead of routing a conflict (docs/DESIGN.md, "Reconcile"); like a lost answer, it marks the call.
  const write = scope.spec.effect === 'write';
  const landed = write && (scope.activities > 1 || attempt > 1) && isDuplicateKey(failure);
  if (write && failure.phase === Phase.COMMIT_UNKNOWN) scope.maybeApplied = true;
  else if (landed && patched(MAY_HAVE_APPLIED_PATCH)) scope.maybeApplied = true;
  const shown = landed ? mayHaveApplied(failure, 'duplicate_key', scope.spec, patched) : failure;
  return { ok: false, attempt: { failure: shown, meta, versions: started.used, endedAtMs: Date.now() } };
}

function countAttempts(ctx: RouterContext, scope: ReadyScope, attempt: number, credentialVersion?: number): void {
  scope.attempts += attempt;
  for (let i = 1; i < attempt; i++) spendUnit(ctx, 'retry', scope.stepId);
  if (credentialVersion !== undefined) setOwn(ctx.st.credentialVersions, scope.name, credentialVersion);
}

/** Remembers the failed attempt for the gate (`earliestRetryAtMs` when a retry was scheduled). */
export function recordAttempt(
  ctx: RouterContext,
  scope: ReadyScope,
  attempt: FailedAttempt,
  failure: ToolFailure,
  earliestRetryAtMs?: number,
): void {
  ctx.st.calls = recordFailure(ctx.st.calls, {
    tool: scope.name,
    argsHash: scope.hash,
    ...attempt.versions,
    failure,
    endedAtMs: attempt.endedAtMs,
    ...(earliestRetryAtMs === undefined ? {} : { earliestRetryAtMs }),
  });
}
