/**
 * Attack probes: secrets smuggled into model-visible text (publicMessage, issues, observedState) through HTTP
 * bodies. Each case names the secret that must not survive; a failing case is a leak.
 */
import { classify, publicObservedState } from '../../../recovery';

const ctx = { tool: 't', callId: 'c', effect: 'read' as const, deduplicates: false, approvalCanLift: true, nowMs: 1_700_000_000_000, diagnosticRef: 'd' };
const said = (status: number, body: unknown, headers: Record<string, string> = {}) => classify({ kind: 'http', status, headers, body } as never, ctx);

describe('publicMessage quoting a server message', () => {
  test.each([
    ['prose password', 'Login failed for user admin with password hunter2', 'hunter2'],
    ['short letters-only Basic credential', 'upstream rejected Basic dXNlcjpwYXNz', 'dXNlcjpwYXNz'],
    ['19-letter bearer token', 'auth: Bearer abcdefghijklmnopqrs', 'abcdefghijklmnopqrs'],
    ['zero-width joiner inside Bearer', 'Bear\u200der abcd1234efgh5678ijkl', 'abcd1234efgh5678ijkl'],
    ['full-width Bearer', 'Ｂｅａｒｅｒ abcd1234efgh5678ijkl', 'abcd1234efgh5678ijkl'],
    ['percent-encoded Authorization header', 'Authorization%3A%20Bearer%20abcd1234efgh5678', 'abcd1234efgh5678'],
    ['percent-encoded access_token=', 'access_token%3Dabcd1234efgh5678', 'abcd1234efgh5678'],
    ['SAS sig= query fragment', 'sv=2020-08-04&sig=vnb3Rk%2BZ5mN9a%3D', 'vnb3Rk'],
    ['"token is …" prose', 'token is abc123def456', 'abc123def456'],
    ['pass= key', 'pass=hunter2', 'hunter2'],
    ['secret_value= key (secret not at the end)', 'secret_value=hunter2', 'hunter2'],
    ['header name without colon', 'X-Api-Key abcd1234efgh5678', 'abcd1234efgh5678'],
    ['Google OAuth access token', 'ya29.a0AfH6SMBx-Kq3aB_cD9-eF1gH2iJ3kL4mN', 'a0AfH6SMBx'],
    ['host with a TLD outside the list', 'could not connect to orders-db.prod.acme.in:5432', 'orders-db'],
    ['host partly matched', 'could not connect to db01.corp.acme.it:5432', 'acme.it'],
    ['single-label host', 'connect ECONNREFUSED orders-db-primary:5432', 'orders-db-primary'],
    ['userinfo before an IP', 'user:p4ss@10.1.2.3', 'p4ss'],
    ['IPv4-mapped IPv6', 'from ::ffff:10.0.0.1', '0.0.1'],
    ['slack webhook without scheme', 'hooks.slack.com/services/T000/B000/XXXXXXXX', 'XXXXXXXX'],
  ])('%s', (_label, message, secret) => {
    expect(said(409, { message }).publicMessage).not.toContain(secret);
  });
  test('control characters (ANSI escapes, bidi overrides) are not passed through to the model / operator CLI', () => {
    const m = said(403, { message: '\u001b[2J\u001b]0;owned\u0007 approve \u202eevil' }).publicMessage;
    expect(m).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069]/);
  });
});

describe('field issues taken from a 400/422 body', () => {
  test.each([
    ['URL with a token in a field name', { errors: [{ field: 'https://internal.corp.example:8443/v1/x?token=abc123secret', message: 'bad' }] }, 'abc123secret'],
    ['Authorization header in a FastAPI loc', { detail: [{ loc: ['body', 'Authorization: Bearer sk-live-abcdefghijklmnop1234'], msg: 'bad' }] }, 'sk-live-abcdefghijklmnop1234'],
    ['file path in a loc', { detail: [{ loc: ['body', '/srv/app/secrets.py'], msg: 'bad' }] }, '/srv/app'],
    ['password=… as a Rails error key', { errors: { 'password=hunter2': ['wrong'] } }, 'hunter2'],
    ['IP as a JSON:API pointer segment', { errors: [{ source: { pointer: '/data/attributes/10.0.0.5' }, detail: 'bad' }] }, '10.0.0.5'],
  ])('%s: issues[].path is redacted like the rest', (_label, body, secret) => {
    const f = said(400, body);
    expect(JSON.stringify(f.issues ?? [])).not.toContain(secret);
  });
  test('a 100 kB path segment is bounded', () => {
    const f = said(400, { detail: [{ loc: ['body', 'x'.repeat(100_000)], msg: 'bad' }] });
    expect(JSON.stringify(f.issues ?? []).length).toBeLessThan(5_000);
  });
});

describe('observedState of a semantic rejection', () => {
  test.each([
    ['auth', { auth: 'Basic dXNlcjpwYXNz' }, 'dXNlcjpwYXNz'],
    ['pwd', { pwd: 'hunter2' }, 'hunter2'],
    ['privateKey', { privateKey: 'MIIEowIBAAKCAQEA' }, 'MIIEowIBAAKCAQEA'],
    ['accessKey', { accessKey: 'abcd1234' }, 'abcd1234'],
    ['bearer', { bearer: 'abc123' }, 'abc123'],
    ['refresh', { refresh: 'r123' }, 'r123'],
    ['otp', { otp: '123456' }, '123456'],
    ['passphrase', { passphrase: 'correct horse' }, 'correct horse'],
  ])('a value under "%s" is dropped', (_label, holder, secret) => {
    expect(JSON.stringify(publicObservedState({ booking: { id: 'b1', holder } }))).not.toContain(secret);
  });
  test('observed-state and redact agree on what a secret key is (pwd, private_key, access_key are secret in redact)', () => {
    const body = { pwd: 'a1', private_key: 'b2', access_key: 'c3', passphrase: 'd4' };
    expect(publicObservedState(body)).toEqual({});
  });
});
