/**
 * Equivalence of `redact` (recovery/redact.ts) with its reference, the same table applied without the per-rule
 * prechecks of issue 11: for random text of several kinds the two return the same string. The prechecks
 * (`mayMatch`) only skip rules that cannot match, so nothing may differ.
 * Pure: no workers, no servers.
 */
import fc from 'fast-check';
import { MAX_REDACT_PASSES, REDACTION_RULES, redact, type RedactionRule } from '../../recovery/redact';
import { revealHidden } from '../../recovery/redact-normalize';

/** `redact` for texts under its input bound, every rule applied whatever its precheck says. */
function redactReference(text: string): string {
  const apply = (t: string, rules: readonly RedactionRule[]) =>
    rules.reduce((next, rule) => {
      rule.pattern.lastIndex = 0;
      return next.replace(rule.pattern, rule.replace as (m: string, ...g: string[]) => string);
    }, t);
  const pairs = REDACTION_RULES.filter((rule) => rule.name === 'secret key-value');
  let out = text;
  for (let pass = 0; pass < MAX_REDACT_PASSES; pass++) {
    // The key=value rule meets a text with `%` as written first (recovery/redact.ts, `ENCODED_PAIRS`).
    const next = apply(revealHidden(out.includes('%') ? apply(out, pairs) : out), REDACTION_RULES);
    if (next === out) break;
    out = next;
  }
  return out;
}

const RUNS = 2_000;

/** Secrets, hosts, paths, URLs, addresses, stack frames and headers, as in test/unit/redact.test.ts. */
const FRAGMENTS = [
  '    at charge (/srv/app/src/pay.js:12:3)',
  '    at async Promise.all (index 0)',
  '    at /srv/app/y.js:1:1',
  '\tat com.acme.Pay.charge(Pay.java:42)',
  '  File "/srv/app/pay.py", line 12, in charge',
  'boom at charge (/srv/app/pay.js:12:3) done',
  'at <anonymous>',
  'at node:internal/process/task_queues:95:5',
  '[stack]',
  '/etc/app/config.yaml',
  '/app.js:12',
  'src/pay/charge.ts:10:2',
  'C:\\Users\\bob\\secrets.txt',
  'C:\\Program Files (x86)\\App\\x.exe',
  '\\\\fileserver\\payroll\\q3.xlsx',
  '~/.ssh/id_rsa',
  'https://user:pw@api.stripe.com/v1/charges?token=abc',
  'file:///home/bob/x.txt',
  'db-1.prod.internal:5432',
  'api.example.com',
  'hooks.slack.com/services/T0/B0/x',
  'orders-db.prod.acme.in',
  'acme.zz:5432',
  'localhost:8080',
  'LocalHost',
  'ECONNREFUSED 127.0.0.1:36611',
  'getaddrinfo ENOTFOUND payments-api',
  'connect to ',
  'Host ',
  'fe80::1ff:fe23:4567:890a',
  '::1',
  '::ffff:10.0.0.1',
  '[2001:db8::1]:443',
  '2001:0db8:85a3:0000:0000:8a2e:0370:7334',
  'fe80::1%eth0',
  'Bearer abc123.def456-ghi',
  'Basic dXNlcjpwYXNzd29yZA==',
  'basic plan',
  'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig_nature-1',
  'sk-proj-abcdefghijklmnop1234',
  'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
  'github_pat_11ABCDEFG0123456789_abcdefghijkl',
  'xoxb-1234567890-abcdefghij',
  'xapp-1-A0-123456789',
  'AKIAIOSFODNN7EXAMPLE',
  'AIzaSyA1234567890abcdefghijklmnopqrstu',
  'ya29.a0AfH6SMBx1234567890',
  '1//0gABCDEFGHIJKLMNOPQRSTUVWXYZ',
  'sk_live_4eC39HqLyjWDarjtT1zdp7dc',
  'whsec_test_abcdefgh1234',
  'glpat-abcdefghij0123456789',
  'npm_abcdefghijklmnopqrstuvwxyz0123456789',
  'Authorization: Bearer abc',
  'Cookie: sid=abc; theme=dark',
  'Set-Cookie: sid=1; Path=/; HttpOnly',
  'x-api-key: k',
  'password=hunter2&token=t0k3n&page=2',
  'secret: s3cr3t api_key=abc',
  '{"password": "hunter 2", "access_token": "x", "max_tokens": 100}',
  '{"authorization":"Bearer abc"}',
  "'client_secret': 'x'",
  'with password hunter2',
  'token is abc123def456',
  'X-Api-Key abcd1234efgh5678',
  'user:pass@',
  'admin:s3cret@[host]',
  '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  '-----BEGIN RSA PRIVATE KEY-----\nMIIEow==\n-----END RSA PRIVATE KEY-----',
  '-----BEGIN OPENSSH PRIVATE KEY-----',
  'Authorization%3A%20Bearer%20abc123def456',
  'Ｂｅａｒｅｒ ａｂｃ１２３ｄｅｆ４５６',
  'В\u0435arer abc123def456',
  'to\u200bken=abc',
  '[redacted]',
  '[host]',
  '[ip]',
  '[url]',
  '[path]',
  'localhost::12',
  'e.g. file.txt v1.2.3',
  'amount.value',
  'items.sku-1.id',
  'slot 10:00 is taken',
  'customer cus_42',
  'HTTP 503, the service is unavailable; retry after 1000 ms. Server said: "busy".',
  // Rules of issue 27 (redaction by meaning).
  'ann.lee+billing@example.co.uk',
  'ci-deployer@[host]',
  'mailto:ann@x.io',
  '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',
  'hf_aBcDeFgHiJkLmNoPqRsTuVwXyZaBcDeFgH',
  'key-3ax6xnjp29jd6fds4gc373sgvjxteol0',
  '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1',
  'sk-abc12…',
  'sk_live_****4f2Q',
  '****1234',
  '•••• 4242',
  'XXXX-XXXX-XXXX-1234',
  'org-Xq7bKp2LmN4vR8sT1wY3zA9c',
  'acct_1Nv0FGQ9RKHgCVdK',
  'arn:aws:iam::493817206451:user/ci-bot',
  'AWS account 5820-1493-7706',
  'tenant 72f988bf-86f1-41af-91ab-2d7cd011db47',
  'the passphrase is: correct-horse-battery-staple',
  'Backup codes: 48213 90551 17384.',
  'das Passwort lautet Sommer-Regen',
  'le mot de passe est : chat-noir',
  '密码是 lanse-haiyang',
  'пароль: zelenyj-les',
  'api key: live-omega-delta',
  'the password is wrong',
  'existing.api.key=live-4411',
  'recovery_codes: [7a1c, b2d4]',
  'creds={"pw": "x"}',
  'AccountId: 493817206451',
  'token_count:5?token=abc',
  'q7Lm2Xv9Rt4Kp8Zs1Wn6Yb3H',
  'InvalidBase64EncodingException',
  'cus_NffrFeUfNV2Hib',
  'order-123e4567-e89b-12d3-a456-426614174000',
  '<password>hunter2</password>',
  '{"password"=>"x"}',
  '{\\"token\\":\\"abc\\"}',
  'card 4242 4242 4242 4242',
  'IBAN DE89 3704 0044 0532 0130 00',
  'hasło: kot-pies',
];
const PROSE = [
  'the',
  'a',
  'failed',
  'Error:',
  'is',
  'at',
  'to',
  'from',
  'was',
  'key',
  'pin',
  'Server',
  'ok',
  '—',
  'est',
  '是',
];
const SEPARATORS = ['', ' ', '\n', '\t', ':', '=', '.', '/', '@', '"', "'", ',', ';', '-', '_', '\\', '(', ')', '%'];

const fragment = fc.constantFrom(...FRAGMENTS);
/** A piece of a fragment, so that prechecks see partial literals (`eyJ` without the rest, `:/` without `/`). */
const slice = fc
  .tuple(fragment, fc.nat(), fc.nat())
  .map(([f, a, b]) => f.slice(Math.min(a, b) % (f.length + 1), Math.max(a, b) % (f.length + 1)));
const piece = fc.oneof(
  { weight: 4, arbitrary: fragment },
  { weight: 3, arbitrary: slice },
  { weight: 3, arbitrary: fc.constantFrom(...PROSE, ...SEPARATORS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 4 }) },
);
const mixed = fc.array(piece, { maxLength: 14 }).map((parts) => parts.join(''));
/** Characters of the fragments, shuffled: every literal a precheck looks for, in random order. */
const FRAGMENT_CHARS = [...new Set(FRAGMENTS.join('').split(''))];
const fragmentChars = fc.string({ unit: fc.constantFrom(...FRAGMENT_CHARS), maxLength: 80 });

const same = (text: string) => {
  expect(redact(text)).toBe(redactReference(text));
};

describe('redact equals its reference implementation', () => {
  it('on arbitrary strings', () => fc.assert(fc.property(fc.string({ maxLength: 200 }), same), { numRuns: RUNS }));
  it('on arbitrary full-Unicode strings', () =>
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 200 }), same), { numRuns: RUNS }));
  it('on grapheme strings', () =>
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), same), { numRuns: RUNS }));
  it('on secrets, hosts, paths, URLs, addresses and frames mixed with prose', () =>
    fc.assert(fc.property(mixed, same), { numRuns: RUNS * 3 }));
  it('on strings of the characters of those fragments', () =>
    fc.assert(fc.property(fragmentChars, same), { numRuns: RUNS }));
  it('on each fragment alone, upper-cased and lower-cased', () => {
    for (const f of FRAGMENTS) for (const t of [f, f.toUpperCase(), f.toLowerCase()]) same(t);
  });
  it('every rule has a precheck, and none of them is false on a text its pattern matches', () =>
    fc.assert(
      fc.property(mixed, (text) => {
        for (const rule of REDACTION_RULES) {
          expect(rule.mayMatch).toBeDefined();
          rule.pattern.lastIndex = 0;
          const matches = text.replace(rule.pattern, '\u0000') !== text;
          if (matches) expect([rule.name, rule.mayMatch?.(text)]).toEqual([rule.name, true]);
        }
      }),
      { numRuns: RUNS },
    ));
});
