import { redact } from '../../recovery/redact';
const samples = [
  'amountCents must be a positive integer', 'slot 10:00 is taken', 'meeting at 10:00:00 tomorrow',
  'Error: boom\n    at foo (/app/src/x.js:12:3)\n    at async Promise.all (index 0)\n    at /app/y.js:1:1\nnext',
  'failed to open C:\\Users\\bob\\secrets.txt and /etc/passwd/x and ./src/a.ts:3',
  'GET https://user:pw@api.stripe.com/v1/x?token=abc failed', 'host db-1.prod.internal:5432 down', 'connect ECONNREFUSED 127.0.0.1:36611',
  'addr ::1 and fe80::1ff:fe23:4567:890a and [2001:db8::1]:443 std::vector',
  'Authorization: Bearer abcdef123456\nok line', '{"authorization": "Bearer abc", "password": "hunter2", "max_tokens": 100}',
  'key sk-proj-abcdefghijklmnop1234 ghp_abcdefghijklmnopqrstuvwxyz0123 xoxb-1234-5678-abcdef AKIAIOSFODNN7EXAMPLE',
  'jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc_def', 'password=hunter2&token=x api_key: "a b"', 'Set-Cookie: sid=1; Path=/',
  'see index.ts and package.json, e.g. amount.value', 'Bearer error', 'digest 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  'customer cus_42 not found; id 123e4567-e89b-12d3-a456-426614174000', 'secret="[redacted]"', 'Token: [redacted]',
];
for (const s of samples) { const r = redact(s); console.log(JSON.stringify(s), '\n  →', JSON.stringify(r), redact(r) === r ? '' : 'NOT IDEMPOTENT ' + JSON.stringify(redact(r))); }
test('x',()=>{});
for (const s of ['  at least 3 characters (got 2)', 'at 10:00:00 we start', '    at Object.<anonymous> (/x/y.test.ts:1:2)', '    at new Foo (C:\\a\\b.js:1:2)', '    at node:internal/deps/undici/undici:14976:13', '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)','\tat com.foo.Bar.baz(Bar.java:42)']) console.log(JSON.stringify(s), '→', JSON.stringify(redact(s)));
