/**
 * Redaction of text the model may see (`publicMessage`, field feedback).
 *
 * Source: docs/DESIGN.md, "What the model sees" and "The failure record": raw exceptions leak internal paths,
 * credential state and implementation details, so the model gets only `publicMessage`; the full record stays behind
 * `diagnosticRef`.
 *
 * Two steps. First `revealHidden` (recovery/redact-normalize.ts) undoes what hides a secret from a pattern
 * (a text with `%` first meets the key=value rule as written, `ENCODED_PAIRS`):
 * zero-width and control characters, full-width and other compatibility forms (NFKC), mixed-script homoglyphs,
 * percent-encoding. Then one ordered table of rules (`REDACTION_RULES`); each rule replaces what it matches with
 * a short placeholder. Order matters: whole lines (stack frames), private key blocks and credential headers
 * first, then URLs (so their hosts and query secrets go at once), then e-mail addresses, vendor-prefixed and
 * masked tokens, account ids (recovery/redact-rules-tokens.ts), key=value pairs whose key names a secret by meaning
 * and prose that introduces one (recovery/redact-rules-pairs.ts), addresses, host names, user:password@ before a
 * host, file paths, and last any token-shaped string (recovery/redact-entropy.ts). The rule is stated in
 * docs/DESIGN.md, "What the model sees". Every pattern is linear (no nested unbounded quantifiers) and input is
 * capped at `MAX_REDACT_INPUT_CHARS`, so redaction cannot be made slow by its input.
 *
 * Pure: no I/O, no clock.
 */
import { revealHidden } from './redact-normalize';
import { RecoveryError } from './recovery-error';
import type { RedactionRule } from './redact-rule';
import { LOCATION_RULES } from './redact-rules-locations';
import { SECRET_RULES } from './redact-rules-secrets';

export { isSecretKey } from './redact-keys';
export { Placeholder, type RedactionRule } from './redact-rule';

/**
 * Longest input `redact` reads, in characters; the rest is dropped (cut at a whitespace) and marked with `…`.
 * Also the longest output: a longer result is cut the same way.
 */
export const MAX_REDACT_INPUT_CHARS = 65_536;

/**
 * Most passes of the whole table. A placeholder can make a new match next to it (`localhost::12` → `[host]::12`
 * → `[host][ip]`), so `redact` repeats the table until a pass changes nothing: one pass for clean text, two or
 * three when something was replaced.
 */
export const MAX_REDACT_PASSES = 4;

/**
 * Growth bound: `redact(t).length ≤ REDACT_GROWTH_FACTOR × t.length + REDACT_GROWTH_SLACK`.
 * Why 3: `revealHidden` maps a character to at most 3 (NFKC: `ﬃ` → `ffi`, `⑴` → `(1)`; longer expansions such as
 * `ﷺ` → 18 characters are not applied), and the rules grow text less than that: the largest growth is a
 * 5-character secret pair becoming 14 (`sig=x` → `sig=[redacted]`, ×2.8; repeated as `sig=x&…`, ×2.5), every
 * other placeholder replaces at least 3 characters with at most 10. The slack covers one such pair in a short
 * input. Checked by the property tests (test/unit/redact.property.test.ts), not proven.
 */
export const REDACT_GROWTH_FACTOR = 3;
/** See `REDACT_GROWTH_FACTOR`. */
export const REDACT_GROWTH_SLACK = 16;

/** `redact` was given something that is not a string. */
export class RedactionInputError extends RecoveryError<'redact_input_not_string'> {
  override readonly name = 'RedactionInputError';
  static override readonly codes: readonly string[] = ['redact_input_not_string'];
  constructor(received: string) {
    super('redact_input_not_string', `redact(text): text must be a string, got ${received}`);
  }
}

/**
 * The redaction table, applied in order: recovery/redact-rules-secrets.ts, then recovery/redact-rules-locations.ts.
 * Exported so a reader sees every rule and tests can name them.
 */
export const REDACTION_RULES: readonly RedactionRule[] = Object.freeze([...SECRET_RULES, ...LOCATION_RULES]);

/**
 * Removes from `text` everything the model must not see: stack traces, file paths (POSIX, Windows, UNC,
 * `file://`), URLs (with `user:pass@`), host names, `localhost:port`, IPv4/IPv6 addresses, `user:pass@` before a
 * host, e-mail addresses (whole), bearer/basic tokens, JWTs, vendor-prefixed keys (recovery/redact-vendor-tokens.ts:
 * sk-…, SG.….…, ghp_…, xox…, AKIA…, hf_…, …), masked key fragments (`sk-abc12…`, `****1234`), account and
 * organisation ids (`org-…`, `acct_…`, AWS ARNs and account numbers, tenant ids), private key blocks, credential
 * header lines, the values of keys that name a secret or an account by meaning (`keyMeaning`: `password=`,
 * `"existing.api.key":`, `creds.pw=`, `AccountId:`), prose that introduces a secret (`with password hunter2`,
 * "the passphrase is: …", "das Passwort lautet …"), and any token-shaped string (`isTokenShaped`). Each is
 * replaced by a short placeholder (`Placeholder`). Before matching, hidden forms are made plain
 * (`revealHidden`: zero-width and control characters removed, NFKC, mixed-script homoglyphs, percent-encoding
 * outside URLs); the result is that plain text. Ordinary prose survives unchanged, e.g.
 * "amountCents must be a positive integer", "slot 10:00 is taken", "customer cus_42", "e.g. file.txt v1.2.3".
 *
 * Idempotent: `redact(redact(t)) === redact(t)` (the table is applied until it changes nothing, at most
 * `MAX_REDACT_PASSES` times). At most `MAX_REDACT_INPUT_CHARS` characters are read and
 * returned: longer text is cut at a whitespace (so no secret is left half-cut) and ends with `…`.
 * Never longer than `REDACT_GROWTH_FACTOR` × `text.length` + `REDACT_GROWTH_SLACK`.
 *
 * @param text any string.
 * @returns the redacted string (newlines kept).
 * @throws RedactionInputError (`code` 'redact_input_not_string') when `text` is not a string.
 */
export function redact(text: string): string {
  if (typeof text !== 'string') throw new RedactionInputError(text === null ? 'null' : typeof text);
  let cut = text.length > MAX_REDACT_INPUT_CHARS;
  let out = cut ? cutAtWhitespace(text, MAX_REDACT_INPUT_CHARS) : text;
  for (let pass = 0; pass < MAX_REDACT_PASSES; pass++) {
    const next = applyRules(revealHidden(out.includes('%') ? applyRules(out, ENCODED_PAIRS) : out));
    if (next === out) break;
    out = next;
  }
  if (out.length > MAX_REDACT_INPUT_CHARS - (cut ? 1 : 0)) {
    out = cutAtWhitespace(out, MAX_REDACT_INPUT_CHARS - 1);
    cut = true;
  }
  return cut ? `${out}…` : out;
}

/** The key=value rule, first run on a text as written: decoded, a form value's `%20` or `%26` would end the value. */
const ENCODED_PAIRS = REDACTION_RULES.filter((rule) => rule.name === 'secret key-value');

/**
 * One pass: every rule of `rules`, in order; a rule whose `mayMatch` is false for the text as the rules before it
 * left it is skipped (its pattern cannot match, so it would change nothing).
 */
function applyRules(text: string, rules: readonly RedactionRule[] = REDACTION_RULES): string {
  let out = text;
  for (const rule of rules) {
    if (rule.mayMatch !== undefined && !rule.mayMatch(out)) continue;
    rule.pattern.lastIndex = 0;
    out =
      typeof rule.replace === 'string'
        ? out.replace(rule.pattern, rule.replace)
        : out.replace(rule.pattern, rule.replace);
  }
  return out;
}

/** The first `max` characters of `text`, shortened to end before its last whitespace (or '' when there is none). */
export function cutAtWhitespace(text: string, max: number): string {
  const head = text.slice(0, max);
  const lastSpace = head.search(/\s\S*$/);
  return lastSpace > 0 ? head.slice(0, lastSpace) : '';
}
