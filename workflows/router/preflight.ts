/**
 * A call before anything is dispatched (docs/DESIGN.md, "The loop"): its scope, the capability check (discovery is
 * not authorisation), the arguments' canonical hash and size bound, the operation_id, and the Change-before-Retry
 * gate against the records of this exact call. Each step returns an outcome when the call ends there. Sandbox-safe.
 */
import { ApplicationFailure, log, workflowInfo } from '@temporalio/workflow';
import { ExhaustedBudget, startCall } from '../../recovery/budgets';
import { gateIdenticalCall, lastFailure } from '../../recovery/call-ledger';
import type { AttemptRecord, CandidateCall, GateDecision } from '../../recovery/gate';
import { canonicalize, hashCanonical } from '../../recovery/canonical';
import { isRecoveryInputError } from '../../recovery/errors';
import { FailureClass, FailureReason, type FieldIssue } from '../../recovery/failure';
import { RecoveryAction, routeFor } from '../../recovery/routes';
import { dispatchedArgs, hashedArgs, MAX_ARGS_CHARS, own, setOwn } from '../router-helpers';
import type { CallToolOptions, ToolOutcome } from '../tool-router-types';
import { capabilities, permitted, versions, type CallScope, type ReadyScope, type RouterContext } from './context';
import { writeKeyBase } from './intent';
import { routed, runtimeFailure } from './outcomes';
import { guardrailStep } from './trace';
import { ApplicationFailureType } from '../../recovery/failure-types';

/**
 * The scope of a new call. Never reads a non-string `name` as a string: `{ toString: 1 }` makes `String()` and
 * template strings throw.
 * @throws ApplicationFailure `invalid_input` (non-retryable: the run fails, not its workflow task) when
 *   `options.stepId` is not a non-empty string or `options.callId` is not 1 to 128 characters.
 */
export function openCall(ctx: RouterContext, name: unknown, args: unknown, given: unknown): CallScope {
  const options: CallToolOptions = typeof given === 'object' && given !== null ? (given as CallToolOptions) : {};
  const shownName = typeof name === 'string' && name !== '' ? name.slice(0, 64) : '(no name)';
  const toolName = typeof name === 'string' ? name : shownName;
  const turn = ctx.st.budgets.turn.index;
  const successKey = `t${turn}:${toolName}`;
  if (options.stepId !== undefined && (typeof options.stepId !== 'string' || options.stepId === '')) {
    throw ApplicationFailure.nonRetryable(
      'callTool: options.stepId must be a non-empty string',
      ApplicationFailureType.INVALID_INPUT,
    );
  }
  const stepId = options.stepId ?? `${successKey}#${own(ctx.st.successes, successKey)}`;
  if (
    options.callId !== undefined &&
    (typeof options.callId !== 'string' || options.callId === '' || options.callId.length > 128)
  ) {
    throw ApplicationFailure.nonRetryable(
      'callTool: options.callId must be 1 to 128 characters',
      ApplicationFailureType.INVALID_INPUT,
    );
  }
  const callId = options.callId ?? stepId;
  const { workflowId } = workflowInfo();
  // The ledger holds the calls started in this turn (and, with stepBudgetsAcrossTurns, in earlier ones).
  if (!ctx.st.budgets.calls.some((c) => c.key === stepId)) ctx.st.budgets = startCall(ctx.st.budgets, stepId);
  const afterReplan = ctx.st.pendingReplan;
  delete ctx.st.pendingReplan;
  return {
    name: toolName,
    nameIsString: typeof name === 'string',
    shownName,
    turn,
    successKey,
    stepId,
    callId,
    diagnosticRef: `${workflowId}/${callId}`,
    startedAtMs: Date.now(),
    afterReplan,
    args,
    operationId: `${workflowId}:${stepId}`,
    attempts: 0,
    activities: 0,
    reauthed: false,
    workflowRetries: 0,
  };
}

/**
 * An unknown tool, or one the run's scopes do not grant: `capability_missing` with the permitted capabilities.
 * The turns in a row that named one are counted (at most one per turn); the turn that reaches
 * `consecutiveUnknownToolTurns` escalates the run. A call to an available tool ends the streak.
 */
export function checkCapability(ctx: RouterContext, scope: CallScope): ToolOutcome | undefined {
  const { st } = ctx;
  const spec = scope.nameIsString ? ctx.catalog.get(scope.name) : undefined;
  if (spec && permitted(ctx, spec)) {
    st.unknownToolTurns = { count: 0, lastTurn: 0 };
    scope.spec = spec;
    return undefined;
  }
  const reason = spec ? FailureReason.NOT_PERMITTED_TOOL : FailureReason.UNKNOWN_TOOL;
  const message = spec
    ? `The tool "${scope.shownName}" is not available to this caller.`
    : `There is no tool named "${scope.shownName}".`;
  const streak = st.unknownToolTurns ?? { count: 0, lastTurn: 0 };
  if (streak.lastTurn !== scope.turn) st.unknownToolTurns = { count: streak.count + 1, lastTurn: scope.turn };
  const limit = st.budgets.policy.consecutiveUnknownToolTurns;
  const failure = runtimeFailure(scope, FailureClass.CAPABILITY_MISSING, reason, message);
  if ((st.unknownToolTurns?.count ?? 0) < limit)
    return routed(ctx, scope, failure, { capabilities: capabilities(ctx) });
  return routed(ctx, scope, failure, {
    capabilities: capabilities(ctx),
    forceAction: RecoveryAction.ESCALATE,
    exhausted: ExhaustedBudget.CONSECUTIVE_UNKNOWN_TOOL_TURNS,
    message: `${message} ${limit} turns in a row named a tool this run cannot use, so the run stops here.`,
  });
}

/**
 * The canonical hash of the arguments the tool will see (at most `MAX_ARGS_CHARS` characters of JSON), then the
 * call's operation_id (a write's names its intent, ./intent.ts: a cron run's retry has none and escalates); the call's arguments become what the tool will see (`dispatchedArgs`), so what its schema
 * strips is never copied into history. Arguments that are too large or not JSON are `invalid_arguments` with a field
 * issue.
 */
export function hashArguments(
  ctx: RouterContext,
  scope: CallScope & { spec: NonNullable<CallScope['spec']> },
): ToolOutcome | undefined {
  const badArguments = (message: string, issue: FieldIssue) =>
    routed(
      ctx,
      scope,
      runtimeFailure(scope, FailureClass.INVALID_ARGUMENTS, FailureReason.SCHEMA, message, { issues: [issue] }),
    );
  let canonical: string;
  const kept = hashedArgs(scope.spec, scope.args);
  try {
    canonical = canonicalize(kept);
  } catch (err) {
    return badArguments('The arguments are not a JSON value.', {
      path: isRecoveryInputError(err) ? [...err.path] : [],
      expected: 'a JSON value',
      received: 'not JSON',
      suggestion: 'Send plain JSON arguments.',
    });
  }
  if (canonical.length > MAX_ARGS_CHARS) {
    return badArguments(`The arguments are too large (over ${MAX_ARGS_CHARS} characters as JSON).`, {
      path: [],
      expected: `at most ${MAX_ARGS_CHARS} characters of JSON`,
      received: `${canonical.length} characters`,
      suggestion: 'Send less data, or a reference to it.',
    });
  }
  scope.hash = hashCanonical(canonical);
  // A write's key names its intent (./intent.ts); a read's operation id is a label and stays `<workflowId>:<stepId>`.
  const base = scope.spec.effect === 'write' ? writeKeyBase(ctx, scope.stepId) : scope.operationId;
  if (base === undefined) {
    const message =
      'This run is a retry of a cron run, and no fact Temporal gives ties it to the cron run it retries, so this write has no safe idempotency key; a person must run it.';
    const failure = runtimeFailure(scope, FailureClass.UNRECOVERABLE, FailureReason.UNSPECIFIED, message);
    return routed(ctx, scope, failure, { forceAction: RecoveryAction.ESCALATE });
  }
  scope.operationId = operationIdFor(ctx, base, scope.stepId, scope.hash);
  // What the tool will see and no more: fields its schema strips never reach the activity's input (history).
  scope.args = dispatchedArgs(scope.spec, kept, scope.operationId);
  return undefined;
}

/** The operation_id of `hash` under `stepId` (see `ToolRouterState.stepArgs`). */
function operationIdFor(ctx: RouterContext, base: string, stepId: string, hash: string): string {
  const st = ctx.st;
  st.stepArgs ??= {};
  const seen = Object.prototype.hasOwnProperty.call(st.stepArgs, stepId) ? (st.stepArgs[stepId] ?? []) : [];
  let index = seen.indexOf(hash);
  if (index < 0) {
    index = seen.length;
    setOwn(st.stepArgs, stepId, [...seen, hash]);
  }
  return index === 0 ? base : `${base}~${index + 1}`;
}

/**
 * The gate: an identical call after a failure runs again only with evidence found true in the records; otherwise it
 * is refused without dispatch and charged to the budget of the failure's route (docs/DESIGN.md, "The
 * Change-before-Retry gate").
 */
export function gate(ctx: RouterContext, scope: ReadyScope): ToolOutcome | undefined {
  const previous = lastFailure(ctx.st.calls, scope.name, scope.hash);
  if (!previous) return undefined;
  const candidate = { tool: scope.spec.name, argsHash: scope.hash, ...versions(ctx, scope.spec.name, scope.hash) };
  const decision = gateVerdict(scope, previous, candidate);
  if (decision.allowed) {
    scope.evidence = decision.evidence.kind;
    return undefined;
  }
  log.info('gate refused an identical call', {
    tool: scope.name,
    callId: scope.callId,
    reason: decision.reason,
    message: decision.message,
  });
  return routed(ctx, scope, previous.failure, {
    refused: true,
    message: `This exact call already failed (${previous.failure.publicMessage}) and nothing has changed since, so it was not run again.`,
  });
}

/** The gate's decision on `candidate`, kept as a guardrail span of the call (verdict apart from the route's action). */
function gateVerdict(scope: CallScope, previous: AttemptRecord, candidate: CandidateCall): GateDecision {
  const decision = gateIdenticalCall(previous, candidate, Date.now());
  const reason = decision.allowed ? {} : { reason: decision.reason };
  guardrailStep(scope, 'change_before_retry', {
    allow: decision.allowed,
    action: routeFor(previous.failure).action,
    ...reason,
  });
  return decision;
}

/** The gate's word on re-executing this call now, after a recovery; records the evidence when it allows. */
export function allowAgain(ctx: RouterContext, scope: ReadyScope): boolean {
  const prev = lastFailure(ctx.st.calls, scope.name, scope.hash);
  if (!prev) return true;
  const candidate = { tool: scope.name, argsHash: scope.hash, ...versions(ctx, scope.name, scope.hash) };
  const decision = gateVerdict(scope, prev, candidate);
  if (decision.allowed) scope.evidence = decision.evidence.kind;
  else log.warn('gate refused a re-execution', { tool: scope.name, callId: scope.callId, reason: decision.reason });
  return decision.allowed;
}
