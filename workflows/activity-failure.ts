/**
 * Workflow side of the activity edge: what an awaited tool activity threw, back to a ToolFailure.
 *
 * - An `ApplicationFailure` from our activity carries the ToolFailure in `details[0]` and FailureMeta in
 *   `details[1]` (activities/failure-edge.ts); both are validated, never trusted blindly.
 * - A `TimeoutFailure` (StartToClose or heartbeat timeout, also a worker that crashed mid-call) is not an answer:
 *   for a replay-safe tool it is transient; for a write that is not replay-safe the request may have been applied,
 *   so it is `outcome_unknown` in phase `commit_unknown` (docs/DESIGN.md, "Phases"), routed to reconcile, never
 *   retried blind.
 * - Anything else (a failure our edge did not shape) may have been sent: a write that is not replay-safe is
 *   `outcome_unknown`, anything else transient (see `unshaped`). No stack or message of it is kept.
 * Cancellation is not a tool failure: it is rethrown.
 */
import {
  ActivityFailure,
  ApplicationFailure,
  CancelledFailure,
  TimeoutFailure,
  isCancellation,
} from '@temporalio/workflow';
import { failureMetaSchema, toolFailureSchema, type FailureMeta, type ToolFailure } from '../recovery/failure';
import type { ToolSpec } from '../recovery/tool-spec';
import { assembleFailure } from '../recovery/classify/assemble';
import { unansweredDraft, type NoAnswer } from '../recovery/classify/unanswered';
import { workerData } from './worker-supplied';

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
    // Checked here, where it enters the workflow: routeFor and the gate take it as typed.
    if (parsed.success) return { failure: parsed.data, meta: readMeta(cause.details?.[1]) };
  }
  // A timeout (StartToClose, heartbeat, a crashed worker) is not an answer; nor is a failure our edge did not shape.
  const why: NoAnswer = cause instanceof TimeoutFailure ? 'timeout' : 'unreported';
  return { failure: afterAttempts(spec, callId, diagnosticRef, why), meta: {} };
}

/**
 * A failure that is no answer, after Temporal's retries (recovery/classify/unanswered.ts): a write that is not
 * replay-safe is `outcome_unknown` (reconcile); a read, or a write its receiver deduplicates, is transient and not
 * retried again here. Its message is template text and the tool's name, in the public form the worker computed
 * when the redaction changes it (`WorkerData.publicForms`); this side has no redaction rules.
 */
function afterAttempts(spec: ToolSpec, callId: string, diagnosticRef: string, why: NoAnswer): ToolFailure {
  const draft = unansweredDraft(spec, why);
  const forms = workerData()?.publicForms;
  const plain = draft.publicMessage;
  const publicMessage = forms !== undefined && Object.hasOwn(forms, plain) ? forms[plain]! : plain;
  return assembleFailure({ tool: spec.name, callId, diagnosticRef }, draft, { publicMessage });
}

function readMeta(raw: unknown): FailureMeta {
  const parsed = failureMetaSchema().safeParse(raw);
  return parsed.success ? parsed.data : {};
}
