/**
 * Answers that may mean "already done": a write refused because the state it asks for already holds (an item
 * already in the list, a note whose title is taken by the same note) is not a failure of the goal. When the tool has
 * a postcondition (`verify`), the router reads it before it routes the refusal; `holds` makes the call a success
 * (`reconciled: 'already_satisfied'`), never re-executed (docs/DESIGN.md, "Already done is done").
 *
 * Which answers ask for the read:
 * - `ALREADY_STATUSES`: 409 Conflict and 412 Precondition Failed always;
 * - any other refusal whose words say "already" (`saysAlready`: the vocabulary's `already` concept,
 *   recovery/classify/words.ts), a tool's own phrasings too (`defineTool({ alreadyPhrases })`). A false positive costs
 *   one read of the postcondition, never a replay.
 * - `VERSION_CONFLICT_PHRASES`: optimistic-concurrency refusals (RFC 9110 §13.1.1 `If-Match`, an ETag that no longer
 *   matches): the read gives the model the current state to replan on.
 * Pure: no I/O.
 */
import { conceptsOf } from './classify/words';

/** What an answer may mean for the postcondition. */
export type PostconditionHint = 'already' | 'version_conflict';

/** The verdict of a tool's `verify(args, ctx)`: does the state the call asks for hold now? */
export type PostconditionVerdict = 'holds' | 'does_not_hold' | 'unknown';

/**
 * Statuses that ask for the read whatever the message says: 409 Conflict and 412 Precondition Failed (RFC 9110
 * §15.5.10, §15.5.13: the state of the resource conflicts with, or fails a condition of, the request — which it does
 * when it already holds). Any other refusal asks for it when its words say "already".
 */
export const ALREADY_STATUSES: Readonly<Record<number, { source: string }>> = Object.freeze({
  409: { source: 'RFC 9110 §15.5.10 409 Conflict' },
  412: { source: 'RFC 9110 §15.5.13 412 Precondition Failed' },
});

/** Optimistic-concurrency refusals (lower case): RFC 9110 §13.1.1 If-Match; RFC 9110 §8.8.3 ETag. */
export const VERSION_CONFLICT_PHRASES: readonly string[] = Object.freeze([
  'etag',
  'version conflict',
  'version mismatch',
  'stale version',
  'stale object',
  'has been modified',
  'was modified',
  'concurrent modification',
  'precondition',
]);

/** Longest message read, in characters: a phrase that far in is not what the service meant. */
const MAX_MESSAGE_CHARS = 2_000;

function mentions(message: string, phrases: readonly string[]): boolean {
  const text = message.slice(0, MAX_MESSAGE_CHARS).toLowerCase().replace(/\s+/g, ' ');
  return phrases.some((p) => {
    const i = text.indexOf(p);
    if (i < 0) return false;
    const before = i === 0 ? ' ' : (text[i - 1] ?? ' ');
    const after = text[i + p.length] ?? ' ';
    return !/[a-z0-9]/.test(before) && !/[a-z0-9]/.test(after);
  });
}

/**
 * True when `message` says the state already holds: its words carry the vocabulary's `already` concept ("already",
 * "exists", "duplicate", "not modified": recovery/classify/words.ts, read as tokens, so "The song is already in the
 * playlist" counts as well as `already_exists`), or one of the tool's own phrasings `extra` (case-insensitive, on word
 * boundaries).
 */
export function saysAlready(message: string | undefined, extra: readonly string[] = []): boolean {
  if (message === undefined || message === '') return false;
  return (
    conceptsOf(message).includes('already') ||
    mentions(
      message,
      extra.map((p) => p.toLowerCase()),
    )
  );
}

/**
 * What a refused write's answer may mean for its postcondition, or `undefined` when the answer asks for no read.
 * @param status the HTTP status (or its equivalent from a client library's error).
 * @param message the service's message (`message`, `error`, or the text of the body), when it has one.
 * @param extra the tool's own phrasings of "already" (`defineTool({ alreadyPhrases })`).
 */
export function postconditionHint(
  status: number | undefined,
  message: string | undefined,
  extra: readonly string[] = [],
): PostconditionHint | undefined {
  if (status === 412) return 'version_conflict';
  // "version conflict, document already exists": the more specific "already" wins (one read either way).
  if (
    status === 409 &&
    !saysAlready(message, extra) &&
    message !== undefined &&
    mentions(message, VERSION_CONFLICT_PHRASES)
  )
    return 'version_conflict';
  if (status !== undefined && ALREADY_STATUSES[status]) return 'already';
  // A refusal of any other kind (a 400, a 422, a library's error without a status): only when its words say so.
  return saysAlready(message, extra) ? 'already' : undefined;
}
