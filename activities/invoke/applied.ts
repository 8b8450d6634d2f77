/**
 * A 2xx applied is applied (docs/DESIGN.md, "A committed write succeeds, even when its result cannot travel"): a
 * write's unusable answer (truncated JSON, an empty 204…) succeeds with the record its `lookup` fetches, else with the
 * marker of a result that cannot travel. A read's stays `invalid_result` (reject). Node-side only.
 */
import type { CallContext } from '../../recovery/classify';
import { buildFailure } from '../../recovery/classify/build';
import { draftBySend } from '../../recovery/classify/sent';
import { omittedValue } from '../../recovery/bounds';
import { FailureClass, FailureReason, type ToolFailure } from '../../recovery/failure';
import type { AnyTool } from '../define-tool';
import { lookupAnswerOf } from '../lookup-operation';
import type { ToolContext } from '../tool-context';
import { CallStopped } from './stop';

/** Why the answer is not the write's result, in the marker's words. */
const WHY: Partial<Record<ToolFailure['reason'], string>> = {
  [FailureReason.EMPTY_RESULT]: 'its answer was empty where the output schema expects content',
  [FailureReason.INVARIANT_VIOLATION]: "its answer breaks the tool's invariant",
  [FailureReason.RESULT_TOO_LARGE]: 'its answer is larger than a body is read to',
};

/**
 * The value of a write whose answer `err` says is unusable: the record its lookup finds now (one try), else the
 * marker. @throws err when it is not a write's `invalid_result`.
 */
export async function appliedValue(err: unknown, tool: AnyTool, args: unknown, ctx: ToolContext): Promise<unknown> {
  if (!(err instanceof CallStopped && err.failure.class === FailureClass.INVALID_RESULT && tool.effect === 'write'))
    throw err;
  const lookUp = async () => lookupAnswerOf(tool, await tool.lookup?.(ctx.operationId, ctx, args));
  const found = tool.lookup ? await lookUp().catch(() => undefined) : undefined;
  if (found?.state === 'applied') return found.result;
  const why = WHY[err.failure.reason] ?? "its answer does not match the tool's output schema";
  return omittedValue(`the write was applied, but ${why}`, undefined, true);
}

/**
 * A write's `invalid_result` thrown in `execute` (a JSON `SyntaxError`) is applied only after `ctx.http` saw a 2xx to
 * a write of the attempt (`writeAccepted`); else it may have been an error page: the outcome is unknown. After such a
 * 2xx an unknown outcome is `accepted`: never resent blind (workflows/reconcile-not-found.ts).
 */
export function afterAnswer(failure: ToolFailure, tool: AnyTool, writeAccepted: boolean, ctx: CallContext) {
  if (writeAccepted && failure.class === FailureClass.OUTCOME_UNKNOWN)
    return { ...failure, reason: FailureReason.ACCEPTED };
  if (failure.class !== FailureClass.INVALID_RESULT || tool.effect !== 'write' || writeAccepted) return failure;
  const meaning = {
    class: FailureClass.OUTCOME_UNKNOWN,
    reason: FailureReason.UNRECOGNIZED,
    head: `${ctx.tool}: the answer could not be read`,
  };
  return buildFailure(ctx, draftBySend(meaning, 'maybe_sent', ctx));
}
