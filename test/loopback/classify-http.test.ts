/**
 * Loopback tests of HTTP classification: a node:http server on 127.0.0.1 (port 0) answers each status with
 * realistic headers and bodies; Node 20's global `fetch` reads it; the adapter hands status, headers (as the
 * WHATWG `Headers` object, and as a plain record) and body text to `classify`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { classify, type CallContext, type RawOutcome } from '../../recovery/classify';
import { toolFailureSchema } from '../../recovery/failure';

/** 2026-10-01T12:00:00Z: the server's HTTP-date answers are relative to this. */
const NOW_MS = Date.UTC(2026, 9, 1, 12, 0, 0);
const ctx = (effect: 'read' | 'write', over: Partial<CallContext> = {}): CallContext => ({
  tool: effect === 'read' ? 'list_docs' : 'withdraw',
  callId: 'call-1',
  effect,
  deduplicates: false,
  approvalCanLift: false,
  nowMs: NOW_MS,
  diagnosticRef: 'diag-1',
  ...over,
});

type Answer = { status: number; headers?: Record<string, string>; body?: string };
const json = (status: number, body: unknown, headers: Record<string, string> = {}): Answer => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

/** Path → the answer the fake service gives. */
const ANSWERS: Record<string, Answer> = {
  '/400': json(400, { error: { code: 'invalid_request', message: 'amount must be a number' } }),
  '/401': json(401, { error: 'unauthorized' }, { 'www-authenticate': 'Bearer realm="api"' }),
  '/401-expired': json(
    401,
    { error: 'invalid_token' },
    { 'www-authenticate': 'Bearer realm="api", error="invalid_token", error_description="expired"' },
  ),
  '/403': json(403, { message: 'Forbidden' }),
  '/403-policy': json(403, { code: 'policy_denied', message: 'transfers above 10000 are denied' }),
  '/403-github-rate': json(
    403,
    { message: 'API rate limit exceeded' },
    { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW_MS / 1000 + 60) },
  ),
  '/404': { status: 404, headers: { 'content-length': '0' }, body: '' },
  '/404-account': json(404, { code: 'account_not_found' }),
  '/408': { status: 408, headers: { connection: 'close' }, body: '' },
  '/409': json(409, { code: 'conflict', message: 'intent already confirmed' }),
  '/410': json(410, { code: 'gone' }),
  '/412': json(412, { code: 'precondition_failed', message: 'etag mismatch' }),
  '/422-funds': json(422, { code: 'insufficient_funds' }),
  '/422-fields': json(422, {
    detail: [{ loc: ['body', 'amount'], msg: 'Input should be greater than 0', type: 'greater_than', input: -5 }],
  }),
  '/425': { status: 425, body: 'Too Early' },
  '/429': json(429, { error: 'rate_limited' }, { 'retry-after': '3' }),
  '/429-date': json(429, { error: 'rate_limited' }, { 'retry-after': 'Thu, 01 Oct 2026 12:00:03 GMT' }),
  '/429-ms': json(429, { error: { type: 'requests', code: 'rate_limit_exceeded' } }, { 'retry-after-ms': '1500' }),
  '/429-ietf': json(
    429,
    { error: 'rate_limited' },
    { ratelimit: '"default";r=0;t=7', 'ratelimit-policy': '"default";q=100;w=60' },
  ),
  '/500': json(500, { error: 'internal', message: 'NullPointerException at com.acme.Ledger.post(Ledger.java:88)' }),
  '/502': {
    status: 502,
    headers: { 'content-type': 'text/html' },
    body: '<html><body><h1>502 Bad Gateway</h1></body></html>',
  },
  '/503': json(503, { error: 'maintenance' }, { 'retry-after': '2' }),
  '/504': { status: 504, headers: { 'content-type': 'text/plain' }, body: 'upstream timed out (10.2.3.4:8080)' },
  '/418': { status: 418, body: "I'm a teapot" },
  '/599': { status: 599, body: '' },
};

let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    const answer = ANSWERS[req.url ?? ''] ?? { status: 500, body: 'no such fixture' };
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/**
 * The adapter: status, headers and body of a real answer, never a flattened string (docs/DESIGN.md, "Failure classes
 * and the two axes").
 */
async function call(path: string, as: 'headers' | 'record' = 'headers'): Promise<RawOutcome> {
  const res = await fetch(`${base}${path}`, { method: 'POST', body: '{}' });
  const body = await res.text();
  return {
    kind: 'http',
    status: res.status,
    headers: as === 'headers' ? res.headers : Object.fromEntries(res.headers.entries()),
    body,
  };
}

type Expect = {
  class: string;
  reason: string;
  retryable: boolean;
  replaySafe: boolean;
  phase?: string;
  retryAfterMs?: number;
};
const rows: [string, string, CallContext, Expect][] = [
  [
    '400 → invalid_arguments/schema',
    '/400',
    ctx('write'),
    { class: 'invalid_arguments', reason: 'schema', retryable: false, replaySafe: true },
  ],
  [
    '401 → authentication/credential_missing',
    '/401',
    ctx('read'),
    { class: 'authentication', reason: 'credential_missing', retryable: false, replaySafe: true },
  ],
  [
    '401 Bearer error="invalid_token" → authentication/credential_expired (RFC 6750 §3.1)',
    '/401-expired',
    ctx('write'),
    { class: 'authentication', reason: 'credential_expired', retryable: false, replaySafe: true },
  ],
  [
    '403 → authorization/forbidden',
    '/403',
    ctx('write'),
    { class: 'authorization', reason: 'forbidden', retryable: false, replaySafe: true },
  ],
  [
    '403 with approval possible → authorization/approval_required',
    '/403',
    ctx('write', { approvalCanLift: true }),
    { class: 'authorization', reason: 'approval_required', retryable: false, replaySafe: true },
  ],
  [
    '403 {"code":"policy_denied"} → authorization/policy_denied',
    '/403-policy',
    ctx('write'),
    { class: 'authorization', reason: 'policy_denied', retryable: false, replaySafe: true },
  ],
  [
    '403 with X-RateLimit-Remaining: 0 (GitHub) → transient/rate_limited, retryAfterMs 60000',
    '/403-github-rate',
    ctx('read'),
    { class: 'transient', reason: 'rate_limited', retryable: true, replaySafe: true, retryAfterMs: 60_000 },
  ],
  [
    '404 with an empty body → semantic_rejection/not_found (docs/DESIGN.md, "Failure classes and the two axes")',
    '/404',
    ctx('read'),
    { class: 'semantic_rejection', reason: 'not_found', retryable: false, replaySafe: true },
  ],
  [
    '404 {"code":"account_not_found"} → semantic_rejection/not_found (the structured code kept)',
    '/404-account',
    ctx('write'),
    { class: 'semantic_rejection', reason: 'not_found', retryable: false, replaySafe: true },
  ],
  [
    '408 on a write → transient/timeout, replaySafe',
    '/408',
    ctx('write'),
    { class: 'transient', reason: 'timeout', retryable: true, replaySafe: true, phase: 'dispatch' },
  ],
  [
    '409 → semantic_rejection/conflict',
    '/409',
    ctx('write'),
    { class: 'semantic_rejection', reason: 'conflict', retryable: false, replaySafe: true },
  ],
  [
    '410 → semantic_rejection/gone',
    '/410',
    ctx('read'),
    { class: 'semantic_rejection', reason: 'gone', retryable: false, replaySafe: true },
  ],
  [
    '412 → semantic_rejection/precondition_failed',
    '/412',
    ctx('write'),
    { class: 'semantic_rejection', reason: 'precondition_failed', retryable: false, replaySafe: true },
  ],
  [
    '422 {"code":"insufficient_funds"} → semantic_rejection/business_rule (docs/DESIGN.md, "Failure classes and the two axes")',
    '/422-funds',
    ctx('write'),
    { class: 'semantic_rejection', reason: 'business_rule', retryable: false, replaySafe: true },
  ],
  [
    '422 with FastAPI field errors → invalid_arguments/schema',
    '/422-fields',
    ctx('write'),
    { class: 'invalid_arguments', reason: 'schema', retryable: false, replaySafe: true },
  ],
  [
    '425 on a write → transient, replaySafe',
    '/425',
    ctx('write'),
    { class: 'transient', reason: 'unavailable', retryable: true, replaySafe: true },
  ],
  [
    '429 Retry-After: 3 → transient/rate_limited, retryAfterMs 3000 (RFC 9110 §10.2.3)',
    '/429',
    ctx('write'),
    { class: 'transient', reason: 'rate_limited', retryable: true, replaySafe: true, retryAfterMs: 3000 },
  ],
  [
    '429 Retry-After as an HTTP-date 3 s ahead of ctx.nowMs → retryAfterMs 3000 exactly',
    '/429-date',
    ctx('read'),
    { class: 'transient', reason: 'rate_limited', retryable: true, replaySafe: true, retryAfterMs: 3000 },
  ],
  [
    '429 retry-after-ms: 1500 → retryAfterMs 1500',
    '/429-ms',
    ctx('read'),
    { class: 'transient', reason: 'rate_limited', retryable: true, replaySafe: true, retryAfterMs: 1500 },
  ],
  [
    '429 RateLimit: "default";r=0;t=7 → retryAfterMs 7000',
    '/429-ietf',
    ctx('read'),
    { class: 'transient', reason: 'rate_limited', retryable: true, replaySafe: true, retryAfterMs: 7000 },
  ],
  [
    '500 on a read → transient, retryable',
    '/500',
    ctx('read'),
    { class: 'transient', reason: 'unavailable', retryable: true, replaySafe: true, phase: 'dispatch' },
  ],
  [
    '500 on a write without dedup → outcome_unknown in commit_unknown',
    '/500',
    ctx('write'),
    { class: 'outcome_unknown', reason: 'unavailable', retryable: false, replaySafe: false, phase: 'commit_unknown' },
  ],
  [
    '500 on a deduplicated write → transient, retryable',
    '/500',
    ctx('write', { deduplicates: true }),
    { class: 'transient', reason: 'unavailable', retryable: true, replaySafe: true, phase: 'commit_unknown' },
  ],
  [
    '502 on a write → outcome_unknown',
    '/502',
    ctx('write'),
    { class: 'outcome_unknown', reason: 'unavailable', retryable: false, replaySafe: false },
  ],
  [
    '503 Retry-After: 2 on a write → transient/unavailable, replaySafe, retryAfterMs 2000',
    '/503',
    ctx('write'),
    {
      class: 'transient',
      reason: 'unavailable',
      retryable: true,
      replaySafe: true,
      retryAfterMs: 2000,
      phase: 'dispatch',
    },
  ],
  [
    '504 on a read → transient/timeout',
    '/504',
    ctx('read'),
    { class: 'transient', reason: 'timeout', retryable: true, replaySafe: true },
  ],
  [
    '504 on a write → outcome_unknown/timeout',
    '/504',
    ctx('write'),
    { class: 'outcome_unknown', reason: 'timeout', retryable: false, replaySafe: false },
  ],
  [
    '418 (other 4xx) → semantic_rejection/unspecified',
    '/418',
    ctx('read'),
    { class: 'semantic_rejection', reason: 'unspecified', retryable: false, replaySafe: true },
  ],
  [
    '599 (other 5xx) on a write → outcome_unknown',
    '/599',
    ctx('write'),
    { class: 'outcome_unknown', reason: 'unavailable', retryable: false, replaySafe: false },
  ],
];

describe('loopback: real HTTP answers', () => {
  it.each(rows)('classify: %s', async (_name, path, c, expected) => {
    for (const as of ['headers', 'record'] as const) {
      const f = classify(await call(path, as), c);
      expect(toolFailureSchema().safeParse(f).success).toBe(true);
      expect({ class: f.class, reason: f.reason, retryable: f.retryable, replaySafe: f.replaySafe }).toEqual({
        class: expected.class,
        reason: expected.reason,
        retryable: expected.retryable,
        replaySafe: expected.replaySafe,
      });
      expect(f.retryAfterMs).toBe(expected.retryAfterMs);
      if (expected.phase) expect(f.phase).toBe(expected.phase);
      expect(f.status).toBe(Number(path.slice(1, 4)));
    }
  });

  it('classify: 422 FastAPI field errors become field issues', async () => {
    expect(classify(await call('/422-fields'), ctx('write')).issues).toEqual([
      {
        path: ['amount'],
        expected: 'a value the server accepts',
        received: '-5',
        suggestion: 'fix amount and call again',
        serverSaid: 'Input should be greater than 0',
      },
    ]);
  });

  it("classify: the 500 body's stack frame and the 504 body's address are redacted; no header is echoed", async () => {
    const f500 = classify(await call('/500'), ctx('read'));
    expect([f500.publicMessage, f500.serverSaid]).toEqual([
      'list_docs: HTTP 500, server error; the read can be retried.',
      'internal: NullPointerException [stack]',
    ]);
    const f504 = classify(await call('/504'), ctx('read'));
    expect([f504.publicMessage, f504.serverSaid]).toEqual([
      'list_docs: HTTP 504, server error; the read can be retried.',
      'upstream timed out ([ip])',
    ]);
    const f401 = classify(await call('/401-expired'), ctx('read'));
    expect(f401.publicMessage).not.toContain('realm');
  });
});
