/**
 * Workflow side of the activity edge: what an awaited tool activity threw, back to a ToolFailure.
 *
 * - An `ApplicationFailure` from our activity carries the ToolFailure in `details[0]` and FailureMeta in
 *   `details[1]` (activities/failure-edge.ts); both are validated, never trusted blindly.
 * - A `TimeoutFailure` (StartToClose or heartbeat timeout, also a worker that crashed mid-call) is not an answer:
 *   for a replay-safe tool it is transient; for a write that is not replay-safe the request may have been applied,
 *   so it is `outcome_unknown` in phase `commit_unknown` (docs/DESIGN.md, "Phases"), routed to reconcile, never
 *   retried blind.
 * - Anything else (a failure our edge did not shape) is `unrecoverable`, with a generic public message.
 * Cancellation is not a tool failure: it is rethrown.
 */
import {
  ActivityFailure,
  ApplicationFailure,
  CancelledFailure,
  TimeoutFailure,
  isCancellation,
} from '@temporalio/workflow';
import {
  FailureClass,
  failureMetaSchema,
  FailureReason,
  Phase,
  toolFailureSchema,
  type FailureMeta,
  type ToolFailure,
} from '../recovery/failure';
import { isReplaySafe, type ToolSpec } from '../recovery/tool-spec';
import { markValid } from '../recovery/valid-failure';

export interface ActivityFailureFacts {
  failure: ToolFailure;
  meta: FailureMeta;
}

/** Maps what `await activity(...)` threw. @throws the error itself when it is a cancellation. */
export function fromActivityError(
  err: unknown,
  spec: ToolSpec,
  callId: string,
  diagnosticRef: string,
): ActivityFailureFacts {
  if (isCancellation(err) || err instanceof CancelledFailure) throw err;
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure) {
    const parsed = toolFailureSchema().safeParse(cause.details?.[0]);
    // Frozen and marked valid: routeFor and the gate read it without parsing it again (recovery/valid-failure.ts).
    if (parsed.success) return { failure: markValid(parsed.data), meta: readMeta(cause.details?.[1]) };
  }
  if (cause instanceof TimeoutFailure) {
    const replaySafe = isReplaySafe(spec);
    const failure: ToolFailure = replaySafe
      ? {
          tool: spec.name,
          callId,
          class: FailureClass.TRANSIENT,
          reason: FailureReason.TIMEOUT,
          phase: Phase.DISPATCH,
          retryable: false,
          replaySafe: true,
          publicMessage: `The tool "${spec.name}" timed out on every allowed attempt.`,
          diagnosticRef,
        }
      : {
          tool: spec.name,
          callId,
          class: FailureClass.OUTCOME_UNKNOWN,
          reason: FailureReason.TIMEOUT,
          phase: Phase.COMMIT_UNKNOWN,
          retryable: false,
          replaySafe: false,
          publicMessage: `The write "${spec.name}" timed out after it was sent; it may or may not have been applied.`,
          diagnosticRef,
        };
    return { failure, meta: {} };
  }
  return {
    failure: {
      tool: spec.name,
      callId,
      class: FailureClass.UNRECOVERABLE,
      reason: FailureReason.TOOL_BUG,
      phase: Phase.DISPATCH,
      retryable: false,
      replaySafe: false,
      publicMessage: `The tool "${spec.name}" failed in an unexpected way.`,
      diagnosticRef,
    },
    meta: {},
  };
}

function readMeta(raw: unknown): FailureMeta {
  const parsed = failureMetaSchema().safeParse(raw);
  return parsed.success ? parsed.data : {};
}
