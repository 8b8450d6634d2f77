/**
 * How a call ends: a routed failure (with the feedback the model sees, charged to the budget its action draws
 * from) or a success; either way one recovery record (docs/DESIGN.md, "Telemetry"). Sandbox-safe.
 */
import { ACTIONS } from '../../recovery/actions';
import { log } from '@temporalio/workflow';
import { type ExhaustedBudget } from '../../recovery/budgets';
import { clearFailure, NO_PROGRESS_REPEATS, recordOutcome } from '../../recovery/call-ledger';
import { FailureClass, MAX_PUBLIC_MESSAGE_CHARS, Phase, type ToolFailure } from '../../recovery/failure';
import { feedbackFor } from '../../recovery/feedback';
import { TerminalState, type RecoveryRecord } from '../../recovery/records';
import { RecoveryAction, routeFor } from '../../recovery/routes';
import type { Capability } from '../../recovery/tool-spec';
import { stripControls } from '../../recovery/untrusted';
import { isEmptyResult, outcomeDigest, own } from '../router-helpers';
import { telemetry } from '../telemetry-sinks';
import type { Reconciled, ToolOutcome } from '../tool-router-types';
import { isOmittedWrite } from '../../recovery/bounds';
import { budgetsLeft, spendUnit, type CallScope, type RouterContext } from './context';
import { emitCallSpans } from './trace';

/** How a routed failure ends beyond its route: a forced action, a message, the observed state, … */
export interface RouteExtra {
  refused?: boolean;
  capabilities?: Capability[];
  message?: string;
  forceAction?: RecoveryAction;
  observedState?: unknown;
  exhausted?: ExhaustedBudget;
  /** A person's words on the call (a deny reason), passed to the model as quoted data (`personSaid`). */
  personSaid?: string;
}

/**
 * Writes the call's recovery record: kept in state (query `recovery.records`), logged through Temporal's workflow
 * logger (one structured line, not during replay: DEBUG for a success at the first attempt, INFO otherwise),
 * handed to the telemetry sink (metrics), and with the call's workflow-side spans to the trace sink (./trace.ts).
 */
export function writeRecord(
  ctx: RouterContext,
  scope: CallScope,
  terminal: RecoveryRecord['terminal'],
  failure?: ToolFailure,
  action?: RecoveryAction,
  exhausted?: ExhaustedBudget,
  reconciled?: RecoveryRecord['reconciled'],
): void {
  const r: RecoveryRecord = {
    callId: scope.callId,
    tool: scope.shownName,
    turn: scope.turn,
    attempts: scope.attempts,
    activities: scope.activities,
    budgetsLeft: budgetsLeft(ctx, scope.stepId),
    terminal,
    durationMs: Date.now() - scope.startedAtMs,
  };
  if (failure) Object.assign(r, { class: failure.class, reason: failure.reason, phase: failure.phase });
  if (failure?.fingerprint !== undefined) r.fingerprint = failure.fingerprint;
  if (action) r.action = action;
  if (scope.evidence) r.evidence = scope.evidence;
  if (reconciled) r.reconciled = reconciled;
  if (scope.afterReplan) {
    r.replanLatencyMs = scope.startedAtMs - scope.afterReplan.atMs;
    r.replanAfter = scope.afterReplan.class;
  }
  ctx.st.records.push(r);
  // A first-attempt success is DEBUG, as Temporal's own per-workflow lines are; a failure or a recovery is INFO.
  const line = failure === undefined && action === undefined ? log.debug : log.info;
  line('recovery record', { ...r, ...(exhausted ? { exhausted } : {}) });
  telemetry.record(r);
  emitCallSpans(scope, r, failure);
  if (action !== undefined && ACTIONS[action].asksForAnotherWay) {
    ctx.st.pendingReplan = { atMs: Date.now(), class: r.class ?? FailureClass.UNRECOVERABLE };
  }
}

/** Ends the call with a routed failure, spending the budget its action draws from. */
export function routed(
  ctx: RouterContext,
  scope: CallScope,
  failure: ToolFailure,
  extra: RouteExtra = {},
): ToolOutcome {
  let action = extra.forceAction ?? routeFor(failure).action;
  let exhausted = extra.exhausted;
  let noProgress = false;
  const budgetKind = ACTIONS[action].budget;
  if (extra.refused && budgetKind === 'replan') {
    // The model was told to choose another way and sent the identical call again: no progress.
    noProgress = true;
    action = RecoveryAction.STOP;
  }
  let terminal = ACTIONS[action].ends;
  const spentTo = ACTIONS[action].whenBudgetSpent;
  if (budgetKind && spentTo && !noProgress) {
    const r = spendUnit(ctx, budgetKind, budgetKind === 'repair' ? scope.stepId : undefined);
    if (!r.allowed) {
      exhausted = r.exhausted;
      action = spentTo;
      terminal = true;
    }
  }
  const feedback = feedbackFor(failure, action, {
    ...(extra.capabilities ? { capabilities: extra.capabilities } : {}),
    ...(extra.message ? { message: extra.message } : {}),
    ...(extra.observedState !== undefined ? { observedState: extra.observedState } : {}),
  });
  if (extra.personSaid) feedback.personSaid = stripControls(extra.personSaid);
  const terminalState = extra.refused ? TerminalState.REFUSED : ACTIONS[action].terminal;
  writeRecord(ctx, scope, terminalState, failure, action, exhausted);
  const out: ToolOutcome = {
    ok: false,
    tool: scope.name,
    callId: scope.callId,
    operationId: scope.operationId,
    action,
    failure,
    feedback,
    terminal,
    refused: extra.refused ?? false,
    noProgress,
    attempts: scope.attempts,
    activities: scope.activities,
  };
  if (exhausted) out.exhausted = exhausted;
  return out;
}

/** Ends the call with a success: forgets its failure, counts the outcome for no-progress detection. */
export function succeed(
  ctx: RouterContext,
  scope: CallScope & { hash: string },
  value: unknown,
  reconciled?: Reconciled,
) {
  const { st } = ctx;
  st.calls = clearFailure(st.calls, scope.name, scope.hash);
  st.successes[scope.successKey] = own(st.successes, scope.successKey) + 1;
  const seen = recordOutcome(st.calls, scope.name, scope.hash, outcomeDigest(value));
  st.calls = seen.ledger;
  // A success after a recovery says which: the class of the failure it recovered from, and the action that did it.
  const { failure, action } = scope.recovered ?? {};
  writeRecord(ctx, scope, TerminalState.SUCCEEDED, failure, action, undefined, reconciled);
  // How it ended: a person's mark or a postcondition that held, else the tool ran (its write's value maybe omitted).
  const ended = reconciled === 'marked_applied' || reconciled === 'already_satisfied' ? reconciled : undefined;
  return {
    ok: true,
    tool: scope.name,
    callId: scope.callId,
    operationId: scope.operationId,
    ended: ended ?? (isOmittedWrite(value) ? 'value_omitted' : 'ran'),
    value,
    empty: isEmptyResult(value),
    noProgress: seen.seen >= NO_PROGRESS_REPEATS,
    attempts: scope.attempts,
    activities: scope.activities,
    ...(reconciled ? { reconciled } : {}),
  } as ToolOutcome;
}

/** A failure the router itself found (before or instead of an activity's): replay-safe, preflight by default. */
export function runtimeFailure(
  scope: CallScope,
  cls: ToolFailure['class'],
  reason: ToolFailure['reason'],
  publicMessage: string,
  more: Partial<ToolFailure> = {},
): ToolFailure {
  return {
    tool: scope.shownName,
    callId: scope.callId,
    class: cls,
    reason,
    phase: Phase.PREFLIGHT,
    retryable: false,
    replaySafe: true,
    publicMessage: publicMessage.slice(0, MAX_PUBLIC_MESSAGE_CHARS),
    diagnosticRef: scope.diagnosticRef,
    ...more,
  };
}
