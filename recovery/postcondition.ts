/**
 * Answers that may mean "already done": a write refused because the state it asks for already holds (an item
 * already in the list, a note whose title is taken by the same note) is not a failure of the goal. When the tool has
 * a postcondition (`verify`), the router reads it before it routes the refusal; `holds` makes the call a success
 * (`reconciled: 'already_satisfied'`), never re-executed (docs/DESIGN.md, "Already done is done").
 *
 * Which answers ask for the read, one table each:
 * - `ALREADY_STATUSES`: 409 Conflict and 412 Precondition Failed always (RFC 9110 §15.5.10, §15.5.13: the state
 *   of the resource conflicts with, or fails a condition of, the request — which it does when it already holds);
 *   422 only when its message says so (RFC 9110 §15.5.21: "unable to process the contained instructions", which
 *   covers both "already" and plain validation).
 * - `ALREADY_PHRASES`: the phrasings of "already true" that services use, matched case-insensitively on word
 *   boundaries; a tool extends them (`defineTool({ alreadyPhrases })`).
 * - `VERSION_CONFLICT_PHRASES`: optimistic-concurrency refusals (RFC 9110 §13.1.1 `If-Match`, an ETag that no longer
 *   matches): the read gives the model the current state to replan on.
 * Pure: no I/O.
 */

/** What an answer may mean for the postcondition. */
export type PostconditionHint = 'already' | 'version_conflict';

/** The verdict of a tool's `verify(args, ctx)`: does the state the call asks for hold now? */
export type PostconditionVerdict = 'holds' | 'does_not_hold' | 'unknown';

/** Statuses that may mean "already", and whether the message must say so. One table. */
export const ALREADY_STATUSES: Readonly<Record<number, { needsPhrase: boolean; source: string }>> = Object.freeze({
  409: { needsPhrase: false, source: 'RFC 9110 §15.5.10 409 Conflict' },
  412: { needsPhrase: false, source: 'RFC 9110 §15.5.13 412 Precondition Failed' },
  422: { needsPhrase: true, source: 'RFC 9110 §15.5.21 422 Unprocessable Content' },
});

/**
 * Phrasings of "the state already holds" (lower case). Sources: the services' own documented messages — GitHub
 * ("already exists", "already a member"), Stripe ("already been", resource_already_exists), Google APIs
 * (ALREADY_EXISTS, "duplicate"), Slack (already_in_channel, already_archived), Jira ("already"), and the design
 * (docs/DESIGN.md, "Already done is done").
 */
export const ALREADY_PHRASES: readonly string[] = Object.freeze([
  'already exists',
  'already exist',
  'already in the list',
  'already in list',
  'already a member',
  'already member',
  'already archived',
  'already added',
  'already been',
  'already present',
  'already registered',
  'already subscribed',
  'already in channel',
  'already_exists',
  'already_in_channel',
  'already_archived',
  'resource_already_exists',
  'duplicate',
]);

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

/** True when `message` says the state already holds (the built-in phrases, plus `extra`). */
export function saysAlready(message: string | undefined, extra: readonly string[] = []): boolean {
  if (message === undefined || message === '') return false;
  return mentions(message, [...ALREADY_PHRASES, ...extra.map((p) => p.toLowerCase())]);
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
  if (status === undefined) return undefined;
  const rule = ALREADY_STATUSES[status];
  if (!rule) return undefined;
  if (message !== undefined && mentions(message, VERSION_CONFLICT_PHRASES) && status !== 422) return 'version_conflict';
  if (status === 412) return 'version_conflict';
  if (rule.needsPhrase && !saysAlready(message, extra)) return undefined;
  return 'already';
}
