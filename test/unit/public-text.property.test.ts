/**
 * `publicText` (recovery/classify/text.ts) folds whitespace only when the text has any to fold; the answer must be
 * what folding every run would give: the round `truncate(redact(t).replace(/\s+/g, ' ').trim(), max)`, repeated
 * until it changes nothing (at most 4 rounds, as publicText does: a cut can make a host name, `a.FR0!` cut to
 * `a.FR…`, which the next round redacts), for any text.
 */
import fc from 'fast-check';
import { publicText, truncate } from '../../recovery/classify/text';
import { redact } from '../../recovery/redact';

const round = (t: string, max: number) => truncate(redact(t).replace(/\s+/g, ' ').trim(), max);
function reference(t: string, max: number): string {
  let out = t;
  for (let i = 0; i < 4; i++) {
    const next = round(out, max);
    if (next === out) break;
    out = next;
  }
  return out;
}
const WHITESPACE = [' ', '  ', '\t', '\n', '\r\n', '\u00a0', '\u2003', '\u3000', '\ufeff', '\u2028'];

describe('publicText: whitespace folding', () => {
  it('equals folding every run, on text mixing words and every kind of whitespace', () => {
    const piece = fc.oneof(fc.constantFrom(...WHITESPACE), fc.string({ maxLength: 12 }), fc.constantFrom('a', 'b c'));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), fc.integer({ min: 1, max: 200 }), (parts, max) => {
        const t = parts.join('');
        expect(publicText(t, max)).toBe(reference(t, max));
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    ['single spaces stay', 'a b c', 'a b c'],
    ['a double space folds', 'a  b', 'a b'],
    ['a tab and a newline fold', 'a\tb\nc', 'a b c'],
    ['a no-break space folds', 'a\u00a0b', 'a b'],
    ['edges are trimmed', '  a b  ', 'a b'],
  ])('%s', (_name, text, expected) => {
    expect(publicText(text, 500)).toBe(expected);
  });

  // fast-check's counterexample (seed -1211354986): the cut leaves `a.FR…`, a host name, which the second round
  // redacts; one round would have returned it.
  it('a host name the cut makes is redacted', () => {
    expect(publicText('b c a a.FR0!', 11)).toBe('b c a [hos…');
    expect(round('b c a a.FR0!', 11)).toBe('b c a a.FR…');
  });
});
