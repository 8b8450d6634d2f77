/**
 * The one phase decision: a failure's class, phase and replay safety from what it means and whether its request may
 * have left the process (docs/DESIGN.md, "Phases": unknown after dispatch, on a write, is `outcome_unknown`).
 *
 * | request           | call                                   | becomes                                                 |
 * | ----------------- | -------------------------------------- | ------------------------------------------------------- |
 * | not sent          | any                                    | its meaning, phase `dispatch`, replay-safe; transient   |
 * |                   |                                        | meanings retryable, an unrecoverable one stays so       |
 * | may have been sent| a read                                 | transient and retryable (unrecoverable stays so)        |
 * | may have been sent| a write whose receiver deduplicates    | transient and retryable in `commit_unknown` (idem)      |
 * | may have been sent| any other write                        | `outcome_unknown` in `commit_unknown`, whatever it      |
 * |                   |                                        | meant: reconcile looks it up before anything runs again |
 *
 * A failure that no rule recognises is not a reason to believe nothing was applied: an unknown throw, a
 * cancellation, a worker shutdown, an unsendable result or an error of the edge itself, after the tool's `execute`
 * began, takes the "may have been sent" rows.
 * Pure: no I/O.
 */
import { FailureClass, FailureReason, Phase } from '../failure';
import type { FailureDraft } from './build';
import type { CallContext } from './context';

/** What a failure means apart from when it happened: its class and reason, and the head of the model's message. */
export interface FailureMeaning {
  readonly class: FailureClass;
  readonly reason: FailureReason;
  /** The message's first sentence without its end, e.g. `pay: the connection was lost`. */
  readonly head: string;
}

/** Whether the request may have reached the server. */
export type SendFact = 'not_sent' | 'maybe_sent';

const C = FailureClass;

/** The draft of `meaning` for a call whose request was (`maybe_sent`) or was not (`not_sent`) possibly sent. */
export function draftBySend(
  meaning: FailureMeaning,
  sent: SendFact,
  ctx: Pick<CallContext, 'effect' | 'deduplicates'>,
): FailureDraft {
  return sent === 'not_sent' ? notSent(meaning) : afterSend(meaning, ctx);
}

/** Nothing left the process: replay-safe for any tool. */
function notSent(m: FailureMeaning): FailureDraft {
  const unrecoverable = m.class === C.UNRECOVERABLE;
  return {
    class: unrecoverable ? C.UNRECOVERABLE : C.TRANSIENT,
    reason: m.reason,
    phase: Phase.DISPATCH,
    retryable: !unrecoverable,
    replaySafe: true,
    publicMessage: unrecoverable
      ? `${m.head}; the request was not sent, and trying again will not fix it.`
      : `${m.head}; the request was not sent, so it is safe to try again.`,
  };
}

/** The request may have reached the server: the call's effect decides. */
function afterSend(m: FailureMeaning, ctx: Pick<CallContext, 'effect' | 'deduplicates'>): FailureDraft {
  const read = ctx.effect === 'read';
  if (!read && !ctx.deduplicates) {
    return {
      class: C.OUTCOME_UNKNOWN,
      // A read-side reason such as "tool bug" does not describe an unknown outcome.
      reason: m.reason === FailureReason.TOOL_BUG ? FailureReason.UNRECOGNIZED : m.reason,
      phase: Phase.COMMIT_UNKNOWN,
      retryable: false,
      replaySafe: false,
      publicMessage: `${m.head} after the write was sent; it may or may not have been applied. Check its status before any new attempt.`,
    };
  }
  if (m.class === C.UNRECOVERABLE) {
    return {
      class: C.UNRECOVERABLE,
      reason: m.reason,
      phase: read ? Phase.DISPATCH : Phase.COMMIT_UNKNOWN,
      retryable: false,
      replaySafe: true,
      publicMessage: `${m.head}.`,
    };
  }
  // A read cannot have applied anything; an outcome the server could not tell is then just unavailable.
  const reason = m.class === C.OUTCOME_UNKNOWN ? FailureReason.UNAVAILABLE : m.reason;
  return read
    ? {
        class: C.TRANSIENT,
        reason,
        phase: Phase.DISPATCH,
        retryable: true,
        replaySafe: true,
        publicMessage: `${m.head}; the read can be retried.`,
      }
    : {
        class: C.TRANSIENT,
        reason,
        phase: Phase.COMMIT_UNKNOWN,
        retryable: true,
        replaySafe: true,
        publicMessage: `${m.head} after the write was sent; the service deduplicates it, so it can be retried with the same idempotency key.`,
      };
}
