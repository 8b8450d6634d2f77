/**
 * Token shape by meaning: whether a run of token characters reads as random (a key, a token, a digest, a
 * base64 blob) rather than as words, numbers or an identifier someone wrote. The 'token-shaped string' rule of
 * recovery/redact-rules-locations.ts asks `isTokenShaped` for each run of at least `MIN_TOKEN_RUN` token characters.
 *
 * The rule, for a run's letters and digits (its separators `_ - . + / = ~` ignored):
 * 1. at least `MIN_TOKEN_CHARS` (16) letters and digits; under `MIN_PLAIN_TOKEN_CHARS` (20) only when lower-case
 *    letters, upper-case letters and digits all occur, or the entropy (rule 4) is at least 3.5 bits;
 * 2. it mixes classes: letters and digits, or upper- and lower-case letters;
 * 3. its words are short and unpronounceable: split into words at every change of class (`InvalidBase64Encoding` →
 *    `Invalid`, `Base`, `64`, `Encoding`; a capital starts a word), the mean word length is below 2.5; or below 3
 *    with under 30 % vowels among its letters; or below 4.5 with under 22 % vowels; or, for a run of hex digits
 *    only, below 4. Random base62 changes class about every 1.6 characters and has 19 % vowels, random hex changes
 *    every 2; identifiers and prose change every 4 or more, with 30–45 % vowels (`InvalidBase64EncodingException`:
 *    6 and 43 %; `K8sPodDisruptionBudgetV1Beta1`: 2.9 and 35 %);
 * 4. its Shannon entropy, over its characters, is at least `MIN_ENTROPY_BITS` (3 bits per character): random
 *    base16 text of 20 characters has about 3.6, base62 about 4; `a1a1a1…` has 1.
 * Three kinds of identifier are kept as they are although they are random: a UUID (RFC 9562 §4: an order, a
 * request), optionally after a word and a separator (`order-…`); a ULID (github.com/ulid/spec: 26 characters of
 * Crockford's base32, the first 0–7); and a typed object id, a lower-case type of 2 to 8 letters, `_`, and 8 to 32
 * letters and digits (Stripe's `ch_3Mml…`, `cus_Nffr…`). Secret prefixes of that shape
 * (`sk_`, `rk_`, `whsec_`, `hf_`, `acct_`…) are taken by the vendor rules, which run first.
 *
 * Pure: no imports.
 */

/** Shortest run of token characters the rule looks at. */
export const MIN_TOKEN_RUN = 16;
/** Fewest letters and digits of a token-shaped run (rule 1). */
export const MIN_TOKEN_CHARS = 16;
/** Fewest letters and digits of a token-shaped run without all three classes and under 3.5 bits (rule 1). */
export const MIN_PLAIN_TOKEN_CHARS = 20;
/** Least Shannon entropy of a token-shaped run, in bits per character (rule 4). */
export const MIN_ENTROPY_BITS = 3;

/** `a e i o u` (lower case; a letter's code | 0x20 is its lower-case code). */
const VOWELS = [0x61, 0x65, 0x69, 0x6f, 0x75];
const UUID = /^(?:[A-Za-z]{1,16}[_-])?[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const ULID = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;
const TYPED_ID = /^[a-z]{2,8}_[A-Za-z0-9]{8,32}$/;

/** True when `run` (letters, digits and `_ - . + / = ~`) reads as random (see the module comment). */
export function isTokenShaped(run: string): boolean {
  if (run.length < MIN_TOKEN_RUN || UUID.test(run) || ULID.test(run) || TYPED_ID.test(run)) return false;
  let lower = 0;
  let upper = 0;
  let digit = 0;
  let words = 0;
  let vowels = 0;
  let hex = 0;
  let prevClass = 0; // 0 separator, 1 lower, 2 upper, 3 digit
  const counts = new Map<number, number>();
  for (let i = 0; i < run.length; i++) {
    const c = run.charCodeAt(i);
    const cls = c >= 0x61 && c <= 0x7a ? 1 : c >= 0x41 && c <= 0x5a ? 2 : c >= 0x30 && c <= 0x39 ? 3 : 0;
    if (cls === 0) {
      prevClass = 0;
      continue;
    }
    if (cls === 1) lower++;
    else if (cls === 2) upper++;
    else digit++;
    // A new word starts at a change of class, except a lower-case letter after one capital (`Base`).
    const capitalized = cls === 1 && prevClass === 2 && !(i >= 2 && classOf(run.charCodeAt(i - 2)) === 2);
    if (cls !== prevClass && !capitalized) words++;
    prevClass = cls;
    if (VOWELS.includes(c | 0x20)) vowels++;
    if (cls === 3 || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66)) hex++;
    counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  const alnum = lower + upper + digit;
  const mixed = lower > 0 && upper > 0 && digit > 0;
  if (alnum < MIN_TOKEN_CHARS) return false;
  if (!((lower + upper > 0 && digit > 0) || (lower > 0 && upper > 0))) return false;
  if (!shortWords(alnum / words, vowels / Math.max(1, lower + upper), hex === alnum)) return false;
  const bits = entropyBits(counts, alnum);
  return bits >= MIN_ENTROPY_BITS && (alnum >= MIN_PLAIN_TOKEN_CHARS || mixed || bits >= 3.5);
}

/** Rule 3: mean word length against the share of vowels among the letters. */
function shortWords(meanWord: number, vowelShare: number, allHex: boolean): boolean {
  if (allHex) return meanWord < 4;
  return meanWord < 2.5 || (meanWord < 3 && vowelShare < 0.3) || (meanWord < 4.5 && vowelShare < 0.22);
}

function classOf(c: number): number {
  return c >= 0x61 && c <= 0x7a ? 1 : c >= 0x41 && c <= 0x5a ? 2 : c >= 0x30 && c <= 0x39 ? 3 : 0;
}

/** Shannon entropy of a character histogram, in bits per character. */
function entropyBits(counts: ReadonlyMap<number, number>, total: number): number {
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / total;
    bits -= p * Math.log2(p);
  }
  return bits;
}
