/**
 * Property tests of redaction (recovery/redact.ts): random text with planted secrets of each kind → none
 * survives; ordinary words survive unchanged. Pure: no workers, no servers.
 */
import fc from 'fast-check';
import { redact } from '../../recovery/redact';

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
          expect(out).not.toContain(planted.secret);
          expect(redact(out)).toBe(out);
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

  it('redact: never throws on any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        expect(typeof redact(text)).toBe('string');
      }),
      { numRuns: 1000 },
    );
  });
});
