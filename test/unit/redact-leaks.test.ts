/**
 * The attack review's redaction probes (notes/attack-probes/redaction.attack.test.ts), finding 19, as unit tests
 * of what reaches the model: secrets smuggled into `publicMessage`, `issues[].path` and `observedState` through
 * HTTP bodies. Pure: `classify` and `publicObservedState` only, no workers, no servers.
 */
import { classify } from '../../recovery/classify';
import { publicText } from '../../recovery/classify/text';
import { publicObservedState } from '../../recovery/observed-state';

const ctx = {
  tool: 't',
  callId: 'c',
  effect: 'read' as const,
  deduplicates: false,
  approvalCanLift: true,
  nowMs: 1_700_000_000_000,
  diagnosticRef: 'd',
};
const said = (status: number, body: unknown) => classify({ kind: 'http', status, headers: {}, body }, ctx);
const CONFLICT = 't: HTTP 409, the call conflicts with the current state of the resource.';

describe('redaction probes: a server message quoted as serverSaid (finding 19; issue 36: never in publicMessage)', () => {
  test.each<[string, string, string, string]>([
    [
      'a password in prose',
      'Login failed for user admin with password hunter2',
      'hunter2',
      'Login failed for user admin with password [redacted]',
    ],
    [
      'a short letters-only Basic credential',
      'upstream rejected Basic dXNlcjpwYXNz',
      'dXNlcjpwYXNz',
      'upstream rejected Basic [redacted]',
    ],
    [
      'a 19-letter bearer token after auth:',
      'auth: Bearer abcdefghijklmnopqrs',
      'abcdefghijklmnopqrs',
      'auth: [redacted]',
    ],
    [
      'a zero-width joiner inside Bearer',
      'Bear\u200der abcd1234efgh5678ijkl',
      'abcd1234efgh5678ijkl',
      'Bearer [redacted]',
    ],
    ['a full-width Bearer', 'Ｂｅａｒｅｒ abcd1234efgh5678ijkl', 'abcd1234efgh5678ijkl', 'Bearer [redacted]'],
    [
      'a percent-encoded Authorization header',
      'Authorization%3A%20Bearer%20abcd1234efgh5678',
      'abcd1234efgh5678',
      'Authorization: [redacted]',
    ],
    [
      'a percent-encoded access_token=',
      'access_token%3Dabcd1234efgh5678',
      'abcd1234efgh5678',
      'access_token=[redacted]',
    ],
    ['a SAS sig= query fragment', 'sv=2020-08-04&sig=vnb3Rk%2BZ5mN9a%3D', 'vnb3Rk', 'sv=2020-08-04&sig=[redacted]'],
    ['"token is …" prose', 'token is abc123def456', 'abc123def456', 'token is [redacted]'],
    ['a pass= key', 'pass=hunter2', 'hunter2', 'pass=[redacted]'],
    ['a secret_value= key (secret not at the end)', 'secret_value=hunter2', 'hunter2', 'secret_value=[redacted]'],
    ['a header name without colon', 'X-Api-Key abcd1234efgh5678', 'abcd1234efgh5678', 'X-Api-Key [redacted]'],
    ['a Google OAuth access token', 'ya29.a0AfH6SMBx-Kq3aB_cD9-eF1gH2iJ3kL4mN', 'a0AfH6SMBx', '[redacted]'],
    [
      'a host with a TLD outside the list',
      'could not connect to orders-db.prod.acme.in:5432',
      'orders-db',
      'could not connect to [host]',
    ],
    [
      'a host partly matched before',
      'could not connect to db01.corp.acme.it:5432',
      'acme.it',
      'could not connect to [host]',
    ],
    [
      'a single-label host',
      'connect ECONNREFUSED orders-db-primary:5432',
      'orders-db-primary',
      'connect ECONNREFUSED [host]',
    ],
    ['userinfo before an IP', 'user:p4ss@10.1.2.3', 'p4ss', '[redacted]@[ip]'],
    ['an IPv4-mapped IPv6 address', 'from ::ffff:10.0.0.1', '0.0.1', 'from [ip]'],
    ['a Slack webhook without scheme', 'hooks.slack.com/services/T000/B000/XXXXXXXX', 'XXXXXXXX', '[url]'],
  ])('probe: %s → the secret is gone', (_label, message, secret, quoted) => {
    const f = said(409, { message });
    expect(JSON.stringify(f)).not.toContain(secret);
    expect([f.publicMessage, f.serverSaid]).toEqual([CONFLICT, quoted]);
  });

  test('probe: control characters (ANSI escapes, bidi overrides) are not passed to the model or an operator CLI', () => {
    const f = said(403, { message: '\u001b[2J\u001b]0;owned\u0007 approve \u202eevil' });
    expect([f.publicMessage, f.serverSaid]).toEqual([
      't: HTTP 403, not allowed without a human approval.',
      '[2J]0;owned approve evil',
    ]);
  });
});

describe('redaction probes: field issues taken from a 400 body', () => {
  test.each<[string, unknown, string, string]>([
    [
      'a URL with a token in a field name',
      { errors: [{ field: 'https://internal.corp.example:8443/v1/x?token=abc123secret', message: 'bad' }] },
      'abc123secret',
      '["[url]"].corp["example:8443/v1/x?token=[redacted]"]: bad',
    ],
    [
      'an Authorization header in a FastAPI loc',
      { detail: [{ loc: ['body', 'Authorization: Bearer sk-live-abcdefghijklmnop1234'], msg: 'bad' }] },
      'sk-live-abcdefghijklmnop1234',
      '["Authorization: [redacted]"]: bad',
    ],
    [
      'a file path in a loc',
      { detail: [{ loc: ['body', '/srv/app/secrets.py'], msg: 'bad' }] },
      '/srv/app',
      '["[path]"]: bad',
    ],
    [
      'password=… as a Rails error key',
      { errors: { 'password=hunter2': ['wrong'] } },
      'hunter2',
      '["password=[redacted]"]: wrong',
    ],
    [
      'an IP as a JSON:API pointer segment',
      { errors: [{ source: { pointer: '/data/attributes/10.0.0.5' }, detail: 'bad' }] },
      '10.0.0.5',
      '["[ip]"]: bad',
    ],
  ])('probe: %s → issues[].path stops before it; serverSaid quotes it redacted', (_label, body, secret, quoted) => {
    const f = said(400, body);
    expect(JSON.stringify(f.issues ?? [])).not.toContain(secret);
    expect(f.issues?.map((i) => [i.path, i.serverSaid])).toEqual([[[], quoted]]);
  });

  test('probe: a 100 kB path segment is bounded', () => {
    const f = said(400, { detail: [{ loc: ['body', 'x'.repeat(100_000)], msg: 'bad' }] });
    expect(JSON.stringify(f.issues ?? []).length).toBeLessThan(5_000);
  });
});

describe('redaction probes: observedState of a semantic rejection', () => {
  test.each<[string, Record<string, string>, string]>([
    ['auth', { auth: 'Basic dXNlcjpwYXNz' }, 'dXNlcjpwYXNz'],
    ['pwd', { pwd: 'hunter2' }, 'hunter2'],
    ['privateKey', { privateKey: 'MIIEowIBAAKCAQEA' }, 'MIIEowIBAAKCAQEA'],
    ['accessKey', { accessKey: 'abcd1234' }, 'abcd1234'],
    ['bearer', { bearer: 'abc123' }, 'abc123'],
    ['otp', { otp: '123456' }, '123456'],
    ['passphrase', { passphrase: 'correct horse' }, 'correct horse'],
  ])('probe: a value under "%s" is dropped', (_label, holder, secret) => {
    const state = publicObservedState({ booking: { id: 'b1', holder: { ...holder, name: 'Ann' } } });
    expect(JSON.stringify(state)).not.toContain(secret);
    expect(state).toEqual({ booking: { id: 'b1', holder: { name: 'Ann' } } });
  });

  test('probe: observed-state and redact agree on what a secret key is (pwd, private_key, access_key, passphrase)', () => {
    expect(publicObservedState({ pwd: 'a1', private_key: 'b2', access_key: 'c3', passphrase: 'd4' })).toEqual({});
  });

  test('probe: a Basic credential and a host in an observed message are redacted', () => {
    expect(
      publicObservedState({ message: 'slot taken; upstream said Basic dXNlcjpwYXNz to orders-db.prod.acme.in' }),
    ).toEqual({ message: 'slot taken; upstream said Basic [redacted] to [host]' });
  });
});

describe('redaction probes: the structured fields a failure keeps (issue 27)', () => {
  test('a token a server puts in its `code` field is not kept as the failure code (it would reach the history)', () => {
    const token = 'sk-proj-ab3de6Fq9Zt0LmN2xYp8RsT4uVw';
    const f = said(422, { code: token, message: 'bad request' });
    expect(f.code).toBeUndefined();
    expect(JSON.stringify(f)).not.toContain('ab3de6Fq9Zt0');
    expect(said(422, { code: 'insufficient_funds', message: 'no funds' }).code).toBe('insufficient_funds');
  });

  test('the value a server echoes for a field named like a secret is never the repair feedback', () => {
    const f = said(422, {
      errors: [{ field: 'password', message: 'is too short', value: 'hunter2' }],
      message: 'Validation failed',
    });
    expect(JSON.stringify(f)).not.toContain('hunter2');
    for (const i of f.issues ?? [])
      if (i.path.at(-1) === 'password' && i.received !== '') expect(i.received).toBe('[redacted]');
  });
});

test('a token whose first digits pass as a card number is redacted whole (fast-check seed 1759536113)', () => {
  expect(publicText(' 5393642918522a00000c0a00 ', 10_000)).toBe('[redacted]');
  expect(publicText('card 4242424242424242 declined', 10_000)).toBe('card [redacted] declined');
});
