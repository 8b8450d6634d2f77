/**
 * Unit tests of the first step of redaction (recovery/redact-normalize.ts): what hides a secret from the
 * patterns is made plain. Pure: no workers, no servers.
 */
import fc from 'fast-check';
import { MAX_REVEAL_ROUNDS, revealHidden } from '../../recovery/redact-normalize';

describe('revealHidden: hidden forms become plain text', () => {
  const cases: [string, string, string][] = [
    [
      'zero-width space, joiners, word joiner, BOM, soft hyphen',
      'B\u200be\u200ca\u200dr\u2060e\ufeffr\u00ad',
      'Bearer',
    ],
    ['bidi overrides and isolates', 'a\u202eb\u2066c\u2069', 'abc'],
    ['variation selectors and tag characters', 'x\ufe0fy\u{e0041}z', 'xyz'],
    ['C0 and C1 controls (tab, LF, CR kept)', 'a\u0000b\u001b[2Jc\u0085d\t\n\re', 'ab[2Jcd\t\n\re'],
    ['full-width letters and punctuation', 'Ａｕｔｈ：（ｘ）', 'Auth:(x)'],
    ['mathematical bold letters', '\u{1d401}\u{1d41e}\u{1d41a}\u{1d42b}\u{1d41e}\u{1d42b}', 'Bearer'],
    ['circled letters', 'Ⓑⓔⓐⓡⓔⓡ', 'Bearer'],
    ['a ligature and a no-break space', 'ﬁle\u00a0name', 'file name'],
    ['Cyrillic lookalikes in a Latin word', 'p\u0430ss\u0441ode', 'passcode'],
    ['Greek lookalikes in a Latin word', '\u0391\u03a1I_key', 'API_key'],
    ['a Russian word is left alone', 'сумма оплаты', 'сумма оплаты'],
    ['a Greek word is left alone', 'Αθήνα', 'Αθήνα'],
    ['percent-escapes outside a URL', 'Authorization%3A%20Bearer%20abc', 'Authorization: Bearer abc'],
    ['multi-byte UTF-8 escapes', 'caf%C3%A9', 'café'],
    ['an escape that is not UTF-8 stays', 'a%FFb%C3', 'a%FFb%C3'],
    ['escapes of an invisible character are decoded, then removed', 'Bear%E2%80%8Ber', 'Bearer'],
    ['four levels of %25 nesting', '%25252541', 'A'],
    ['a URL keeps its escapes', 'see https://h.example/a%20b?x=%41 now', 'see https://h.example/a%20b?x=%41 now'],
    ['"…" stays (the truncation mark)', 'cut…', 'cut…'],
    ['a character whose NFKC is 18 characters long stays', '\ufdfa', '\ufdfa'],
    ['a character whose NFKC is 3 characters long is normalised', '⑴', '(1)'],
    ['plain ASCII is returned as is', 'slot 10:00 is taken', 'slot 10:00 is taken'],
  ];
  it.each(cases)('revealHidden: %s', (_label, input, expected) => {
    expect(revealHidden(input)).toBe(expected);
  });

  it(`revealHidden: text still percent-encoded after ${MAX_REVEAL_ROUNDS} rounds becomes [redacted]`, () => {
    expect(revealHidden('x %2525252525252541 y')).toBe('x [redacted] y');
  });
});

describe('revealHidden: properties', () => {
  it('revealHidden: idempotent and never longer than 3 × its input, on any string', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), fc.string({ unit: 'grapheme', maxLength: 100 })),
        (text) => {
          const once = revealHidden(text);
          expect(revealHidden(once)).toBe(once);
          expect(once.length).toBeLessThanOrEqual(3 * text.length);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
