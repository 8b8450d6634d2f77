/**
 * Unit tests of redaction (recovery/redact.ts): pure, no workers, no servers.
 */
import {
  isSecretKey,
  MAX_REDACT_INPUT_CHARS,
  Placeholder,
  redact,
  REDACT_GROWTH_FACTOR,
  REDACT_GROWTH_SLACK,
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

describe('redact: the gaps of finding 19 are closed', () => {
  const cases: [string, string, string][] = [
    // Credentials in prose.
    [
      'a password in prose',
      'Login failed for user admin with password hunter2',
      'Login failed for user admin with password [redacted]',
    ],
    ['pwd: with a one-letter value', 'pwd: x', 'pwd: [redacted]'],
    ['"api key is sk-…"', 'the api key is sk-abcdefghijklmnopqrstuv', 'the api key is [redacted]'],
    ['"api key is …" without a known shape', 'the api key is AbCdEf123456', 'the api key is [redacted]'],
    ['"token is …"', 'token is abc123def456', 'token is [redacted]'],
    ['a quoted password in prose', "password 'correct horse'", "password '[redacted]'"],
    ['a PIN in prose', 'PIN 4921 rejected', 'PIN [redacted] rejected'],
    ['a header name without its colon', 'X-Api-Key abcd1234efgh5678', 'X-Api-Key [redacted]'],
    ['secret=', 'secret=s3cr3t', 'secret=[redacted]'],
    ['a key that contains "secret"', 'secret_value=hunter2', 'secret_value=[redacted]'],
    ['pass=', 'pass=hunter2', 'pass=[redacted]'],
    ['a SAS signature', 'sv=2020-08-04&sig=vnb3Rk+Z5mN9a=', 'sv=2020-08-04&sig=[redacted]'],
    ['auth: with a bearer value', 'auth: Bearer abcdefghijklmnopqrs', 'auth: [redacted]'],
    [
      'a secret pair after a non-secret key=value',
      'example:8443/v1/x?token=abc123secret',
      'example:8443/v1/x?token=[redacted]',
    ],
    // HTTP Basic auth.
    [
      'a Basic credential of letters only',
      'upstream rejected Basic dXNlcjpwYXNz',
      'upstream rejected Basic [redacted]',
    ],
    ['an Authorization: Basic header', 'Authorization: Basic dXNlcjpwYXNzd29yZA==', 'Authorization: [redacted]'],
    ['user:pass@ in a URL', 'GET https://user:pass@api.acme.in/v1 failed', 'GET [url] failed'],
    ['user:pass@ without a scheme', 'user:p4ss@10.1.2.3', '[redacted]@[ip]'],
    ['a 19-letter bearer token', 'sent Bearer abcdefghijklmnopqrs', 'sent Bearer [redacted]'],
    // Unicode tricks.
    ['a zero-width joiner inside Bearer', 'Bear\u200der abcd1234efgh5678ijkl', 'Bearer [redacted]'],
    ['a zero-width space inside a key', 'pass\u200bword=hunter2', 'password=[redacted]'],
    ['a full-width Bearer', 'Ｂｅａｒｅｒ abcd1234efgh5678ijkl', 'Bearer [redacted]'],
    [
      'a full-width Authorization header',
      'Ａｕｔｈｏｒｉｚａｔｉｏｎ: Bearer-ish qwerty123',
      'Authorization: [redacted]',
    ],
    ['a full-width password and colon', 'Ｐａｓｓｗｏｒｄ：ｈｕｎｔｅｒ２', 'Password:[redacted]'],
    ['a full-width AWS key', 'ＡＫＩＡ１２３４５６７８９０ＡＢＣＤＥＦ', '[redacted]'],
    ['a Cyrillic а inside "password"', 'p\u0430ssword=hunter2', 'password=[redacted]'],
    ['Cyrillic В, е, а inside "Bearer"', '\u0412\u0435\u0430rer abcd1234efgh5678', 'Bearer [redacted]'],
    // Percent-encoding.
    [
      'a percent-encoded Authorization header',
      'Authorization%3A%20Bearer%20abcd1234efgh5678',
      'Authorization: [redacted]',
    ],
    ['a percent-encoded access_token=', 'access_token%3Dabcd1234efgh5678', 'access_token=[redacted]'],
    ['a percent-encoded SAS signature', 'sv=2020-08-04&sig=vnb3Rk%2BZ5mN9a%3D', 'sv=2020-08-04&sig=[redacted]'],
    ['a doubly percent-encoded key', 'tok%2565n=abc123', 'token=[redacted]'],
    // Host names beyond the list of TLDs, addresses.
    [
      'a host with a hyphen label and a ccTLD',
      'could not connect to orders-db.prod.acme.in:5432',
      'could not connect to [host]',
    ],
    ['a host with a digit label', 'db01.corp.acme.it is down', '[host] is down'],
    ['any TLD with a port', 'db.acme.zz:5432 refused', '[host] refused'],
    [
      'a single-label host after ECONNREFUSED',
      'connect ECONNREFUSED orders-db-primary:5432',
      'connect ECONNREFUSED [host]',
    ],
    ['a single-label host after ENOTFOUND', 'getaddrinfo ENOTFOUND orders-db', 'getaddrinfo ENOTFOUND [host]'],
    ['a host after "connect to"', 'cannot connect to redis:6379', 'cannot connect to [host]'],
    ['a host with a path (no scheme)', 'hooks.slack.com/services/T000/B000/XXXXXXXX', '[url]'],
    ['a host with a path before a full stop', 'see acme.com/pricing.', 'see [url].'],
    ['an IPv4-mapped IPv6 address', 'from ::ffff:10.0.0.1', 'from [ip]'],
    ['an IPv6 address with a zone', 'IPv6 fe80::1%eth0 down', 'IPv6 [ip] down'],
    ['localhost with a port', 'connect localhost:3000 refused', 'connect [host] refused'],
    // Token families.
    ['a Google OAuth access token', 'ya29.a0AfH6SMBx-Kq3aB_cD9-eF1gH2iJ3kL4mN', '[redacted]'],
    ['a Google refresh token', 'refresh 1//0gLHqC2bGx8bGCgYIARAAGBASNwF-L9Ir', 'refresh [redacted]'],
    ['a JWT under session=', 'session=eyJhbGciOi.eyJzdWIi.sig', 'session=[redacted]'],
    ['a fine-grained GitHub token', 'github_pat_11ABCDEFG0123456789_abcdefghijklmnop', '[redacted]'],
    ['a Slack user token', 'xoxp-1234-5678-abcdefgh', '[redacted]'],
    ['a Stripe restricted key', 'rk_live_abcdefgh1234 revoked', '[redacted] revoked'],
    [
      'a PEM private key block',
      'key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA1234\nabcd+/==\n-----END RSA PRIVATE KEY-----\nrest',
      'key:\n[redacted]\nrest',
    ],
    ['a private key block without its END line', 'privkey=-----BEGIN PRIVATE KEY-----', 'privkey=[redacted]'],
    [
      'an OpenSSH private key block',
      '-----BEGIN OPENSSH PRIVATE KEY----- b3BlbnNzaC1rZXktdjEAAAAA -----END OPENSSH PRIVATE KEY----- done',
      '[redacted] done',
    ],
    // File paths.
    ['a /home path', 'Traceback: /home/deploy/app/payments/charge.py line 42', 'Traceback: [path] line 42'],
    ['a /Users path', 'open /Users/alice/Library/x.plist failed', 'open [path] failed'],
    ['a C:\\ path under Program Files', 'C:\\Program Files (x86)\\Acme\\pay.dll was missing', '[path] was missing'],
    ['a C:/ path', 'error in C:/Users/admin/app/db.js', 'error in [path]'],
    ['a file:// URL', 'read file:///home/bob/.ssh/id_rsa denied', 'read [url] denied'],
  ];
  it.each(cases)('redact: %s', (_kind, input, expected) => {
    expect(redact(input)).toBe(expected);
  });
});

describe('redact: isSecretKey', () => {
  it.each([
    'password',
    'pwd',
    'pass',
    'passphrase',
    'api_key',
    'x-api-key',
    'apiKey',
    'XApiKey',
    'accessToken',
    'accesstoken',
    'client_secret',
    'secret_value',
    'privateKey',
    'private_key',
    'accessKey',
    'access_key',
    'aws_secret_access_key',
    'auth',
    'bearer',
    'otp',
    'pin',
    'sig',
    'session_id',
    'privkey',
  ])('isSecretKey: %s → true', (key) => {
    expect(isSecretKey(key)).toBe(true);
  });
  it.each([
    'max_tokens',
    'token_count',
    'customerId',
    'idempotency_key',
    'bypass',
    'compass',
    'amountCents',
    'oauth_method',
  ])('isSecretKey: %s → false', (key) => {
    expect(isSecretKey(key)).toBe(false);
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
    // The false positives that would wreck model feedback (finding 19's brief): field names, amounts, dates,
    // times, ISO timestamps, SKUs and ids, dotted field paths, file names and versions.
    'customerId',
    'customerId must start with cus_',
    'amount 12.50',
    'price is 12.50 EUR',
    '2026-10-01',
    'dueDate 2026-10-01 is in the past',
    '10:00',
    '2026-10-01T10:00:00.000Z',
    '2026-10-01T10:00:00+02:00',
    'SKU-1',
    'SKU-1 is out of stock',
    'cus_42',
    'inv_1',
    'O-1842',
    'O-1842 conflicts with booking B-77 at 10:00',
    'e.g. file.txt and v1.2.3',
    'i.e. the end',
    'data.attributes.amount',
    'customer.address.city',
    'order.customer.id',
    'items.0.price',
    'field user.email must be valid',
    'see api.v2.users',
    'README.md, setup.py, main.rs and index.ts:42',
    'Node.js v20.1.0',
    'version 1.2.3-beta.1',
    'ratio 3:2 at 10:30:15',
    'password must be at least 8 characters',
    'the password is wrong',
    'PIN must be 4 digits',
    'token limit 4096 exceeded',
    'secret manager unavailable',
    'token_count=42',
    'idempotency_key=abc-123',
    'Basic Authentication required',
    'server error',
    'upstream timeout',
    'host is down',
    'connected to 3 peers',
    'phone +1-555-0100',
    'mm/dd/yyyy',
    '50% off',
    'Ошибка оплаты: сумма',
    'wait…',
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

  it('redact: the result is NFKC text without invisible characters (it reads as the input did)', () => {
    // Chinese text ("the amount must be positive (unit: cents)") with full-width brackets and colon, written as
    // escapes: NFKC makes the punctuation ASCII and keeps the Han characters.
    const [amount, unit, cents] = ['\u91d1\u989d\u5fc5\u987b\u4e3a\u6b63\u6570', '\u5355\u4f4d', '\u5206'];
    expect(redact(`${amount}\uff08${unit}\uff1a${cents}\uff09`)).toBe(`${amount}(${unit}:${cents})`);
    expect(redact('ﬁle ①\u200b done')).toBe('file 1 done');
    expect(redact('\u001b[2J cleared')).toBe('[2J cleared');
  });

  it('redact: "…" and characters whose NFKC form is over 3 times longer are kept as they are', () => {
    expect(redact('cut…')).toBe('cut…');
    expect(redact('\ufdfa \u3300')).toBe('\ufdfa \u3300');
    expect(redact('⑴')).toBe('(1)');
  });

  it('redact: a placeholder that makes a new match is taken by the next pass, so the result is a fixed point', () => {
    const once = redact('localhost::12 and 10.0.0.1::db-1');
    expect(once).toBe('[host][ip] and [ip][ip]-1');
    expect(redact(once)).toBe(once);
  });

  it(`redact: the result is at most ${REDACT_GROWTH_FACTOR} × input + ${REDACT_GROWTH_SLACK} characters`, () => {
    for (const t of ['sig=x', 'pwd=x&pwd=x&pwd=x', '⑴⑴⑴⑴', '::1 ::1 ::1', '/a/ /b/ /c/', 'Cookie:\nCookie:\n']) {
      expect([t, redact(t).length <= REDACT_GROWTH_FACTOR * t.length + REDACT_GROWTH_SLACK]).toEqual([t, true]);
    }
  });

  it('redact: a result longer than MAX_REDACT_INPUT_CHARS is cut too, so redacting it again cuts nothing', () => {
    const out = redact('⑴ '.repeat(30_000));
    expect(out.length).toBeLessThanOrEqual(MAX_REDACT_INPUT_CHARS);
    expect(out.endsWith('(1)…')).toBe(true);
    expect(redact(out)).toBe(out);
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
    // Rules and steps added for finding 19.
    '%41',
    '%25',
    '%FF',
    '%E2%80%8B',
    '-----BEGIN PRIVATE KEY-----.',
    'password a',
    'pin 1',
    'ＡＢ',
    '\u0430a',
    'a-a.',
    'ab1.',
    'connect to a.',
    'ECONNREFUSED a',
    'x:y@',
    'a:b',
    '\u200b',
    'a-b:12',
    'a.b:1',
    'ya29.',
    '1//0',
    '::ffff:',
    '[ip]',
    '\ufdfa',
    '⑴',
    'C:\\Program Files\\',
    // Rules of issue 27 (redaction by meaning).
    'password:[',
    'password:[[',
    'password:{"a":[',
    'token=[{',
    'a@b.',
    'a.b@',
    '****',
    '***a',
    'xxxx-',
    'sk-a…',
    'sk-a*',
    'org-a1',
    'account 1',
    'tenant ',
    'arn:aws::',
    'the password is ',
    'password for a ',
    'passphrase is: a ',
    'Backup codes: 1 ',
    '密码是',
    'пароль: ',
    'Aa1',
    'a1B2',
    'SG.',
    'hf_',
    'AC0',
    '<a>',
    '<a>b</',
    '4242 ',
    '4242',
    'DE89 ',
    '\\"token\\":',
    'password=>',
  ];
  // A guard against blow-up, not a speed measurement (that is bench/): on 64 KiB a quadratic rule makes ~4e9 regex
  // steps (seconds), an exponential one never ends; a linear one takes milliseconds. Counted in this process's CPU
  // time (regex matching is synchronous, on this thread), which another process's load does not inflate.
  const cpuMs = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1_000;
  };
  it.each(units)('redact: %j repeated to 64 KiB: no rule blows up (< 2 s of CPU each, < 5 s in all)', (unit) => {
    const text = unit.repeat(Math.ceil(MAX_REDACT_INPUT_CHARS / unit.length)).slice(0, MAX_REDACT_INPUT_CHARS);
    for (const rule of REDACTION_RULES) {
      rule.pattern.lastIndex = 0;
      const t0 = cpuMs();
      text.replace(rule.pattern, rule.replace as (m: string) => string);
      expect([rule.name, cpuMs() - t0 < 2_000]).toEqual([rule.name, true]);
    }
    const t0 = cpuMs();
    redact(text);
    expect(cpuMs() - t0).toBeLessThan(5_000);
  });
});
