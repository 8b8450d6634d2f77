/**
 * Property tests of redaction (recovery/redact.ts): random text with planted secrets of each kind → none
 * survives, the result is a fixed point and at most REDACT_GROWTH_FACTOR × input + REDACT_GROWTH_SLACK long;
 * ordinary words survive unchanged. Pure: no workers, no servers.
 */
import fc from 'fast-check';
import { redact, REDACT_GROWTH_FACTOR, REDACT_GROWTH_SLACK } from '../../recovery/redact';

const chars = (alphabet: string, min: number, max: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...alphabet.split('')), minLength: min, maxLength: max });
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const B64URL = `${ALNUM}_-`;
const HEX = '0123456789abcdef';
/** A distinctive payload: starts with a digit and an upper-case letter, so no ordinary word contains it. */
const payload = (min: number, max: number): fc.Arbitrary<string> =>
  fc
    .tuple(chars('0123456789', 1, 1), chars('ABCDEFGHIJKLMNOPQRSTUVWXYZ', 1, 1), chars(ALNUM, min, max))
    .map((p) => p.join(''));
const label = chars('abcdefghijklmnopqrstuvwxyz', 2, 10);
const octet = fc.integer({ min: 0, max: 255 });
const B64 = `${ALNUM}+/`;
/** Full-width forms (U+FF01–U+FF5E) of printable ASCII; a space stays a space. */
const fullWidth = (t: string) => t.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0x21 + 0xff01));
const INVISIBLE = ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad'];
/** `word` with an invisible character after its first letter. */
const hidden = (word: string, i: number) => `${word[0]}${INVISIBLE[i % INVISIBLE.length]}${word.slice(1)}`;

/** A planted secret: the text to insert and the part that must not survive. */
interface Planted {
  kind: string;
  text: string;
  secret: string;
}
const plant = (kind: string, arb: fc.Arbitrary<[string, string]>): fc.Arbitrary<Planted> =>
  arb.map(([text, secret]) => ({ kind, text, secret }));

const secrets: fc.Arbitrary<Planted>[] = [
  plant(
    'jwt',
    fc
      .tuple(chars(B64URL, 8, 30), chars(B64URL, 8, 30), chars(B64URL, 8, 30))
      .map(([a, b, c]) => [`eyJ${a}.${b}.${c}`, `${a}.${b}`]),
  ),
  plant(
    'openai key',
    payload(20, 40).map((p) => [`sk-${p}`, p]),
  ),
  plant(
    'github token',
    chars(ALNUM, 36, 36).map((p) => [`ghp_${p}`, p]),
  ),
  plant(
    'slack token',
    fc.tuple(chars('0123456789', 10, 12), payload(10, 20)).map(([a, b]) => [`xoxb-${a}-${b}`, b]),
  ),
  plant(
    'aws key id',
    chars('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16, 16).map((p) => [`AKIA${p}`, `AKIA${p}`]),
  ),
  plant(
    'bearer token',
    payload(20, 40).map((p) => [`Bearer ${p}`, p]),
  ),
  plant(
    'authorization header',
    payload(8, 30).map((p) => [`\nAuthorization: Basic ${p}\n`, p]),
  ),
  plant(
    'cookie header',
    payload(8, 30).map((p) => [`\nCookie: sid=${p}; theme=dark\n`, p]),
  ),
  plant(
    'set-cookie header',
    payload(8, 30).map((p) => [`\nSet-Cookie: sid=${p}; Path=/\n`, p]),
  ),
  plant(
    'password=',
    payload(6, 20).map((p) => [`password=${p}`, p]),
  ),
  plant(
    'token=',
    payload(6, 20).map((p) => [`token=${p}`, p]),
  ),
  plant(
    'secret=',
    payload(6, 20).map((p) => [`secret=${p}`, p]),
  ),
  plant(
    'api_key=',
    payload(6, 20).map((p) => [`api_key=${p}`, p]),
  ),
  plant(
    'json password',
    payload(6, 20).map((p) => [`{"password": "${p}"}`, p]),
  ),
  plant(
    'ipv4',
    fc.tuple(octet, octet, octet, octet).map((o) => [o.join('.'), o.join('.')]),
  ),
  plant(
    'ipv6',
    fc.array(chars(HEX, 1, 4), { minLength: 8, maxLength: 8 }).map((g) => [g.join(':'), g.join(':')]),
  ),
  plant(
    'url host',
    fc.tuple(label, label).map(([a, b]) => [`https://${a}.${b}.io/v1/x`, `${a}.${b}.io`]),
  ),
  plant(
    'hostname',
    fc.tuple(label, label).map(([a, b]) => [`${a}-1.${b}.internal:5432`, `${a}-1.${b}.internal`]),
  ),
  plant(
    'posix path',
    fc.tuple(label, label, label).map(([a, b, c]) => [`/srv/${a}/${b}/${c}.ts`, `/${a}/${b}/${c}.ts`]),
  ),
  plant(
    'windows path',
    fc.tuple(label, label).map(([a, b]) => [`C:\\Users\\${a}\\${b}.txt`, `\\${a}\\${b}.txt`]),
  ),
  plant(
    'stack frame',
    fc.tuple(label, label).map(([a, b]) => [`\n    at ${a} (/app/${b}/index.js:12:7)\n`, `/app/${b}/index.js`]),
  ),
  // Families added for finding 19.
  plant(
    'password in prose',
    fc
      .tuple(fc.constantFrom('password', 'Password', 'passwd', 'pwd', 'passphrase'), payload(4, 16))
      .map(([n, p]) => [`with ${n} ${p}`, p]),
  ),
  plant(
    'token/api key in prose',
    fc
      .tuple(fc.constantFrom('token is', 'api key is', 'secret', 'access key', 'X-Api-Key'), payload(6, 20))
      .map(([n, p]) => [`${n} ${p}`, p]),
  ),
  plant(
    'pwd:/pass=/secret_value= keys',
    fc
      .tuple(fc.constantFrom('pwd: ', 'pass=', 'secret_value=', 'sig=', 'passcode: '), payload(1, 16))
      .map(([k, p]) => [`${k}${p}`, p]),
  ),
  plant(
    'basic auth header',
    chars(B64, 8, 40).map((p) => [`\nAuthorization: Basic ${p}==\n`, p]),
  ),
  plant(
    'basic credential in prose (base64 of user:password, any length)',
    fc
      .tuple(chars(ALNUM, 1, 12), chars(`${ALNUM}!#$%&*`, 1, 16))
      .map(([u, p]) => Buffer.from(`${u}:${p}`).toString('base64'))
      .map((b64) => [`upstream rejected Basic ${b64}`, b64.replace(/=+$/, '')]),
  ),
  plant(
    'url userinfo',
    fc.tuple(label, payload(4, 16), label).map(([u, p, h]) => [`https://${u}:${p}@${h}.example.zz/x`, p]),
  ),
  plant(
    'userinfo before an address',
    fc.tuple(label, payload(4, 16), octet, octet).map(([u, p, a, b]) => [`${u}:${p}@10.${a}.${b}.1`, p]),
  ),
  plant(
    'zero-width character inside a scheme or key',
    fc
      .tuple(fc.constantFrom('Bearer ', 'password=', 'token='), payload(20, 30), fc.nat(5))
      .map(([k, p, i]) => [`${hidden(k, i)}${p}`, p]),
  ),
  plant(
    'full-width header or token',
    fc
      .tuple(fc.constantFrom('Bearer ', 'password=', 'Authorization: Bearer '), payload(20, 30))
      .map(([k, p]) => [fullWidth(`${k}${p}`), p]),
  ),
  plant(
    'homoglyph in a key',
    payload(6, 16).map((p) => [`p\u0430ssword=${p}`, p]),
  ),
  plant(
    'percent-encoded header or token',
    fc
      .tuple(
        fc.constantFrom('Authorization%3A%20Bearer%20', 'access_token%3D', 'password%3D', 'sig%3D'),
        payload(8, 20),
      )
      .map(([k, p]) => [`${k}${p}`, p]),
  ),
  plant(
    'host with a ccTLD and a hyphen label',
    fc
      .tuple(label, label, label, fc.constantFrom('in', 'it', 'pl', 'es', 'io', 'zz'))
      .map(([a, b, c, tld]) => [`${a}-db.${b}.${c}.${tld}`, `${a}-db.${b}.${c}.${tld}`]),
  ),
  plant(
    'host with a digit label',
    fc.tuple(label, label, label, fc.nat(99)).map(([a, b, c, n]) => [`${a}${n}.${b}.${c}.it`, `${a}${n}.${b}`]),
  ),
  plant(
    'host of any TLD with a port',
    fc
      .tuple(
        label,
        fc.constantFrom('zz', 'shop', 'bank', 'in', 'it', 'pl', 'lan', 'corp'),
        fc.integer({ min: 1, max: 65535 }),
      )
      .map(([a, b, port]) => [`${a}.${b}:${port}`, `${a}.${b}`]),
  ),
  plant(
    'localhost with a port',
    fc.integer({ min: 1, max: 65535 }).map((port) => [`localhost:${port}`, 'localhost']),
  ),
  plant(
    'ipv4-mapped ipv6',
    fc.tuple(octet, octet, octet).map(([a, b, c]) => [`::ffff:10.${a}.${b}.${c}`, `${a}.${b}.${c}`]),
  ),
  plant(
    'google oauth token',
    payload(20, 60).map((p) => [`ya29.${p}`, p]),
  ),
  plant(
    'github fine-grained token',
    chars(`${ALNUM}_`, 40, 60).map((p) => [`github_pat_${p}`, p]),
  ),
  plant(
    'slack user token',
    fc.tuple(chars('0123456789', 10, 12), payload(10, 20)).map(([a, b]) => [`xoxp-${a}-${b}`, b]),
  ),
  plant(
    'stripe live key',
    fc.tuple(fc.constantFrom('sk_live_', 'rk_live_'), payload(16, 30)).map(([k, p]) => [`${k}${p}`, p]),
  ),
  plant(
    'private key block',
    fc
      .tuple(fc.constantFrom('', 'RSA ', 'EC ', 'OPENSSH '), chars(B64, 40, 64), chars(B64, 8, 40))
      .map(([t, a, b]) => [`\n-----BEGIN ${t}PRIVATE KEY-----\n${a}\n${b}==\n-----END ${t}PRIVATE KEY-----\n`, a]),
  ),
  plant(
    'home directory path',
    fc
      .tuple(fc.constantFrom('/home/', '/Users/', '~/'), label, label)
      .map(([root, a, b]) => [`${root}${a}/${b}/config.json`, `${a}/${b}`]),
  ),
  plant(
    'file:// URL',
    fc.tuple(label, label).map(([a, b]) => [`file:///home/${a}/${b}.txt`, `${a}/${b}`]),
  ),
  plant(
    'windows path under Program Files',
    fc.tuple(label, label).map(([a, b]) => [`C:\\Program Files\\${a}\\${b}.dll`, `${a}\\${b}`]),
  ),
];

const ordinary = fc.constantFrom(
  'amountCents must be a positive integer',
  'slot 10:00 is taken',
  'currency must be one of usd|eur',
  'the request was rejected',
  'retry after 3000 ms',
  'customer cus_42 not found',
  'dueDate expected ISO date',
  'the token expired',
  // Strings that must pass unchanged (finding 19): ids, amounts, dates, times, SKUs, field paths, files, versions.
  'customerId',
  '12.50',
  '2026-10-01',
  '2026-10-01T10:00:00.000Z',
  'SKU-1',
  'inv_1',
  'O-1842',
  'data.attributes.amount',
  'e.g. file.txt',
  'v1.2.3',
  'password must be at least 8 characters',
);
const word = fc.oneof(ordinary, chars('abcdefghijklmnopqrstuvwxyz', 1, 12), fc.nat(100_000).map(String));
const sep = fc.constantFrom(' ', '\n', ', ', '; ', ' (', ') ', ' "', '" ');

describe('redact: properties', () => {
  it('redact: a planted secret of any kind never survives, whatever text surrounds it', () => {
    fc.assert(
      fc.property(
        fc.array(word, { maxLength: 8 }),
        fc.oneof(...secrets),
        fc.array(word, { maxLength: 8 }),
        sep,
        sep,
        (before, planted, after, s1, s2) => {
          const text = `${before.join(' ')}${s1}${planted.text}${s2}${after.join(' ')}`;
          const out = redact(text);
          expect([planted.kind, out.includes(planted.secret)]).toEqual([planted.kind, false]);
          expect(redact(out)).toBe(out);
          expect(out.length).toBeLessThanOrEqual(REDACT_GROWTH_FACTOR * text.length + REDACT_GROWTH_SLACK);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('redact: several planted secrets in one text all disappear', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(word, fc.oneof(...secrets)), { minLength: 1, maxLength: 6 }), (parts) => {
        const out = redact(parts.map(([w, p]) => `${w} ${p.text}`).join(' '));
        for (const [, p] of parts) expect(out).not.toContain(p.secret);
      }),
      { numRuns: 500 },
    );
  });

  it('redact: ordinary words, numbers and times survive unchanged', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(word, fc.constantFrom(' ', '\n', '. ', ', ')), { maxLength: 20 }), (parts) => {
        const text = parts.map(([w, s]) => `${w}${s}`).join('');
        expect(redact(text)).toBe(text);
      }),
      { numRuns: 1000 },
    );
  });

  it('redact: never throws on any string, is idempotent on it, and stays within the growth bound', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), fc.string({ unit: 'grapheme', maxLength: 100 })),
        (text) => {
          const out = redact(text);
          expect(redact(out)).toBe(out);
          expect(out.length).toBeLessThanOrEqual(REDACT_GROWTH_FACTOR * text.length + REDACT_GROWTH_SLACK);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('redact: idempotent and within the growth bound on text built from the pieces rules react to', () => {
    const piece = fc.constantFrom(
      ...['a', 'b1', 'x-y', ':', '::', '.', '/', '\\', '@', '=', '%', '%41', '%25', '"', ' ', '\n', '-', '[', ']'],
      ...['12', '10.0.0.1', 'acme.com', 'db-1', '.in', ':5432', 'password', 'token', 'Bearer', 'Basic', 'sk-'],
      ...['ＡＢ', '\u0430', '\u200b', '…', '⑴', 'at ', 'C:', '~', 'http://', 'eyJ', 'connect to', 'ENOTFOUND'],
      ...['localhost', 'ya29.', '-----BEGIN PRIVATE KEY-----', 'Authorization:', 'pin', '[redacted]', '[host]', '[ip]'],
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 14 }), (pieces) => {
        const text = pieces.join('');
        const out = redact(text);
        expect(redact(out)).toBe(out);
        expect(out.length).toBeLessThanOrEqual(REDACT_GROWTH_FACTOR * text.length + REDACT_GROWTH_SLACK);
      }),
      { numRuns: 3000 },
    );
  });
});
