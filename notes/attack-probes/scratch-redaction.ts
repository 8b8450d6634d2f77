import { classify, redact, publicObservedState, classifyZodError } from './recovery';
import { z } from 'zod';
const ctx = { tool: 't', callId: 'c', effect: 'write' as const, deduplicates: false, approvalCanLift: false, nowMs: 1_700_000_000_000, diagnosticRef: 'd' };
const http = (status: number, body: unknown, headers: Record<string, string> = {}) => classify({ kind: 'http', status, headers, body } as never, ctx);
const msgs = [
  'Login failed for user admin with password hunter2',
  'upstream rejected Basic dXNlcjpwYXNz',
  'auth: Bearer abcdefghijklmnopqrs',
  'Bear\u200der abcd1234efgh5678ijkl',
  'Ｂｅａｒｅｒ abcd1234efgh5678ijkl',
  'Ａｕｔｈｏｒｉｚａｔｉｏｎ: Bearer-ish qwerty123',
  'Authorization%3A%20Bearer%20abcd1234efgh5678',
  'access_token%3Dabcd1234efgh5678',
  'sv=2020-08-04&sig=vnb3Rk%2BZ5mN9a%3D',
  'token is abc123def456',
  'could not connect to orders-db.prod.acme.in:5432',
  'could not connect to db01.corp.acme.it:5432',
  'connect ECONNREFUSED orders-db-primary:5432',
  'x-api-key=AbCdEf123456',
  'X-Api-Key abcd1234efgh5678',
  'cookie sessionid=abc123',
  'ya29.a0AfH6SMBx-Kq3aB_cD9-eF1gH2iJ3kL4mN',
  'password: "hunter2 with spaces"',
  '"password":"hunter2\\"x"',
  'pass=hunter2',
  'secret_value=hunter2',
  'privkey=-----BEGIN PRIVATE KEY-----',
  'at Object.<anonymous> (/srv/app/index.js:10:5)',
  'at charge (webpack-internal:///./src/pay.ts:12:3)',
  'Traceback: /home/deploy/app/payments/charge.py line 42',
  'at java.base/jdk.internal.Foo.bar(Foo.java:42)',
  'error in C:/Users/admin/app/db.js',
  'see \\\\fileserver\\share\\secrets.txt',
  'AKIA' + 'ABCDEFGHIJKLMNOP',
  'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  'mongodb+srv://user:p4ss@cluster0.mongodb.net/db',
  'user:p4ss@10.1.2.3',
  'IPv6 fe80::1%eth0 and ::ffff:10.0.0.1',
  '0x0A000001 or 167772161 (decimal ip)',
  'hooks.slack.com/services/T000/B000/XXXXXXXX',
  'session=eyJhbGciOi.eyJzdWIi.sig',
];
for (const m of msgs) {
  const f = http(409, { message: m });
  console.log(JSON.stringify(m), '\n   →', JSON.stringify(f.publicMessage.replace(/^t: HTTP 409, the call conflicts with the current state of the resource\. /, '')));
}
console.log('\n--- issues[].path from body');
for (const body of [
  { errors: [{ field: 'https://internal.corp.example:8443/v1/x?token=abc123secret', message: 'bad' }] },
  { errors: [{ loc: ['body', 'Authorization: Bearer sk-live-abcdefghijklmnop1234', '/srv/app/secrets.py'], msg: 'bad' }] },
  { errors: { 'password=hunter2': ['wrong'] } },
  { detail: [{ loc: ['10.0.0.5', 'x'.repeat(100000)], msg: 'bad' }] },
]) {
  const f = http(400, body);
  console.log(JSON.stringify(f.issues?.map((i) => i.path)).slice(0, 300), '| publicMessage:', f.publicMessage.slice(0, 200));
}
console.log('\n--- observedState');
const bodies = [
  { booking: { id: 'b1', holder: { auth: 'Basic dXNlcjpwYXNz', pwd: 'hunter2', privateKey: 'MIIEowIBAAKCAQEA', pin: '4921', accessKey: 'abcd1234', otp: '123456', jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc', bearer: 'abc123' } } },
  { items: [[[[{ password: 'deep' }]]]] },
  { 'x-amz-security-token': 'FwoGZXIvYXdzEB', 'Set-Cookie': 'sid=abc', 'X-Api-Key': 'k', 'client_secret': 's', 'refresh': 'r123' },
  JSON.parse('{"__proto__": {"leak": "x"}, "ok": 1}'),
];
for (const b of bodies) console.log(JSON.stringify(publicObservedState(b)));
console.log('\n--- zod received on odd inputs');
const schema = z.object({ n: z.number(), s: z.string().max(3) }).strict();
for (const input of [
  { n: 'Bearer abcdefghijklmnopqrstu', s: 'x' },
  { n: { authorization: 'Basic dXNlcjpwYXNz' }, s: 'x' },
  { n: 1, s: 'Ａｕｔｈ: sk-live-ＡＢＣＤＥＦ１２３４５６７８９０' },
  { n: 1, s: 'x'.repeat(70) + ' sk-abcdefghijklmnopqrstuvwxyz' },
  { n: 1, s: 'ok', 'sk-live-abcdefghijklmnop1234': 1, ['/etc/passwd']: 2 },
]) {
  const r = schema.safeParse(input);
  if (r.success) continue;
  const f = classifyZodError(r.error, { ...ctx, effect: 'read' }, { input, schema });
  console.log(JSON.stringify(f.issues?.map((i) => [i.path, i.received])), '\n   ', f.publicMessage.slice(0, 300));
}
