/**
 * Unit tests of redaction (recovery/redact.ts): pure, no workers, no servers.
 */
import {
  MAX_REDACT_INPUT_CHARS,
  Placeholder,
  redact,
  REDACTION_RULES,
  RedactionInputError,
} from '../../recovery/redact';

describe('redact: secrets and internals are replaced', () => {
  const cases: [string, string, string][] = [
    [
      'a V8 stack trace',
      'Error: boom\n    at charge (/srv/app/src/pay.js:12:3)\n    at async Promise.all (index 0)\n    at /srv/app/y.js:1:1\nafter',
      'Error: boom\n[stack]\nafter',
    ],
    ['a Java frame', 'failed\n\tat com.acme.Pay.charge(Pay.java:42)', 'failed\n[stack]'],
    [
      'a Python frame',
      'Traceback (most recent call last):\n  File "/srv/app/pay.py", line 12, in charge',
      'Traceback (most recent call last):\n[stack]',
    ],
    ['an inline frame', 'boom at charge (/srv/app/pay.js:12:3) done', 'boom [stack] done'],
    [
      'an inline Java frame',
      'NullPointerException at com.acme.Ledger.post(Ledger.java:88)',
      'NullPointerException [stack]',
    ],
    ['a POSIX path', 'cannot open /etc/app/config.yaml now', 'cannot open [path] now'],
    ['a POSIX file with line', 'see /app.js:12 for details', 'see [path] for details'],
    ['a relative source path', 'in src/pay/charge.ts:10:2', 'in [path]'],
    ['a Windows path', 'cannot open C:\\Users\\bob\\secrets.txt now', 'cannot open [path] now'],
    ['a UNC path', 'share \\\\fileserver\\payroll\\q3.xlsx gone', 'share [path] gone'],
    [
      'a URL with credentials and query',
      'GET https://user:pw@api.stripe.com/v1/charges?token=abc failed',
      'GET [url] failed',
    ],
    ['a host name with port', 'connect to db-1.prod.internal:5432 failed', 'connect to [host] failed'],
    ['a public host name', 'upstream api.example.com is down', 'upstream [host] is down'],
    ['localhost', 'connect localhost:8080 refused', 'connect [host] refused'],
    ['an IPv4 address with port', 'connect ECONNREFUSED 127.0.0.1:36611', 'connect ECONNREFUSED [ip]'],
    ['an IPv6 address', 'from fe80::1ff:fe23:4567:890a and ::1', 'from [ip] and [ip]'],
    ['a bracketed IPv6 address', 'to [2001:db8::1]:443 failed', 'to [ip] failed'],
    ['a full IPv6 address', 'peer 2001:0db8:85a3:0000:0000:8a2e:0370:7334 left', 'peer [ip] left'],
    ['a bearer token', 'sent Bearer abc123.def456-ghi', 'sent Bearer [redacted]'],
    ['a basic credential', 'sent Basic dXNlcjpwYXNzd29yZA==', 'sent Basic [redacted]'],
    ['a JWT', 'token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig_nature-1', 'token [redacted]'],
    ['an OpenAI key', 'key sk-proj-abcdefghijklmnop1234 leaked', 'key [redacted] leaked'],
    ['a GitHub token', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789 used', '[redacted] used'],
    ['a Slack token', 'xoxb-1234567890-abcdefghij used', '[redacted] used'],
    ['an AWS access key id', 'id AKIAIOSFODNN7EXAMPLE used', 'id [redacted] used'],
    ['a Stripe secret key', 'sk_live_4eC39HqLyjWDarjtT1zdp7dc used', '[redacted] used'],
    ['an Authorization header line', 'Authorization: Bearer abc\nnext line', 'Authorization: [redacted]\nnext line'],
    ['a Cookie header line', 'Cookie: sid=abc; theme=dark', 'Cookie: [redacted]'],
    ['a Set-Cookie header line', 'x\nSet-Cookie: sid=1; Path=/; HttpOnly', 'x\nSet-Cookie: [redacted]'],
    [
      'password= and token= in a query string',
      'password=hunter2&token=t0k3n&page=2',
      'password=[redacted]&token=[redacted]&page=2',
    ],
    ['secret: and api_key= values', 'secret: s3cr3t api_key=abc', 'secret: [redacted] api_key=[redacted]'],
    [
      'JSON secret fields',
      '{"password": "hunter 2", "access_token": "x", "max_tokens": 100}',
      '{"password": "[redacted]", "access_token": "[redacted]", "max_tokens": 100}',
    ],
    ['a JSON authorization field', '{"authorization":"Bearer abc"}', '{"authorization":"[redacted]"}'],
    [
      'a hex digest',
      'key 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 seen',
      'key [redacted] seen',
    ],
  ];
  it.each(cases)('redact: %s', (_kind, input, expected) => {
    expect(redact(input)).toBe(expected);
  });
});

describe('redact: ordinary text survives unchanged', () => {
  const prose = [
    'amountCents must be a positive integer',
    'slot 10:00 is taken',
    'meeting at 10:00:00 tomorrow',
    'currency must be one of usd|eur',
    'customer cus_42 not found',
    'order 123e4567-e89b-12d3-a456-426614174000 was refunded',
    'see index.ts and package.json, e.g. amount.value or data.attributes.amount',
    'max_tokens: 100',
    'Bearer error',
    'Basic plan',
    'at least 3 characters (got 2)',
    'meet at noon (10:30:15) or at rate (ratio 3:2)',
    'use one of usd/eur and/or gbp, ratio 10/20',
    'insufficient_funds: balance 120.50 is below 1000000',
    'the token expired',
    'std::vector is fine',
    'dueDate must be an ISO date (YYYY-MM-DD)',
    'rate limited; retry after 3000 ms',
  ];
  it.each(prose)('redact: "%s" is unchanged', (text) => {
    expect(redact(text)).toBe(text);
  });
});

describe('redact: contract', () => {
  it('redact: is idempotent on a mixed message', () => {
    const once = redact('at x (/a/b.js:1:2) Bearer abcdefgh1234 https://h.io/x password=1 10.0.0.1');
    expect(redact(once)).toBe(once);
  });

  it('redact: placeholders are short and bracketed', () => {
    for (const p of Object.values(Placeholder)) expect(p).toMatch(/^\[[a-z]+\]$/);
  });

  it('redact: input beyond MAX_REDACT_INPUT_CHARS is cut at a whitespace and marked with …', () => {
    const out = redact(`${'word '.repeat(MAX_REDACT_INPUT_CHARS / 5)}sk-abcdefghijklmnopqrstuvwxyz`);
    expect(out.endsWith('…')).toBe(true);
    expect(out).not.toContain('sk-abc');
    expect(out.length).toBeLessThanOrEqual(MAX_REDACT_INPUT_CHARS + 1);
  });

  it('redact: a non-string → RedactionInputError with code redact_input_not_string', () => {
    expect(() => redact(42 as unknown as string)).toThrow(RedactionInputError);
    expect(() => redact(null as unknown as string)).toThrow('redact(text): text must be a string, got null');
    try {
      redact(undefined as unknown as string);
    } catch (e) {
      expect((e as RedactionInputError).code).toBe('redact_input_not_string');
    }
  });
});

describe('redact: every rule is linear on 64 KiB of adversarial input', () => {
  // Each rule alone: rule order must not be what keeps a pattern fast (an earlier rule may not fire).
  const units = [
    'a.',
    '1.',
    'a/',
    'a:',
    '::',
    '[::',
    'a-',
    'eyJa.',
    'at x (a',
    'at ',
    '"a',
    'a: "',
    'C:\\a',
    'a@',
    'sk-',
    'Bearer a',
    '1.1/',
    'a.com.',
    '[0:',
    'password:',
    'a.b/c',
    '\nat x (a.js:1:2)',
    'x',
  ];
  it.each(units)('redact: %j repeated to 64 KiB takes < 200 ms per rule and < 500 ms in all', (unit) => {
    const text = unit.repeat(Math.ceil(MAX_REDACT_INPUT_CHARS / unit.length)).slice(0, MAX_REDACT_INPUT_CHARS);
    for (const rule of REDACTION_RULES) {
      rule.pattern.lastIndex = 0;
      const t0 = performance.now();
      text.replace(rule.pattern, rule.replace as (m: string) => string);
      expect([rule.name, performance.now() - t0 < 200]).toEqual([rule.name, true]);
    }
    const t0 = performance.now();
    redact(text);
    expect(performance.now() - t0).toBeLessThan(500);
  });
});
