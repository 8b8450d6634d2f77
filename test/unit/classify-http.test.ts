/**
 * Unit tests of the HTTP classifier (recovery/classify/http.ts) through `classify`: no workers, no servers.
 * Real HTTP answers over a socket are in test/loopback/classify-http.test.ts.
 */
import { classify, ClassifyError, type RawOutcome } from '../../recovery/classify';
import { toolFailureSchema } from '../../recovery/failure';
import { ctxOf, NOW_MS, READ, WRITE, WRITE_DEDUP } from './classify-helpers';

const http = (status: number, headers: Record<string, string | string[]> = {}, body?: unknown): RawOutcome => ({
  kind: 'http',
  status,
  headers,
  body,
});
/** The routing fields of a failure. */
const core = (f: ReturnType<typeof classify>) => ({
  class: f.class,
  reason: f.reason,
  phase: f.phase,
  retryable: f.retryable,
  replaySafe: f.replaySafe,
  retryAfterMs: f.retryAfterMs,
  status: f.status,
});

describe('classify: HTTP statuses', () => {
  type Row = [string, RawOutcome, ReturnType<typeof ctxOf>, Partial<ReturnType<typeof core>>];
  const rows: Row[] = [
    [
      '400 → invalid_arguments/schema, not retryable',
      http(400, {}, { message: 'bad' }),
      READ,
      {
        class: 'invalid_arguments',
        reason: 'schema',
        phase: 'dispatch',
        retryable: false,
        replaySafe: true,
        status: 400,
      },
    ],
    [
      '401 without a challenge → authentication/credential_missing, replaySafe, not retryable',
      http(401),
      WRITE,
      { class: 'authentication', reason: 'credential_missing', phase: 'dispatch', retryable: false, replaySafe: true },
    ],
    [
      '401 with Bearer error="invalid_token" → authentication/credential_expired',
      http(401, { 'WWW-Authenticate': 'Bearer realm="api", error="invalid_token", error_description="expired"' }),
      READ,
      { class: 'authentication', reason: 'credential_expired', retryable: false, replaySafe: true },
    ],
    [
      '401 with body {"error":"invalid_token"} → credential_expired',
      http(401, {}, { error: 'invalid_token' }),
      READ,
      { reason: 'credential_expired' },
    ],
    [
      '401 with Bearer error="invalid_request" → credential_missing',
      http(401, { 'www-authenticate': 'Bearer error="invalid_request"' }),
      READ,
      { reason: 'credential_missing' },
    ],
    [
      '403 → authorization/forbidden, never retryable',
      http(403),
      WRITE,
      { class: 'authorization', reason: 'forbidden', retryable: false, replaySafe: true },
    ],
    [
      '403 when approval can lift it → approval_required',
      http(403),
      ctxOf({ approvalCanLift: true }),
      { class: 'authorization', reason: 'approval_required', retryable: false },
    ],
    [
      '403 {"code":"policy_denied"} → policy_denied, even when approval could lift a plain 403',
      http(403, {}, { code: 'policy_denied' }),
      ctxOf({ approvalCanLift: true }),
      { class: 'authorization', reason: 'policy_denied' },
    ],
    [
      '403 {"error":{"code":"policy_violation"}} → policy_denied',
      http(403, {}, { error: { code: 'policy_violation', message: 'no' } }),
      READ,
      { reason: 'policy_denied' },
    ],
    [
      '403 with X-RateLimit-Remaining: 0 and an epoch reset 60 s ahead → transient/rate_limited, retryAfterMs 60000',
      http(403, { 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(NOW_MS / 1000 + 60) }),
      WRITE,
      { class: 'transient', reason: 'rate_limited', retryable: true, replaySafe: true, retryAfterMs: 60_000 },
    ],
    [
      '403 with Retry-After: 60 → transient/rate_limited, retryAfterMs 60000',
      http(403, { 'Retry-After': '60' }),
      READ,
      { class: 'transient', reason: 'rate_limited', retryAfterMs: 60_000 },
    ],
    [
      '403 with RateLimit-Remaining: 0 → rate_limited, no delay hint',
      http(403, { 'RateLimit-Remaining': '0' }),
      READ,
      { class: 'transient', reason: 'rate_limited', retryAfterMs: undefined },
    ],
    [
      '403 with RateLimit: "default";r=0;t=30 → rate_limited, retryAfterMs 30000',
      http(403, { RateLimit: '"default";r=0;t=30' }),
      READ,
      { reason: 'rate_limited', retryAfterMs: 30_000 },
    ],
    [
      '403 {"message":"secondary_rate_limit"} code → rate_limited',
      http(403, {}, { code: 'secondary_rate_limit' }),
      READ,
      { reason: 'rate_limited' },
    ],
    [
      '404 → semantic_rejection/not_found, not retryable (docs/DESIGN.md, "Failure classes and the two axes")',
      http(404, { 'content-length': '0' }, ''),
      READ,
      { class: 'semantic_rejection', reason: 'not_found', retryable: false, replaySafe: true },
    ],
    [
      '404 {"code":"account_not_found"} → semantic_rejection/not_found (the structured code kept)',
      http(404, {}, { code: 'account_not_found' }),
      WRITE,
      { class: 'semantic_rejection', reason: 'not_found', retryable: false },
    ],
    [
      '408 on a write → transient/timeout, replaySafe (not processed)',
      http(408),
      WRITE,
      { class: 'transient', reason: 'timeout', phase: 'dispatch', retryable: true, replaySafe: true },
    ],
    [
      '409 → semantic_rejection/conflict',
      http(409),
      WRITE,
      { class: 'semantic_rejection', reason: 'conflict', retryable: false },
    ],
    [
      '410 → semantic_rejection/gone',
      http(410),
      READ,
      { class: 'semantic_rejection', reason: 'gone', retryable: false },
    ],
    [
      '412 → semantic_rejection/precondition_failed',
      http(412),
      WRITE,
      { class: 'semantic_rejection', reason: 'precondition_failed', retryable: false },
    ],
    [
      '422 {"code":"insufficient_funds"} → semantic_rejection/business_rule, not retryable (docs/DESIGN.md, "Failure classes and the two axes")',
      http(422, {}, { code: 'insufficient_funds' }),
      WRITE,
      {
        class: 'semantic_rejection',
        reason: 'business_rule',
        phase: 'dispatch',
        retryable: false,
        replaySafe: true,
        status: 422,
      },
    ],
    [
      '425 on a write → transient, replaySafe (not processed)',
      http(425),
      WRITE,
      { class: 'transient', reason: 'unavailable', retryable: true, replaySafe: true },
    ],
    [
      '429 with Retry-After: 3 → transient/rate_limited, retryAfterMs 3000 (RFC 9110 §10.2.3)',
      http(429, { 'Retry-After': '3' }, { error: 'rate_limited' }),
      WRITE,
      {
        class: 'transient',
        reason: 'rate_limited',
        phase: 'dispatch',
        retryable: true,
        replaySafe: true,
        retryAfterMs: 3000,
      },
    ],
    [
      '429 with an HTTP-date 3 s ahead → retryAfterMs 3000',
      http(429, { 'retry-after': 'Thu, 01 Oct 2026 12:00:03 GMT' }),
      READ,
      { retryAfterMs: 3000 },
    ],
    [
      '429 with retry-after-ms: 1500 → retryAfterMs 1500',
      http(429, { 'retry-after-ms': '1500' }),
      READ,
      { retryAfterMs: 1500 },
    ],
    [
      '429 with a garbage Retry-After and RateLimit-Reset: 4 → retryAfterMs 4000',
      http(429, { 'Retry-After': 'soon', 'RateLimit-Reset': '4' }),
      READ,
      { retryAfterMs: 4000 },
    ],
    [
      '429 without any delay → rate_limited, no retryAfterMs',
      http(429),
      READ,
      { class: 'transient', reason: 'rate_limited', retryAfterMs: undefined },
    ],
    [
      '429 {"error":{"code":"insufficient_quota"}} → unrecoverable (billing, not rate)',
      http(429, {}, { error: { code: 'insufficient_quota', message: 'You exceeded your current quota' } }),
      READ,
      { class: 'unrecoverable', retryable: false },
    ],
    [
      '500 on a read → transient/unavailable, retryable',
      http(500),
      READ,
      { class: 'transient', reason: 'unavailable', phase: 'dispatch', retryable: true, replaySafe: true },
    ],
    [
      '500 on a write without dedup → outcome_unknown in commit_unknown',
      http(500),
      WRITE,
      { class: 'outcome_unknown', reason: 'unavailable', phase: 'commit_unknown', retryable: false, replaySafe: false },
    ],
    [
      '500 on a deduplicated write → transient, retryable, commit_unknown',
      http(500),
      WRITE_DEDUP,
      { class: 'transient', phase: 'commit_unknown', retryable: true, replaySafe: true },
    ],
    [
      '502 on a write without dedup → outcome_unknown',
      http(502),
      WRITE,
      { class: 'outcome_unknown', phase: 'commit_unknown', replaySafe: false },
    ],
    ['504 on a read → transient/timeout', http(504), READ, { class: 'transient', reason: 'timeout', retryable: true }],
    [
      '504 on a write without dedup → outcome_unknown/timeout',
      http(504),
      WRITE,
      { class: 'outcome_unknown', reason: 'timeout' },
    ],
    [
      '503 with Retry-After: 2 on a write → transient/unavailable, replaySafe, retryAfterMs 2000 (RFC 9110 §10.2.3)',
      http(503, { 'Retry-After': '2' }),
      WRITE,
      {
        class: 'transient',
        reason: 'unavailable',
        phase: 'dispatch',
        retryable: true,
        replaySafe: true,
        retryAfterMs: 2000,
      },
    ],
    [
      '503 with X-RateLimit-Remaining: 0 → rate_limited',
      http(503, { 'x-ratelimit-remaining': '0' }),
      READ,
      { reason: 'rate_limited' },
    ],
    [
      '501 → unrecoverable (operation not supported)',
      http(501),
      READ,
      { class: 'unrecoverable', retryable: false, replaySafe: true },
    ],
    [
      '418 (other 4xx) → semantic_rejection/unspecified by family',
      http(418),
      READ,
      { class: 'semantic_rejection', reason: 'unspecified', retryable: false, replaySafe: true },
    ],
    [
      '405 → unrecoverable/tool_bug (the adapter used a wrong method)',
      http(405),
      READ,
      { class: 'unrecoverable', reason: 'tool_bug' },
    ],
    [
      '413 → invalid_arguments (a smaller call can pass)',
      http(413),
      WRITE,
      { class: 'invalid_arguments', reason: 'schema' },
    ],
    ['599 (other 5xx) on a write → outcome_unknown by family', http(599), WRITE, { class: 'outcome_unknown' }],
    ['599 (other 5xx) on a read → transient by family', http(599), READ, { class: 'transient', retryable: true }],
    // RFC 9110 §15.5.20: 421 may be retried on a new connection whatever the method (nothing was processed).
    [
      '421 on a write → transient, replay-safe',
      http(421),
      WRITE,
      { class: 'transient', reason: 'unavailable', retryable: true, replaySafe: true, phase: 'dispatch' },
    ],
    [
      '505 → unrecoverable/tool_bug (RFC 9110 §15.6.6)',
      http(505),
      READ,
      { class: 'unrecoverable', reason: 'tool_bug', retryable: false },
    ],
    [
      '507 on a write → unrecoverable, replay-safe: nothing was stored (RFC 4918 §11.5)',
      http(507),
      WRITE,
      { class: 'unrecoverable', reason: 'unspecified', replaySafe: true, phase: 'dispatch' },
    ],
    ['508 → unrecoverable (RFC 5842 §7.2)', http(508), WRITE, { class: 'unrecoverable', replaySafe: true }],
    ['510 → unrecoverable/tool_bug (RFC 2774 §7)', http(510), READ, { class: 'unrecoverable', reason: 'tool_bug' }],
    [
      '511 → unrecoverable (RFC 6585 §6: a captive portal)',
      http(511),
      WRITE,
      { class: 'unrecoverable', replaySafe: true },
    ],
    [
      '529 (Anthropic overloaded) on a write → transient, replay-safe',
      http(529),
      WRITE,
      { class: 'transient', reason: 'unavailable', retryable: true },
    ],
    [
      '530 (Cloudflare: origin unreachable) → unrecoverable, not retried',
      http(530),
      READ,
      { class: 'unrecoverable', retryable: false },
    ],
    // RFC 9110 §15.4: a redirect says where to go, not whether a write was applied (issue 35).
    [
      '302 (a redirect the adapter did not follow) on a read → unrecoverable/redirected with status 302',
      http(302),
      READ,
      { class: 'unrecoverable', reason: 'redirected', status: 302, replaySafe: true },
    ],
    [
      '307 on a write → outcome_unknown/redirected (reconcile), not replay-safe',
      http(307, { location: 'https://other.example/pay' }),
      WRITE,
      { class: 'outcome_unknown', reason: 'redirected', status: 307, phase: 'commit_unknown', replaySafe: false },
    ],
    [
      '101 → unrecoverable/tool_bug with status 101',
      http(101),
      READ,
      { class: 'unrecoverable', reason: 'tool_bug', status: 101 },
    ],
    [
      'an invalid status (NaN) → unrecoverable/tool_bug without status',
      { kind: 'http', status: Number.NaN, headers: {} },
      READ,
      { class: 'unrecoverable', reason: 'tool_bug', status: undefined },
    ],
  ];
  it.each(rows)('classify: %s', (_name, raw, ctx, expected) => {
    const f = classify(raw, ctx);
    expect(toolFailureSchema().safeParse(f).success).toBe(true);
    expect(core(f)).toMatchObject(expected);
    if ('retryAfterMs' in expected && expected.retryAfterMs === undefined) expect(f.retryAfterMs).toBeUndefined();
    expect(Object.isFrozen(f)).toBe(true);
    expect(f.tool).toBe(ctx.tool);
    expect(f.callId).toBe('call-1');
    expect(f.diagnosticRef).toBe('diag-1');
  });

  it('classify: a 2xx answer → ClassifyError not_a_failure', () => {
    expect(() => classify(http(200), READ)).toThrow(ClassifyError);
    try {
      classify(http(204), READ);
    } catch (e) {
      expect((e as ClassifyError).code).toBe('not_a_failure');
      expect((e as Error).message).toBe(
        'classify: HTTP 204 is a success, not a failure; validate its body with validateResult',
      );
    }
  });
});

describe('classify: HTTP messages', () => {
  it('classify: 429 message names the status and the delay; the body code is serverSaid, not message text', () => {
    const f = classify(http(429, { 'Retry-After': '3' }, { error: 'rate_limited' }), READ);
    expect([f.publicMessage, f.serverSaid]).toEqual([
      'get_docs: HTTP 429, rate limited; retry after 3000 ms.',
      'rate_limited',
    ]);
  });

  it('classify: 422 insufficient_funds message', () => {
    const f = classify(http(422, {}, '{"code":"insufficient_funds","message":"balance too low"}'), WRITE);
    expect([f.publicMessage, f.serverSaid]).toEqual([
      'create_payment: HTTP 422, rejected by a business rule; the same call will be rejected again.',
      'insufficient_funds: balance too low',
    ]);
  });

  it('classify: a write 302 message says the redirect proves nothing and names no Location', () => {
    expect(classify(http(302, { location: 'https://sso.example/login?u=a' }), WRITE).publicMessage).toBe(
      'create_payment: HTTP 302, a redirect that is not followed after the write was sent; it may or may not have been applied. Check its status before any new attempt.',
    );
  });

  it('classify: a write 500 message tells the model to check the status before any new attempt', () => {
    expect(classify(http(500), WRITE).publicMessage).toBe(
      'create_payment: HTTP 500, server error after the write was sent; it may or may not have been applied. Check its status before any new attempt.',
    );
  });

  it('classify: headers are never echoed and body secrets are redacted', () => {
    const f = classify(
      http(
        500,
        {
          'set-cookie': 'sid=SECRETCOOKIE1',
          authorization: 'Bearer SECRETTOKEN123',
          'x-upstream': 'db-7.prod.internal',
        },
        { message: 'connect to db-7.prod.internal failed with password=hunter2 at /srv/app/db.js:12:3' },
      ),
      READ,
    );
    expect([f.publicMessage, f.serverSaid]).toEqual([
      'get_docs: HTTP 500, server error; the read can be retried.',
      'connect to [host] failed with password=[redacted] at [path]',
    ]);
    for (const secret of ['SECRETCOOKIE1', 'SECRETTOKEN123', 'db-7', 'hunter2', '/srv/app'])
      expect(JSON.stringify(f)).not.toContain(secret);
  });

  it('classify: a huge body message is cut so publicMessage stays within 500 characters', () => {
    const f = classify(http(400, {}, { message: 'x '.repeat(5000) }), READ);
    expect(f.publicMessage.length).toBeLessThanOrEqual(500);
  });

  it('classify: an HTML error page is not quoted', () => {
    expect(classify(http(502, {}, '<html><body>Bad Gateway</body></html>'), READ).publicMessage).toBe(
      'get_docs: HTTP 502, server error; the read can be retried.',
    );
  });
});

describe('classify: field-level errors in 400/422 bodies', () => {
  it('classify: 422 with errors[{field,message}] → invalid_arguments/schema with one issue per field', () => {
    const f = classify(
      http(
        422,
        {},
        {
          errors: [
            { field: 'amountCents', message: 'must be a positive integer' },
            { field: 'items[0].sku', message: 'unknown sku', value: 'X-1' },
          ],
        },
      ),
      WRITE,
    );
    expect(core(f)).toMatchObject({ class: 'invalid_arguments', reason: 'schema', retryable: false, replaySafe: true });
    expect(f.issues).toEqual([
      {
        path: ['amountCents'],
        expected: 'a value the server accepts',
        received: 'not reported',
        suggestion: 'fix amountCents and call again',
        serverSaid: 'must be a positive integer',
      },
      {
        path: ['items', 0, 'sku'],
        expected: 'a value the server accepts',
        received: '"X-1"',
        suggestion: 'fix items[0].sku and call again',
        serverSaid: 'unknown sku',
      },
    ]);
    expect(f.publicMessage).toBe(
      'create_payment: HTTP 422, 2 invalid arguments: amountCents: the server refused this value; items[0].sku: the server refused this value.',
    );
  });

  it('classify: 422 FastAPI detail[{loc,msg,input}] → issues with the body/query prefix stripped', () => {
    const f = classify(
      http(
        422,
        {},
        {
          detail: [{ loc: ['body', 'amount'], msg: 'Input should be greater than 0', type: 'greater_than', input: -5 }],
        },
      ),
      WRITE,
    );
    expect(f.issues).toEqual([
      {
        path: ['amount'],
        expected: 'a value the server accepts',
        received: '-5',
        suggestion: 'fix amount and call again',
        serverSaid: 'Input should be greater than 0',
      },
    ]);
  });

  it('classify: 422 JSON:API errors[].source.pointer → issue path from the pointer', () => {
    const f = classify(
      http(
        422,
        {},
        {
          errors: [
            {
              status: '422',
              source: { pointer: '/data/attributes/first-name' },
              title: 'Invalid Attribute',
              detail: 'First name must contain at least two characters.',
            },
          ],
        },
      ),
      WRITE,
    );
    expect(f.issues).toEqual([
      {
        path: ['first-name'],
        expected: 'a value the server accepts',
        received: 'not reported',
        suggestion: 'fix first-name and call again',
        serverSaid: 'First name must contain at least two characters.',
      },
    ]);
  });

  it('classify: 400 with Rails-style errors map → issues', () => {
    const f = classify(http(400, {}, { errors: { email: ['is invalid', 'is taken'] } }), WRITE);
    expect(f.issues).toEqual([
      {
        path: ['email'],
        expected: 'a value the server accepts',
        received: 'not reported',
        suggestion: 'fix email and call again',
        serverSaid: 'is invalid; is taken',
      },
    ]);
  });

  it('classify: 400 with Google fieldViolations → issues', () => {
    const f = classify(
      http(
        400,
        {},
        {
          error: { code: 400, details: [{ fieldViolations: [{ field: 'page_size', description: 'must be <= 100' }] }] },
        },
      ),
      READ,
    );
    expect(f.issues).toEqual([
      {
        path: ['page_size'],
        expected: 'a value the server accepts',
        received: 'not reported',
        suggestion: 'fix page_size and call again',
        serverSaid: 'must be <= 100',
      },
    ]);
  });

  it('classify: field messages and values are redacted', () => {
    const f = classify(
      http(
        422,
        {},
        {
          errors: [
            {
              field: 'webhook',
              message: 'host api.internal.corp unreachable',
              value: 'https://api.internal.corp/hook',
            },
          ],
        },
      ),
      WRITE,
    );
    expect(f.issues?.[0]).toEqual({
      path: ['webhook'],
      expected: 'a value the server accepts',
      received: '"[url]"',
      suggestion: 'fix webhook and call again',
      serverSaid: 'host [host] unreachable',
    });
  });
});
