/**
 * Text for the model: truncation and the final form of `publicMessage`.
 * Pure: no I/O.
 */
import { MAX_PUBLIC_MESSAGE_CHARS, MAX_SERVER_SAID_CHARS } from '../failure';
import { redact } from '../redact';
import { stripControls } from '../untrusted';

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

/**
 * A server's words as a quoted datum (`serverSaid`), the one place they become model text (docs/DESIGN.md, "Whose
 * words reach the model"): `stripControls`, `publicText` to `MAX_SERVER_SAID_CHARS`; `undefined` when nothing is left.
 */
export function quoted(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  return publicText(stripControls(raw), MAX_SERVER_SAID_CHARS) || undefined;
}

/** A path segment the router may name in its own words: an ASCII identifier of at most 64 characters, or an index. */
const PLAIN_SEGMENT = /^[A-Za-z_$][\w$-]{0,63}$/;

/** A path a server named, cut before its first segment that is not plain (a field name can hold any text). */
export function plainPath(path: readonly (string | number)[]): (string | number)[] {
  const end = path.findIndex((s) => (typeof s === 'number' ? !Number.isSafeInteger(s) : !PLAIN_SEGMENT.test(s)));
  return path.slice(0, end < 0 ? path.length : end);
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
  let out = text;
  for (let round = 0; round < MAX_PUBLIC_TEXT_ROUNDS; round++) {
    const next = truncate(foldWhitespace(redact(out)).trim(), maxChars);
    if (next === out) return out;
    out = next;
  }
  return out;
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

/** The `expected` of a field a server refused: the router's words; what the server said is the issue's `serverSaid`. */
export const SERVER_REFUSED = 'a value the server accepts';

/** An `expected` that is already a sentence about the field ("must be at most 1500"), not a type or a pattern. */
const SENTENCE = /^(must|should|is|are|cannot|can't|may|needs?|has|have|was|does)\b/i;

/**
 * One line per field issue, joined with `; `: `customerId: expected string matching ^cus_, received "42"`. Only
 * what is known: `amountCents: must be at most 1500` when the server did not report the value it received; a field a
 * server refused is `memo: the server refused this value` (its words are the issue's `serverSaid`).
 * Used inside `publicMessage`, which is cut to 500 characters; the full list travels in `issues`.
 */
export function summarizeIssues(
  issues: readonly { path: readonly (string | number)[]; expected: string; received: string }[],
): string {
  return issues.map(issueLine).join('; ');
}

function issueLine(i: { path: readonly (string | number)[]; expected: string; received: string }): string {
  const label = pathLabel(i.path);
  if (i.expected === SERVER_REFUSED) return `${label}: the server refused this value`;
  if (i.expected === 'no such key' || i.expected.startsWith('a known key')) return `${label} is not a known key`;
  if (i.received === 'missing') return `${label} is missing (expected ${i.expected})`;
  const known = i.received !== RECEIVED_NOT_REPORTED && i.received !== '';
  const expected = SENTENCE.test(i.expected) ? `: ${i.expected}` : ` expected ${i.expected}`;
  return known ? `${label} expected ${i.expected}, received ${i.received}` : `${label}${expected}`;
}
