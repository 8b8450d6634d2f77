/**
 * recovery/sha256.ts against Node's `crypto.createHash('sha256')` (OpenSSL) on arbitrary strings, and the examples of
 * FIPS 180-4 (NIST's "SHA256.pdf": "abc" and the two-block message), with the padding edges (55, 56 and 64 bytes).
 * Pure unit tests: no workers, no servers.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { sha256Hex } from '../../recovery/sha256';

const node = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('sha256Hex', () => {
  it('FIPS 180-4 examples: "abc" and the 448-bit two-block message', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('the padding edges: 55, 56, 63, 64 and 65 bytes, and a million "a" (FIPS 180-4 long message)', () => {
    for (const n of [55, 56, 63, 64, 65, 119, 120])
      expect([n, sha256Hex('x'.repeat(n))]).toEqual([n, node('x'.repeat(n))]);
    expect(sha256Hex('a'.repeat(1_000_000))).toBe('cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0');
  });

  it('equals OpenSSL on arbitrary strings, lone surrogates included (both write them as U+FFFD)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => sha256Hex(text) === node(text)),
      { numRuns: 500 },
    );
    expect(sha256Hex('\ud800x')).toBe(node('\ud800x'));
  });
});
