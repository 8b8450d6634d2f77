/**
 * SHA-256 of a string's UTF-8 bytes, in lowercase hex: FIPS 180-4 §6.2 (the message schedule, the 64 rounds and the
 * constants of §4.2.2 and §5.3.3), with the padding of §5.1.1. Here rather than a library because workflow code needs
 * only this one function, and the workflow bundle carries every byte of what it imports (`@noble/hashes/sha2` brings
 * SHA-224/384/512 and its utilities: +40 KB; docs/benchmarks.md). test/unit/sha256.test.ts holds it to Node's
 * `crypto.createHash('sha256')` and the FIPS 180-4 examples. Pure and sandbox-safe: `TextEncoder` only.
 */

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);
const H0 = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));

/** The message padded to a multiple of 64 bytes (§5.1.1): a 1 bit, zeros, the bit length as 64 bits big-endian. */
function padded(bytes: Uint8Array): DataView {
  const blocks = Math.ceil((bytes.length + 9) / 64);
  const out = new Uint8Array(blocks * 64);
  out.set(bytes);
  out[bytes.length] = 0x80;
  const view = new DataView(out.buffer);
  const bits = bytes.length * 8;
  view.setUint32(out.length - 8, Math.floor(bits / 0x1_0000_0000));
  view.setUint32(out.length - 4, bits >>> 0);
  return view;
}

/** One 64-byte block into the state `h` (§6.2.2), with the schedule `w` reused across blocks. */
function compress(h: number[], view: DataView, offset: number, w: Uint32Array): void {
  for (let t = 0; t < 16; t++) w[t] = view.getUint32(offset + t * 4);
  for (let t = 16; t < 64; t++) {
    const a = w[t - 15]!;
    const b = w[t - 2]!;
    const s0 = rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3);
    const s1 = rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10);
    w[t] = (w[t - 16]! + s0 + w[t - 7]! + s1) | 0;
  }
  let [a, b, c, d, e, f, g, k] = h as [number, number, number, number, number, number, number, number];
  for (let t = 0; t < 64; t++) {
    const t1 = (k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t]! + w[t]!) | 0;
    const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    [k, g, f, e, d, c, b, a] = [g, f, e, (d + t1) | 0, c, b, a, (t1 + t2) | 0];
  }
  [a, b, c, d, e, f, g, k].forEach((v, i) => (h[i] = (h[i]! + v) | 0));
}

/** SHA-256 of `text` encoded as UTF-8 (a lone surrogate becomes U+FFFD, as `TextEncoder` writes it), 64 hex digits. */
export function sha256Hex(text: string): string {
  const view = padded(new TextEncoder().encode(text));
  const h = [...H0];
  const w = new Uint32Array(64);
  for (let offset = 0; offset < view.byteLength; offset += 64) compress(h, view, offset, w);
  return h.map((v) => (v >>> 0).toString(16).padStart(8, '0')).join('');
}
