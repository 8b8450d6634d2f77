/**
 * The first step of redaction: undo the tricks that hide a token or a header from the patterns of
 * `recovery/redact.ts`, so the patterns see what a reader (or a model) sees.
 *
 * `revealHidden(text)` repeats one round until nothing changes (at most `MAX_REVEAL_ROUNDS` rounds):
 * 1. invisible characters go: every `Default_Ignorable_Code_Point` (zero-width space/joiners U+200B–U+200D,
 *    word joiner U+2060, BOM U+FEFF, soft hyphen U+00AD, bidi controls U+202A–U+202E / U+2066–U+2069, variation
 *    selectors, Hangul fillers, tag characters) and C0/C1 control characters except tab, line feed and
 *    carriage return;
 * 2. Unicode Normalization Form KC (UAX #15), so compatibility variants read as their plain forms: full-width
 *    `Ｂｅａｒｅｒ` → `Bearer`, mathematical `𝐁` → `B`, circled `Ⓑ` → `B`, ligatures `ﬁ` → `fi`, NBSP → space.
 *    Two exceptions keep the output short and `redact` idempotent: a character whose NFKC form is more than
 *    3 times as long (`ﷺ` → 18 characters, `㌀` → 4) stays as it is, and so does `…` (U+2026, the truncation
 *    mark, which NFKC would turn into `...`);
 * 3. homoglyphs: inside a word that mixes ASCII letters with Cyrillic, Greek or Armenian lookalikes
 *    (`Веаrer` with Cyrillic `В`, `е`, `а`), the lookalikes become the ASCII letters they imitate. A word
 *    written wholly in one script is left alone, so Russian or Greek prose reads as before (UTS #39 §5
 *    "mixed-script confusables" is the source of the rule; the table is a subset of its confusables.txt);
 * 4. percent-encoding: outside URLs, every run of `%XX` escapes that is valid UTF-8 is decoded
 *    (`Authorization%3A%20Bearer%20…` → `Authorization: Bearer …`); an escape that is not valid UTF-8 stays.
 *    URLs are left encoded: the `url` rule replaces them whole anyway.
 * A word (a run without whitespace) still percent-encoded after `MAX_REVEAL_ROUNDS` rounds (5 levels of `%25`
 * nesting) is replaced by `[redacted]`: nothing legitimate is encoded that deep.
 *
 * The result is what `redact` returns around its placeholders: plain text that reads as the input did.
 * Every step only removes characters, shortens them (decoding) or maps one character to at most 3.
 * Pure: no I/O.
 */

/** Most rounds of `revealHidden` (each decodes one level of percent-encoding). */
export const MAX_REVEAL_ROUNDS = 5;

/** Invisible characters and controls (tab, LF and CR stay). */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/gu;

const NON_ASCII = /[^\x00-\x7F]/u;
const NON_ASCII_G = /[^\x00-\x7F]/gu;

/** URLs (scheme://…): left percent-encoded. Shared with the `url` rule of `recovery/redact.ts`. */
export const URL_SOURCE = '\\b[a-z][a-z0-9+.-]{1,15}:\\/\\/[^\\s"\'<>`]+';

/** A `%XX` run outside a URL, or a URL (group 1, kept as is). */
const URL_OR_ESCAPES = new RegExp(`(${URL_SOURCE})|(?:%[0-9A-Fa-f]{2})+`, 'gi');

/**
 * Lookalikes of ASCII letters (a subset of Unicode's confusables.txt): Cyrillic, Greek and Armenian letters
 * that render like a Latin letter in common fonts.
 */
const CONFUSABLES: Readonly<Record<string, string>> = Object.freeze({
  // Cyrillic lower case
  а: 'a',
  с: 'c',
  ԁ: 'd',
  е: 'e',
  һ: 'h',
  і: 'i',
  ј: 'j',
  ӏ: 'l',
  о: 'o',
  р: 'p',
  ԛ: 'q',
  ѕ: 's',
  у: 'y',
  ԝ: 'w',
  х: 'x',
  // Cyrillic upper case
  А: 'A',
  В: 'B',
  С: 'C',
  Е: 'E',
  Н: 'H',
  І: 'I',
  Ј: 'J',
  К: 'K',
  М: 'M',
  О: 'O',
  Р: 'P',
  Ԛ: 'Q',
  Ѕ: 'S',
  Т: 'T',
  Ԝ: 'W',
  Х: 'X',
  Ү: 'Y',
  // Greek
  Α: 'A',
  Β: 'B',
  Ε: 'E',
  Ζ: 'Z',
  Η: 'H',
  Ι: 'I',
  Κ: 'K',
  Μ: 'M',
  Ν: 'N',
  Ο: 'O',
  Ρ: 'P',
  Τ: 'T',
  Υ: 'Y',
  Χ: 'X',
  ο: 'o',
  ν: 'v',
  ρ: 'p',
  // Armenian
  օ: 'o',
  ս: 'u',
  հ: 'h',
  ո: 'n',
});
const CONFUSABLE_CHAR = new RegExp(`[${Object.keys(CONFUSABLES).join('')}]`, 'u');
const CONFUSABLE_CHAR_G = new RegExp(CONFUSABLE_CHAR.source, 'gu');
/** Greek, Cyrillic (with supplement) and Armenian blocks: no lookalike outside them in the table. */
const LOOKALIKE_SCRIPT = /[\u0370-\u058F]/u;
const WORD = /[\p{L}\p{M}\p{N}_-]+/gu;
const ASCII_LETTER = /[A-Za-z]/;

/**
 * `text` with hidden characters removed, compatibility forms and mixed-script lookalikes made plain, and
 * percent-encoding outside URLs decoded (see the module comment).
 *
 * Idempotent: `revealHidden(revealHidden(t)) === revealHidden(t)`. Never longer than 3 × `text.length`.
 * @param text any string.
 */
export function revealHidden(text: string): string {
  if (!/[^\t\n\r\x20-\x24\x26-\x7E]/.test(text)) return text; // printable ASCII without `%`: nothing hidden
  let current = text;
  for (let round = 0; round < MAX_REVEAL_ROUNDS; round++) {
    const next = decodeEscapes(plain(current));
    if (next === current) return current;
    current = next;
  }
  return plain(current).replace(/(?<!\S)\S*%\S*/g, (token) => (decodeEscapes(token) === token ? token : '[redacted]'));
}

/** Steps 1–3 of a round: invisible characters out, NFKC, lookalikes folded. */
function plain(text: string): string {
  return foldLookalikes(normalizeCompat(text.replace(INVISIBLE, '')).replace(INVISIBLE, ''));
}

/** NFKC, except for characters whose NFKC form is over 3 times longer, and `…`, which stay as they are. */
function normalizeCompat(text: string): string {
  if (!NON_ASCII.test(text)) return text;
  let out = '';
  let start = 0;
  for (const m of text.matchAll(NON_ASCII_G)) {
    const c = m[0];
    if (!keptVerbatim(c)) continue;
    out += text.slice(start, m.index).normalize('NFKC') + c;
    start = m.index + c.length;
  }
  return out + text.slice(start).normalize('NFKC');
}

const verbatim = new Map<string, boolean>();
function keptVerbatim(c: string): boolean {
  let kept = verbatim.get(c);
  if (kept === undefined) {
    kept = c === '\u2026' || c.normalize('NFKC').length > 3 * c.length;
    if (verbatim.size > 4096) verbatim.clear();
    verbatim.set(c, kept);
  }
  return kept;
}

/** Lookalikes → ASCII, inside words that mix them with ASCII letters. */
function foldLookalikes(text: string): string {
  if (!LOOKALIKE_SCRIPT.test(text)) return text;
  return text.replace(WORD, (w) =>
    ASCII_LETTER.test(w) && CONFUSABLE_CHAR.test(w) ? w.replace(CONFUSABLE_CHAR_G, (c) => CONFUSABLES[c] ?? c) : w,
  );
}

/** Percent-escapes outside URLs, decoded where they are valid UTF-8. */
function decodeEscapes(text: string): string {
  if (!text.includes('%')) return text;
  return text.replace(URL_OR_ESCAPES, (m, url: string | undefined) => (url !== undefined ? m : decodeRun(m)));
}

/** Decodes a run of `%XX` escapes sequence by sequence; an escape that is not part of valid UTF-8 stays. */
function decodeRun(run: string): string {
  const count = run.length / 3;
  let out = '';
  let i = 0;
  while (i < count) {
    const b = parseInt(run.slice(i * 3 + 1, i * 3 + 3), 16);
    const n = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (n > 0 && i + n <= count) {
      try {
        out += decodeURIComponent(run.slice(i * 3, (i + n) * 3));
        i += n;
        continue;
      } catch {
        // not valid UTF-8: keep this escape as written
      }
    }
    out += run.slice(i * 3, i * 3 + 3);
    i += 1;
  }
  return out;
}
