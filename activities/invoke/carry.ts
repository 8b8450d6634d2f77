/**
 * The tool activity's two safety nets (docs/DESIGN.md, "Phases" and "Bounds"):
 * - `carried`: a result goes back only when the payload can carry it — JSON, at most `MAX_RESULT_BYTES`. A write's
 *   result that cannot go back is replaced by a marker that says it was applied: the write committed, so the call
 *   succeeded, and the model must not repeat it. A read's is `invalid_result` (route: reject), with the reason.
 * - `unshapedFailure`: what no step shaped (an interruption, an error of the edge itself) is classified by whether
 *   the request may have left, through the one phase decision (recovery/classify/sent.ts).
 * Node-side only.
 */
import type { CallContext } from '../../recovery/classify';
import { buildFailure } from '../../recovery/classify/build';
import { draftBySend } from '../../recovery/classify/sent';
import { MAX_RESULT_BYTES, measureJson, omittedValue } from '../../recovery/bounds';
import { FailureClass, FailureReason } from '../../recovery/failure';
import { CallInterrupted, type Interruption } from '../attempt-guard';
import type { AnyTool } from '../define-tool';
import { CallStopped, unusableResult } from './stop';

/** The words for an interruption, in the model's message. */
const INTERRUPTED_BECAUSE: Readonly<Record<Interruption, string>> = Object.freeze({
  cancel_requested: 'it was cancelled',
  operator: 'an operator paused or reset it',
  worker_shutdown: 'the worker running it shut down',
  timed_out: 'it timed out',
  deadline: 'it ran past its time limit',
});

/**
 * `value` as it can travel back: unchanged, or with its BigInts as decimal strings; a write's that cannot is the
 * marker that says it was applied (`omittedValue`).
 * @throws CallStopped `invalid_result` for a read whose result cannot travel (`ctx` names the call).
 */
export function carried(tool: Pick<AnyTool, 'effect'>, value: unknown, ctx?: CallContext): unknown {
  const measured = measureJson(value);
  if (measured.kind === 'json' && measured.bytes <= MAX_RESULT_BYTES) {
    return measured.hadBigInt && measured.json !== undefined ? (JSON.parse(measured.json) as unknown) : value;
  }
  const why =
    measured.kind === 'json'
      ? `it is ${measured.bytes} bytes, over the ${MAX_RESULT_BYTES}-byte limit a result may carry`
      : `it cannot be written as JSON: ${measured.why}`;
  const bytes = measured.kind === 'json' ? measured.bytes : undefined;
  if (tool.effect === 'write' || !ctx) return omittedValue(why, bytes, true);
  const failure = unusableResult(ctx, `the result could not be carried back: ${why}`, measured.kind === 'json');
  throw new CallStopped(failure, `result not carried: ${why}`);
}

/** A failure no step shaped, as a CallStopped: by whether `execute` may have sent the request. */
export function unshapedFailure(err: unknown, ctx: CallContext, mayHaveSent: boolean): CallStopped {
  const head =
    err instanceof CallInterrupted
      ? `${ctx.tool}: the attempt was interrupted because ${INTERRUPTED_BECAUSE[err.why]}`
      : `${ctx.tool}: the call failed inside the tool activity`;
  const reason = err instanceof CallInterrupted ? FailureReason.INTERRUPTED : FailureReason.UNRECOGNIZED;
  const meaning = { class: FailureClass.TRANSIENT, reason, head };
  return new CallStopped(buildFailure(ctx, draftBySend(meaning, mayHaveSent ? 'maybe_sent' : 'not_sent', ctx)), err);
}
