/**
 * The failure of a call that got no answer after its attempts: a timeout (StartToClose, heartbeat, a crashed worker)
 * or a failure its activity did not shape (workflows/activity-failure.ts). Nobody knows whether the request left,
 * so the one phase decision (recovery/classify/sent.ts) takes "may have been sent": a write that is not replay-safe
 * is `outcome_unknown` (reconcile), never a tool bug; a read, or a write its receiver deduplicates, is transient and
 * not retried again (its attempts are spent).
 *
 * The message is this module's template text and the tool's name (1 to 64 characters of [a-zA-Z0-9_.-],
 * recovery/tool-spec.ts), which the model also reads in the failure's `tool` field. A name the redaction changes
 * (one shaped like a host, an address or a key: `api.example.com`, `sk-…`) is shown as the redaction leaves it: the
 * worker computes those messages' public form once (`publicFormsOf`, plugin/worker-data.ts), so the
 * workflow side writes them without the redaction rules (docs/DESIGN.md, "What the model sees").
 * Pure: no I/O.
 */
import { FailureClass, FailureReason } from '../failure';
import { isReplaySafe, type ToolSpec } from '../tool-spec';
import type { FailureDraft } from './assemble';
import { draftBySend } from './sent';

/** Why a call has no answer, and the words its message says. */
export const NO_ANSWER = Object.freeze({
  timeout: 'timed out',
  unreported: 'failed in a way its activity did not report',
} as const);
export type NoAnswer = keyof typeof NO_ANSWER;

/** The facts of a tool the draft reads. */
export type UnansweredTool = Pick<ToolSpec, 'name' | 'effect' | 'idempotency'>;

/** The draft of a call of `spec` with no answer (`why`) after its attempts; its message is plain text. */
export function unansweredDraft(spec: UnansweredTool, why: NoAnswer): FailureDraft & { publicMessage: string } {
  const reason = why === 'timeout' ? FailureReason.TIMEOUT : FailureReason.UNRECOGNIZED;
  const head = `The tool "${spec.name}" ${NO_ANSWER[why]}`;
  const ctx = { effect: spec.effect, deduplicates: spec.effect === 'write' && isReplaySafe(spec) };
  const draft = draftBySend({ class: FailureClass.TRANSIENT, reason, head }, 'maybe_sent', ctx);
  const publicMessage =
    draft.class === FailureClass.OUTCOME_UNKNOWN ? String(draft.publicMessage) : `${head} on every allowed attempt.`;
  return { ...draft, publicMessage, retryable: false };
}
