/**
 * How a step of the tool activity ends a call early: it throws `CallStopped` with the public failure, the diagnostic
 * for the worker's log and the edge's facts; `invokeTool` turns it into the `ApplicationFailure`
 * (activities/failure-edge.ts). Also the call's classification context and the preflight failure shape.
 * Node-side only.
 */
import type { Info } from '@temporalio/activity';
import { applyToolClassifier, classify, type CallContext, type RawOutcome } from '../../recovery/classify';
import { rulesClassifier, type ClassifyRule } from '../../recovery/classify/rules';
import { buildFailure } from '../../recovery/classify/build';
import {
  FailureClass,
  FailureReason,
  Phase,
  type FailureMeta,
  type FieldIssue,
  type ToolFailure,
} from '../../recovery/failure';
import { earlierAttempt } from '../../recovery/steps';
import { isReplaySafe } from '../../recovery/tool-spec';
import type { AnyTool } from '../define-tool';
import { HttpBodyError, HttpOutcomeError } from '../http';
import { inputFieldsOf } from '../postcondition';

/** A call that ends here: its failure, what the worker logs (never the model), and the edge's facts. */
export class CallStopped {
  constructor(
    readonly failure: ToolFailure,
    readonly diagnostic: unknown,
    readonly meta: FailureMeta = {},
  ) {}
}

/** The facts of one call that decide how its failures are classified (recovery/classify/context.ts). */
export function callContextOf(
  tool: AnyTool | undefined,
  inv: { tool: string; callId: string },
  info: Info,
): CallContext {
  return {
    tool: inv.tool,
    callId: inv.callId,
    effect: tool?.effect ?? 'read',
    deduplicates: tool ? isReplaySafe(tool.spec) && tool.effect === 'write' : false,
    approvalCanLift: tool?.spec.approvalCanLift ?? false,
    ...(tool ? { inputFields: inputFieldsOf(tool) } : {}),
    ...(tool?.alreadyPhrases ? { alreadyPhrases: tool.alreadyPhrases } : {}),
    nowMs: Date.now(),
    diagnosticRef: `${info.workflowExecution?.workflowId ?? 'standalone'}/${info.activityId}/${info.attempt}`,
    ...(tool?.errors === undefined ? {} : { dialect: tool.errors }),
  };
}

/** A failure found before anything was dispatched: replay-safe, retryable by time (after `retryAfterMs`) only when `more` says so. */
export function preflightFailure(
  ctx: CallContext,
  cls: FailureClass,
  reason: FailureReason,
  publicMessage: string,
  more: { issues?: FieldIssue[]; retryable?: boolean; retryAfterMs?: number } = {},
): ToolFailure {
  return buildFailure(ctx, {
    class: cls,
    reason,
    phase: Phase.PREFLIGHT,
    retryable: false,
    replaySafe: true,
    publicMessage,
    ...more,
  });
}

/** A write an earlier attempt of its activity may have sent (activities/retried-after.ts): looked up, not sent. */
export function earlierAttemptOf(ctx: CallContext): ToolFailure {
  const why =
    'An earlier attempt of this write may have sent it (an operator reset or retried its activity); it is looked up, not sent again.';
  return buildFailure(ctx, earlierAttempt(why));
}

/**
 * What a tool threw, classified (an `HttpOutcomeError` carries the HTTP answer): the built-in rules, then the
 * operators' `classify.rules` (recovery/classify/rules.ts), then the tool's own classifier.
 */
export function classifyThrown(
  err: unknown,
  ctx: CallContext,
  tool: AnyTool,
  rules: readonly ClassifyRule[] = [],
): ToolFailure {
  if (HttpBodyError.is(err)) return unusableResult(ctx, err.message, err.why === 'too_large', err.status);
  const raw: RawOutcome = HttpOutcomeError.is(err) ? err.outcome : { kind: 'thrown', error: err };
  const taught = rules.length === 0 ? classify(raw, ctx) : classify(raw, ctx, rulesClassifier(rules));
  return tool.classify ? applyToolClassifier(raw, ctx, taught, tool.classify) : taught;
}

/** `invalid_result` for a result not usable as it came (`why`, public words), e.g. a body `ctx.http` could not read. */
export function unusableResult(ctx: CallContext, why: string, tooLarge: boolean, status?: number): ToolFailure {
  return buildFailure(ctx, {
    class: FailureClass.INVALID_RESULT,
    reason: tooLarge ? FailureReason.RESULT_TOO_LARGE : FailureReason.SCHEMA_VIOLATION,
    phase: Phase.POSTCHECK,
    retryable: false,
    replaySafe: true,
    ...(status === undefined ? {} : { status }),
    publicMessage: `${ctx.tool}: ${why}.${tooLarge ? ' Ask for less (a filter, a smaller page).' : ''}`,
  });
}
