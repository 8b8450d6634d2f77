/**
 * Text for the model: truncation and the final form of `publicMessage`.
 * Pure: no I/O.
 */
import { MAX_PUBLIC_MESSAGE_CHARS } from '../failure';
import { redact } from '../redact';

/** Longest excerpt of a server's own words (`code: message`) quoted in a `publicMessage`, in characters. */
export const MAX_SERVER_DETAIL_CHARS = 200;
/** Longest `expected` / `suggestion` text in a field issue, in characters. */
export const MAX_ISSUE_TEXT_CHARS = 200;

/**
 * `text` cut to at most `maxChars` characters, ending with `…` when cut. Never splits a UTF-16 surrogate pair.
 * @throws RangeError when `maxChars` < 1.
 */
export function truncate(text: string, maxChars: number): string {
  if (maxChars < 1) throw new RangeError(`truncate: maxChars must be >= 1, got ${maxChars}`);
  if (text.length <= maxChars) return text;
  let end = maxChars - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

/** Control characters (ANSI escapes, C1) and bidi overrides never reach a model or an operator's terminal. */
export function stripControls(text: string): string {
  return text.replace(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g, '');
}

/** Most rounds of `publicText`; clean text takes one, text with something removed two. */
const MAX_PUBLIC_TEXT_ROUNDS = 4;

/**
 * Redacts, folds whitespace (newlines included) to single spaces, trims and truncates, until a round changes
 * nothing: the answer is its own `publicText`. One round is not enough, because folding and cutting make text a
 * rule then matches: `password\n: x` folds to `password : x` (a secret key-value only across spaces and tabs), a
 * cut `foo.community` ends `foo.com…` (a host name). Clean text costs one round.
 */
export function publicText(text: string, maxChars: number): string {
  return settlePublicText(text, maxChars).text;
}

/**
 * `publicText`, and whether its rounds reached a text that a further round leaves as it is (`stable`); false only
 * when all `MAX_PUBLIC_TEXT_ROUNDS` rounds still changed it.
 */
export function settlePublicText(text: string, maxChars: number): { text: string; stable: boolean } {
  let out = text;
  for (let round = 0; round < MAX_PUBLIC_TEXT_ROUNDS; round++) {
    const next = truncate(foldWhitespace(redact(out)).trim(), maxChars);
    if (next === out) return { text: out, stable: true };
    out = next;
  }
  return { text: out, stable: false };
}

/** Whitespace other than a single space: a text without it is already folded. */
const UNFOLDED = /[^\S ]| {2}/;

/**
 * Every run of whitespace as one space. A text with only single spaces is returned as it is: replacing each of its
 * spaces by a space (what the bare `replace` does) costs more than the rest of a short message's finishing.
 */
function foldWhitespace(text: string): string {
  return UNFOLDED.test(text) ? text.replace(/\s+/g, ' ') : text;
}

/**
 * The final `publicMessage`: redacted, one line, at most `MAX_PUBLIC_MESSAGE_CHARS`; `fallback` when nothing
 * is left (the schema requires at least one character).
 */
export function finishPublicMessage(text: string, fallback = 'The tool call failed.'): string {
  const out = publicText(text, MAX_PUBLIC_MESSAGE_CHARS);
  return out === '' ? fallback : out;
}

/**
 * A path segment as it may travel in a field issue: an array index stays a number only when it is one (a
 * non-negative safe integer); any other number (`Infinity`, `NaN`, `-1`, `1.5`, from a forged or foreign issue)
 * becomes the key it names, `String(n)` — JSON has no `Infinity` (it would arrive as `null`), and
 * `fieldIssueSchema` accepts only finite numbers. `-0` is index `0`.
 */
export function pathSegment(seg: string | number): string | number {
  if (typeof seg === 'string') return seg;
  return Number.isSafeInteger(seg) && seg >= 0 ? seg + 0 : String(seg); // `+ 0`: -0 is index 0
}

/** A JSON path as the model reads it: `items[0].amount`; `(arguments)` for the root. */
export function pathLabel(path: readonly (string | number)[]): string {
  if (path.length === 0) return '(arguments)';
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(seg)) out += out === '' ? seg : `.${seg}`;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}

/** A field issue's `received` when the server did not say what it received: the message then says nothing of it. */
export const RECEIVED_NOT_REPORTED = 'not reported';

/** An `expected` that is already a sentence about the field ("must be at most 1500"), not a type or a pattern. */
const SENTENCE = /^(must|should|is|are|cannot|can't|may|needs?|has|have|was|does)\b/i;

/**
 * One line per field issue, joined with `; `: `customerId: expected string matching ^cus_, received "42"`. Only
 * what is known: `amountCents: must be at most 1500` when the server did not report the value it received.
 * Used inside `publicMessage`, which is cut to 500 characters; the full list travels in `issues`.
 */
export function summarizeIssues(
  issues: readonly { path: readonly (string | number)[]; expected: string; received: string }[],
): string {
  return issues.map(issueLine).join('; ');
}

function issueLine(i: { path: readonly (string | number)[]; expected: string; received: string }): string {
  const label = pathLabel(i.path);
  if (i.expected === 'no such key' || i.expected.startsWith('a known key')) return `${label} is not a known key`;
  if (i.received === 'missing') return `${label} is missing (expected ${i.expected})`;
  const known = i.received !== RECEIVED_NOT_REPORTED && i.received !== '';
  const expected = SENTENCE.test(i.expected) ? `: ${i.expected}` : ` expected ${i.expected}`;
  return known ? `${label} expected ${i.expected}, received ${i.received}` : `${label}${expected}`;
}
