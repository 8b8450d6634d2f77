/**
 * `publicText` (recovery/classify/text.ts) folds whitespace only when the text has any to fold; the answer must be
 * what folding every run would give: `truncate(redact(t).replace(/\s+/g, ' ').trim(), max)`, for any text.
 */
import fc from 'fast-check';
import { publicText, truncate } from '../../recovery/classify/text';
import { redact } from '../../recovery/redact';

const reference = (t: string, max: number) => truncate(redact(t).replace(/\s+/g, ' ').trim(), max);
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
});
