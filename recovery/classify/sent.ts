/**
 * The one phase decision: a failure's class, phase and replay safety from what it means and whether its request may
 * have left the process (docs/DESIGN.md, "Phases": unknown after dispatch, on a write, is `outcome_unknown`).
 *
 * | request           | call                                   | becomes                                                 |
 * | ----------------- | -------------------------------------- | ------------------------------------------------------- |
 * | not sent (or not  | any                                    | its meaning, phase `dispatch`, replay-safe; transient   |
 * | processed)        |                                        |                                                         |
 * |                   |                                        | meanings retryable, an unrecoverable one stays so       |
 * | may have been sent| a read                                 | transient and retryable (unrecoverable stays so)        |
 * | may have been sent| a write whose receiver deduplicates    | transient meanings: retryable in `commit_unknown` (the  |
 * |                   |                                        | same key again is harmless); any other meaning:         |
 * |                   |                                        | `outcome_unknown`, replay-safe                          |
 * | may have been sent| any other write                        | `outcome_unknown` in `commit_unknown`, whatever it      |
 * |                   |                                        | meant: reconcile looks it up before anything runs again |
 * | may have been sent| a write, and a known bug in the tool   | `unrecoverable/tool_bug` in `commit_unknown`, replay-   |
 * |                   | (a programming error)                  | safe only when deduplicated: escalated, never replayed  |
 *
 * A failure that no rule recognises is not a reason to believe nothing was applied: an unknown throw, a
 * cancellation, a worker shutdown, an unsendable result or an error of the edge itself, after the tool's `execute`
 * began, takes the "may have been sent" rows.
 * Pure: no I/O.
 */
import { FailureClass, FailureReason, MAX_PUBLIC_MESSAGE_CHARS, Phase } from '../failure';
import type { FailureDraft } from './assemble';
import type { CallContext } from './context';
import { composeMessage, literal, PublicPart } from './message-parts';

/**
 * A call that returned an unusable result (phase `postcheck`): a write that is not deduplicated was applied, so the
 * model is told not to repeat it, and only a read or a deduplicated write is replay-safe. Never retryable.
 */
export function returnedDraft(
  m: FailureMeaning & { head: string },
  ctx: Pick<CallContext, 'effect' | 'deduplicates'>,
): FailureDraft {
  const note = ctx.effect === 'write' && !ctx.deduplicates ? ' The write was applied; do not repeat it.' : '';
  const flags = { retryable: false, replaySafe: ctx.effect === 'read' || ctx.deduplicates };
  return { class: m.class, reason: m.reason, phase: Phase.POSTCHECK, ...flags, publicMessage: `${m.head}.${note}` };
}

/** What a failure means apart from when it happened: its class and reason, and the head of the model's message. */
export interface FailureMeaning {
  readonly class: FailureClass;
  readonly reason: FailureReason;
  /**
   * The message's first sentence without its end, e.g. `pay: the connection was lost`: a plain string, or a part in
   * public form (recovery/classify/message-parts.ts) whose message may skip the final redaction pass.
   */
  readonly head: string | PublicPart;
}

/** How each row's sentence ends (the rule's own words). */
const END = {
  notSentRetry: literal('; the request was not sent, so it is safe to try again.'),
  notProcessedRetry: literal('; the request was not processed, so it is safe to try again.'),
  notSentFinal: literal('; the request was not sent, and trying again will not fix it.'),
  mayHaveApplied: literal(
    ' after the write was sent; it may or may not have been applied. Check its status before any new attempt.',
  ),
  stop: literal('.'),
  readRetry: literal('; the read can be retried.'),
  deduplicated: literal(
    ' after the write was sent; the service deduplicates it, so it can be retried with the same idempotency key.',
  ),
} as const;

/** A retryable row's end → what it says once the runtime's retries are spent (never "safe to try again"). */
const SPENT_END: readonly (readonly [string, string])[] = [
  [END.notSentRetry.text, '; the request was not sent, and retrying did not help.'],
  [END.notProcessedRetry.text, '; the request was not processed, and retrying did not help.'],
  [END.readRetry.text, '; retrying the read did not help.'],
  [END.deduplicated.text, ' after the write was sent; the service deduplicates it, and retrying did not help.'],
];
const SPENT_SENTENCE = ' Retrying did not help.';

/**
 * `message` once the call's retries are spent and its action is no longer a retry: the end this module gave a
 * retryable failure is replaced, any other message gets one sentence more (within `MAX_PUBLIC_MESSAGE_CHARS`), so
 * the model is never told "safe to try again" beside an action that asks for another way.
 */
export function retriesSpentMessage(message: string): string {
  for (const [was, now] of SPENT_END) if (message.includes(was)) return message.replace(was, now);
  if (message.endsWith(SPENT_SENTENCE) || SPENT_END.some(([, now]) => message.includes(now))) return message;
  return message.length + SPENT_SENTENCE.length <= MAX_PUBLIC_MESSAGE_CHARS ? message + SPENT_SENTENCE : message;
}

/** `head` + the row's end, keeping public parts composed. */
function sentence(m: FailureMeaning, end: PublicPart): string | PublicPart {
  return m.head instanceof PublicPart ? composeMessage`${m.head}${end}` : `${m.head}${end.text}`;
}

/**
 * Whether the request may have been applied: `not_sent` (it never left), `not_processed` (the server says it did not
 * act on it: a 503, a structured "not processed" code), `maybe_sent`.
 */
export type SendFact = 'not_sent' | 'not_processed' | 'maybe_sent';

const C = FailureClass;

/** The draft of `meaning` for a call whose request was (`maybe_sent`) or was not (`not_sent`) possibly sent. */
export function draftBySend(
  meaning: FailureMeaning,
  sent: SendFact,
  ctx: Pick<CallContext, 'effect' | 'deduplicates'>,
): FailureDraft {
  return sent === 'maybe_sent' ? afterSend(meaning, ctx) : notSent(meaning, sent);
}

/** A draft of `m` (`reason` defaults to its own) in `phase`, its sentence ended by `end`. */
function drafted(
  m: FailureMeaning,
  cls: FailureClass,
  phase: Phase,
  flags: { retryable: boolean; replaySafe: boolean },
  end: PublicPart,
  reason: FailureReason = m.reason,
): FailureDraft {
  return { class: cls, reason, phase, ...flags, publicMessage: sentence(m, end) };
}

/**
 * A refusal: the server answered that it did not act on the call, whatever it meant (a constraint, a bad credential,
 * a rate limit, a mail server's 4yz or 5yz). Replay-safe for any tool; retryable only when transient. The meaning's
 * own words say what to do, so the sentence just ends.
 */
export function refusedDraft(m: FailureMeaning): FailureDraft {
  return drafted(m, m.class, Phase.DISPATCH, { retryable: m.class === C.TRANSIENT, replaySafe: true }, END.stop);
}

/** Nothing left the process, or the server did not act on it: replay-safe for any tool. */
function notSent(m: FailureMeaning, sent: Exclude<SendFact, 'maybe_sent'>): FailureDraft {
  const unrecoverable = m.class === C.UNRECOVERABLE;
  const end = unrecoverable ? END.notSentFinal : sent === 'not_sent' ? END.notSentRetry : END.notProcessedRetry;
  const cls = unrecoverable ? C.UNRECOVERABLE : C.TRANSIENT;
  return drafted(m, cls, Phase.DISPATCH, { retryable: !unrecoverable, replaySafe: true }, end);
}

/** The request may have reached the server: the call's effect decides. */
function afterSend(m: FailureMeaning, ctx: Pick<CallContext, 'effect' | 'deduplicates'>): FailureDraft {
  const read = ctx.effect === 'read';
  const unknown = { retryable: false, replaySafe: ctx.deduplicates };
  // A known bug in the tool's own code (not an unknown error) is escalated, not reconciled: the tool must be fixed
  // before it runs again. A write it broke off may have been sent, so it stays not replay-safe.
  if (!read && m.class === C.UNRECOVERABLE && m.reason === FailureReason.TOOL_BUG) {
    return drafted(m, C.UNRECOVERABLE, Phase.COMMIT_UNKNOWN, unknown, END.mayHaveApplied);
  }
  // A write whose meaning is not "try again later" (an unknown error, a bug, a server fault) may have been applied:
  // its outcome is unknown, whether or not its receiver deduplicates (then a replay with the same key is safe).
  if (!read && (!ctx.deduplicates || m.class === C.UNRECOVERABLE || m.class === C.OUTCOME_UNKNOWN)) {
    return drafted(m, C.OUTCOME_UNKNOWN, Phase.COMMIT_UNKNOWN, unknown, END.mayHaveApplied);
  }
  if (m.class === C.UNRECOVERABLE) {
    return drafted(m, C.UNRECOVERABLE, Phase.DISPATCH, { retryable: false, replaySafe: true }, END.stop);
  }
  // A read cannot have applied anything; an outcome the server could not tell is then just unavailable.
  const reason = m.class === C.OUTCOME_UNKNOWN ? FailureReason.UNAVAILABLE : m.reason;
  const retry = { retryable: true, replaySafe: true };
  return read
    ? drafted(m, C.TRANSIENT, Phase.DISPATCH, retry, END.readRetry, reason)
    : drafted(m, C.TRANSIENT, Phase.COMMIT_UNKNOWN, retry, END.deduplicated, reason);
}
