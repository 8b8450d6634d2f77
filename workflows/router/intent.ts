/**
 * One intent, one key (docs/tools.md, "One intent, one key"): a write's operation id names the business intent it
 * serves, so a new intent under a reused workflow id never reuses an old one's idempotency keys, while what repeats an
 * intent keeps them; and a write that an attempt outside this run's history may have sent is looked up before it is
 * sent. Temporal's facts behind it were verified on the dev server (notes/lifecycle-probes/README.md). Sandbox-safe.
 */
import { patched, workflowInfo, type WorkflowInfo } from '@temporalio/workflow';
import { lastFailure } from '../../recovery/call-ledger';
import { earlierAttempt } from '../../recovery/steps';
import { isReplaySafe } from '../../recovery/tool-spec';
import { versions, type ReadyScope, type RouterContext } from './context';
import type { FailedAttempt } from './dispatch';
import type { ToolRouterState } from '../tool-router-types';
import { runtimeFailure } from './outcomes';

/** Runs recorded before intent keys have no marker of it and keep `<workflowId>:<stepId>` (Temporal docs, "Patching"). */
export const INTENT_KEYS_PATCH = 'recovery-router:intent-keys';
/** Runs recorded before the look-up-first rule have no marker of it and send such a write as they did. */
export const SENT_BEFORE_PATCH = 'recovery-router:look-up-before-resending';

type IntentFacts = Pick<
  WorkflowInfo,
  'firstExecutionRunId' | 'originalExecutionRunId' | 'continuedFromExecutionRunId' | 'attempt' | 'cronSchedule'
>;

/**
 * The run that began this run's intent, from the started event's facts (a reset copies them):
 * - a new start (a reused workflow id, signal-with-start, a schedule's run): its own run id (`firstExecutionRunId`);
 * - a workflow retry, continue-as-new: the chain's first run (`firstExecutionRunId` is kept);
 * - a cron run: its own (`originalExecutionRunId`: every cron run keeps the chain's `firstExecutionRunId`); its first
 *   retry: the attempt it retries (`continuedFromExecutionRunId`). A later retry cannot be tied to its cron run by any
 *   fact (a memo a run writes does not reach its retry): `undefined`.
 */
export function intentOf(info: IntentFacts): string | undefined {
  if (!info.cronSchedule) return info.firstExecutionRunId;
  if (info.attempt === 1) return info.originalExecutionRunId;
  return info.attempt === 2 ? info.continuedFromExecutionRunId : undefined;
}

/**
 * The chain's intent in `st`, fixed the first time a write is keyed or the state is carried to a new run: a run
 * recorded before intent keys (no marker) keeps its chain on the old keys, `''`. `undefined` when the facts cannot
 * tell. Workflow code only (it may write a patch marker): never from a query.
 */
export function chainIntent(st: Pick<ToolRouterState, 'intent'>): string | undefined {
  st.intent ??= patched(INTENT_KEYS_PATCH) ? intentOf(workflowInfo()) : '';
  return st.intent;
}

/** A write's key base `<workflowId>@<intent>:<stepId>` (old keys: no `@<intent>`); `undefined`: none is safe. */
export function writeKeyBase(ctx: RouterContext, stepId: string): string | undefined {
  const intent = chainIntent(ctx.st);
  const { workflowId } = workflowInfo();
  return intent === undefined ? undefined : `${workflowId}${intent === '' ? '' : `@${intent}`}:${stepId}`;
}

/** This run repeats its intent outside its own history: a workflow retry, or a reset's run (not its started event's). */
const repeatsIntent = (info: WorkflowInfo) =>
  info.attempt > 1 || info.runId !== (info.originalExecutionRunId || info.runId);

/**
 * A write to look up before it is sent, as an unknown outcome (the reconcile route): one whose reconciliation an
 * earlier run of the chain left running (it continued as new while a review waited); or, in a run that repeats its
 * intent (a workflow retry, a reset's run: an earlier attempt of the run may have sent it), a write that is not
 * replay-safe, the first time this run calls it. `undefined` otherwise.
 */
export function sentBefore(ctx: RouterContext, scope: ReadyScope): FailedAttempt | undefined {
  if (scope.spec.effect !== 'write' || ctx.reconciliations.has(scope.operationId)) return undefined;
  const left = ctx.st.reconciling?.includes(scope.operationId) === true;
  const again = !isReplaySafe(scope.spec) && !lastFailure(ctx.st.calls, scope.name, scope.hash);
  if (!left && !(again && repeatsIntent(workflowInfo()))) return undefined;
  if (!patched(SENT_BEFORE_PATCH)) return undefined;
  const message = left
    ? 'This write was being reconciled when the run continued as new; it is looked up before anything runs again.'
    : 'An earlier attempt of this run (a workflow retry, or the run a reset replaced) may have sent this write; it is looked up before it is sent.';
  const { class: cls, reason, ...more } = earlierAttempt(message);
  const failure = runtimeFailure(scope, cls, reason, message, more);
  return { failure, meta: {}, versions: versions(ctx, scope.spec.name, scope.hash), endedAtMs: Date.now() };
}
