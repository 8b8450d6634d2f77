/**
 * Unit tests of transport and thrown-error classification (recovery/classify/network.ts, thrown.ts,
 * wrapped-http.ts) with error objects shaped as Node 20 / undici raise them: no workers, no servers.
 * The same errors raised for real over loopback sockets are in test/loopback/classify-network.test.ts.
 */
import { classify } from '../../recovery/classify';
import { transportFacts } from '../../recovery/classify/network';
import { toolFailureSchema } from '../../recovery/failure';
import { READ, WRITE, WRITE_DEDUP } from './classify-helpers';

/** `new Error(message)` with Node's system-error fields. */
function sysError(message: string, fields: Record<string, unknown>): Error {
  return Object.assign(new Error(message), fields);
}
/** undici's `TypeError: fetch failed` with a cause. */
function fetchFailed(cause: unknown): TypeError {
  return new TypeError('fetch failed', { cause });
}
const thrown = (error: unknown, requestSent?: boolean) =>
  requestSent === undefined ? { kind: 'thrown' as const, error } : { kind: 'thrown' as const, error, requestSent };
const route = (f: ReturnType<typeof classify>) => ({
  class: f.class,
  reason: f.reason,
  phase: f.phase,
  retryable: f.retryable,
  replaySafe: f.replaySafe,
});

const refused = () =>
  fetchFailed(
    sysError('connect ECONNREFUSED 127.0.0.1:36611', {
      errno: -111,
      code: 'ECONNREFUSED',
      syscall: 'connect',
      address: '127.0.0.1',
      port: 36611,
    }),
  );
const dns = () =>
  fetchFailed(
    sysError('getaddrinfo ENOTFOUND api.example.com', {
      errno: -3008,
      code: 'ENOTFOUND',
      syscall: 'getaddrinfo',
      hostname: 'api.example.com',
    }),
  );
const socketClosed = (bytesWritten = 232) => {
  const e = Object.assign(new Error('other side closed'), {
    name: 'SocketError',
    code: 'UND_ERR_SOCKET',
    socket: { localAddress: '127.0.0.1', remoteAddress: '127.0.0.1', bytesWritten, bytesRead: 0 },
  });
  return fetchFailed(e);
};
const timeoutDom = () => new DOMException('The operation was aborted due to timeout', 'TimeoutError');

const BEFORE_SEND = { class: 'transient', phase: 'dispatch', retryable: true, replaySafe: true };

describe('classify: failures before the request left the process → transient, replaySafe for any tool', () => {
  it.each([
    ['ECONNREFUSED (fetch failed, cause syscall connect)', refused(), 'network'],
    ['ENOTFOUND (DNS)', dns(), 'network'],
    [
      'EAI_AGAIN (DNS)',
      fetchFailed(sysError('getaddrinfo EAI_AGAIN h', { code: 'EAI_AGAIN', syscall: 'getaddrinfo' })),
      'network',
    ],
    [
      'UND_ERR_CONNECT_TIMEOUT',
      fetchFailed(
        Object.assign(new Error('Connect Timeout Error'), {
          name: 'ConnectTimeoutError',
          code: 'UND_ERR_CONNECT_TIMEOUT',
        }),
      ),
      'timeout',
    ],
    [
      'ETIMEDOUT with syscall connect',
      sysError('connect ETIMEDOUT 10.0.0.1:443', { code: 'ETIMEDOUT', syscall: 'connect' }),
      'timeout',
    ],
    [
      'EHOSTUNREACH (connect)',
      fetchFailed(sysError('connect EHOSTUNREACH 10.0.0.1:443', { code: 'EHOSTUNREACH', syscall: 'connect' })),
      'network',
    ],
    ['ENETUNREACH without syscall', sysError('ENETUNREACH', { code: 'ENETUNREACH' }), 'network'],
    [
      'an AggregateError of two refused connects (Happy Eyeballs)',
      fetchFailed(
        Object.assign(
          new AggregateError(
            [
              sysError('connect ECONNREFUSED ::1:80', { code: 'ECONNREFUSED', syscall: 'connect' }),
              sysError('connect ECONNREFUSED 127.0.0.1:80', { code: 'ECONNREFUSED', syscall: 'connect' }),
            ],
            '',
          ),
          { code: 'ECONNREFUSED' },
        ),
      ),
      'network',
    ],
    ['UND_ERR_SOCKET on a socket that wrote 0 bytes', socketClosed(0), 'network'],
  ])('classify: %s on a write → transient, dispatch, replaySafe, retryable', (_name, error, reason) => {
    const f = classify(thrown(error), WRITE);
    expect(route(f)).toEqual({ ...BEFORE_SEND, reason });
    expect(toolFailureSchema().safeParse(f).success).toBe(true);
  });

  it('classify: ECONNREFUSED message says nothing was sent and shows no address', () => {
    expect(classify(thrown(refused()), WRITE).publicMessage).toBe(
      'create_payment: could not reach the service (ECONNREFUSED); the request was not sent, so it is safe to try again.',
    );
  });
});

describe('classify: failures after the request may have reached the server', () => {
  const afterSend: [string, () => unknown, string][] = [
    ['UND_ERR_SOCKET "other side closed" (232 bytes written)', () => socketClosed(), 'network'],
    ['ECONNRESET on read', () => sysError('read ECONNRESET', { code: 'ECONNRESET', syscall: 'read' }), 'network'],
    ['EPIPE', () => sysError('write EPIPE', { code: 'EPIPE', syscall: 'write' }), 'network'],
    [
      'UND_ERR_HEADERS_TIMEOUT',
      () =>
        fetchFailed(
          Object.assign(new Error('Headers Timeout Error'), {
            name: 'HeadersTimeoutError',
            code: 'UND_ERR_HEADERS_TIMEOUT',
          }),
        ),
      'timeout',
    ],
    [
      'UND_ERR_BODY_TIMEOUT',
      () =>
        fetchFailed(
          Object.assign(new Error('Body Timeout Error'), { name: 'BodyTimeoutError', code: 'UND_ERR_BODY_TIMEOUT' }),
        ),
      'timeout',
    ],
    [
      'UND_ERR_CLOSED',
      () => fetchFailed(Object.assign(new Error('The client is destroyed'), { code: 'UND_ERR_CLOSED' })),
      'network',
    ],
    ['DOMException TimeoutError from AbortSignal.timeout', timeoutDom, 'timeout'],
    ['DOMException AbortError', () => new DOMException('This operation was aborted', 'AbortError'), 'timeout'],
    [
      'ETIMEDOUT without syscall (a client read timeout)',
      () => sysError('ETIMEDOUT', { code: 'ETIMEDOUT' }),
      'timeout',
    ],
    ['a bare "fetch failed" with no cause', () => new TypeError('fetch failed'), 'network'],
    [
      'ECONNRESET nested two causes deep',
      () =>
        new Error('wrapped', {
          cause: new Error('inner', { cause: sysError('socket hang up', { code: 'ECONNRESET' }) }),
        }),
      'network',
    ],
    [
      'Temporal TimeoutFailure (StartToClose; docs/DESIGN.md, "Phases")',
      () => Object.assign(new Error('activity StartToClose timeout'), { name: 'TimeoutFailure', timeoutType: 1 }),
      'timeout',
    ],
  ];

  it.each(afterSend)('classify: %s on a read → transient, retryable', (_n, make, reason) => {
    expect(route(classify(thrown(make()), READ))).toEqual({
      class: 'transient',
      reason,
      phase: 'dispatch',
      retryable: true,
      replaySafe: true,
    });
  });

  it.each(afterSend)(
    'classify: %s on a write without dedup → outcome_unknown in commit_unknown, never transient',
    (_n, make, reason) => {
      const f = classify(thrown(make()), WRITE);
      expect(route(f)).toEqual({
        class: 'outcome_unknown',
        reason,
        phase: 'commit_unknown',
        retryable: false,
        replaySafe: false,
      });
      expect(toolFailureSchema().safeParse(f).success).toBe(true);
    },
  );

  it.each(afterSend)(
    'classify: %s on a deduplicated write → transient, retryable, commit_unknown',
    (_n, make, reason) => {
      expect(route(classify(thrown(make()), WRITE_DEDUP))).toEqual({
        class: 'transient',
        reason,
        phase: 'commit_unknown',
        retryable: true,
        replaySafe: true,
      });
    },
  );

  it('classify: the write timeout message asks for a status check before any new attempt', () => {
    expect(classify(thrown(timeoutDom()), WRITE).publicMessage).toBe(
      'create_payment: the request timed out (TimeoutError) after the write was sent; it may or may not have been applied. Check its status before any new attempt.',
    );
  });
});

describe('classify: requestSent from the envelope wins over inference', () => {
  it('classify: a timeout the adapter says was never sent → transient, replaySafe, even for a write', () => {
    expect(route(classify(thrown(timeoutDom(), false), WRITE))).toEqual({
      class: 'transient',
      reason: 'timeout',
      phase: 'dispatch',
      retryable: true,
      replaySafe: true,
    });
  });

  it('classify: ECONNREFUSED the adapter says was sent → outcome_unknown for a write', () => {
    expect(route(classify(thrown(refused(), true), WRITE))).toMatchObject({
      class: 'outcome_unknown',
      phase: 'commit_unknown',
      replaySafe: false,
    });
  });

  it('classify: a non-boolean requestSent is ignored (inference applies)', () => {
    expect(classify({ kind: 'thrown', error: refused(), requestSent: 'yes' as unknown as boolean }, WRITE).class).toBe(
      'transient',
    );
  });
});

describe('classify: errors that are not transport faults', () => {
  it('classify: a TLS certificate error → unrecoverable/network, replaySafe', () => {
    const f = classify(thrown(fetchFailed(sysError('certificate has expired', { code: 'CERT_HAS_EXPIRED' }))), WRITE);
    expect(route(f)).toEqual({
      class: 'unrecoverable',
      reason: 'network',
      phase: 'dispatch',
      retryable: false,
      replaySafe: true,
    });
  });

  it('classify: an invalid URL (ERR_INVALID_URL) → unrecoverable/tool_bug', () => {
    const f = classify(
      thrown(Object.assign(new TypeError('Invalid URL'), { code: 'ERR_INVALID_URL', input: 'ht!tp://x' })),
      READ,
    );
    expect(route(f)).toEqual({
      class: 'unrecoverable',
      reason: 'tool_bug',
      phase: 'dispatch',
      retryable: false,
      replaySafe: true,
    });
  });

  it('classify: a plain TypeError from tool code → unrecoverable/tool_bug, message without the stack', () => {
    const err = new TypeError("Cannot read properties of undefined (reading 'id')");
    const f = classify(thrown(err), READ);
    expect(route(f)).toEqual({
      class: 'unrecoverable',
      reason: 'tool_bug',
      phase: 'dispatch',
      retryable: false,
      replaySafe: true,
    });
    expect(f.publicMessage).toBe(
      "get_docs: the tool's own code failed (a bug or a missing dependency); an operator must fix it.",
    );
  });

  it('classify: a buggy adapter that loses the error type (new Error("Unexpected error occurred")) on a write → outcome_unknown (it may have been sent), never a tool bug', () => {
    expect(route(classify(thrown(new Error('Unexpected error occurred')), WRITE))).toEqual({
      class: 'outcome_unknown',
      reason: 'unrecognized',
      phase: 'commit_unknown',
      retryable: false,
      replaySafe: false,
    });
  });

  it('classify: an unknown error after the write was sent → outcome_unknown in commit_unknown, says it may have been applied', () => {
    const f = classify(thrown(new Error('boom'), true), WRITE);
    expect(route(f)).toEqual({
      class: 'outcome_unknown',
      reason: 'unrecognized',
      phase: 'commit_unknown',
      retryable: false,
      replaySafe: false,
    });
    expect(f.publicMessage).toBe(
      'create_payment: the tool failed with an error no rule recognises (Error) after the write was sent; it may or may not have been applied. Check its status before any new attempt.',
    );
  });

  it('classify: an unknown error on a write known not to have been sent → unrecoverable/unrecognized, replay-safe, with its fingerprint', () => {
    const f = classify(thrown(new Error('boom'), false), WRITE);
    expect(f.fingerprint).toMatch(/^fp_[0-9a-f]{12}$/);
    expect(route(f)).toEqual({
      class: 'unrecoverable',
      reason: 'unrecognized',
      phase: 'dispatch',
      retryable: false,
      replaySafe: true,
    });
  });

  it('classify: a thrown string, null, or a cyclic cause chain → unrecognized (not a tool bug), never a crash', () => {
    const cyclic: { cause?: unknown; message: string } = { message: 'loop' };
    cyclic.cause = cyclic;
    for (const e of ['boom', null, undefined, 42, cyclic])
      expect(classify(thrown(e), READ).reason).toBe('unrecognized');
  });

  it('classify: a code such as "constructor" does not reach Object.prototype', () => {
    expect(classify(thrown(Object.assign(new Error('x'), { code: 'constructor' })), READ).reason).toBe('unrecognized');
    expect(transportFacts(Object.assign(new Error('x'), { code: '__proto__', name: 'toString' }))).toEqual([]);
  });
});

describe('classify: HTTP answers wrapped in thrown errors keep their status, headers and body (docs/DESIGN.md, "Failure classes and the two axes")', () => {
  it('classify: an axios-style error with response 429 + Retry-After: 3 → transient/rate_limited, retryAfterMs 3000', () => {
    const err = Object.assign(new Error('Request failed with status code 429'), {
      isAxiosError: true,
      response: { status: 429, headers: { 'retry-after': '3' }, data: { error: 'rate_limited' } },
    });
    expect(classify(thrown(err), WRITE)).toMatchObject({
      class: 'transient',
      reason: 'rate_limited',
      retryAfterMs: 3000,
      status: 429,
    });
  });

  it('classify: an OpenAI-SDK-style APIError (status, Headers, error body) → the HTTP rules', () => {
    const err = Object.assign(new Error('429 Rate limit reached'), {
      status: 429,
      headers: new Headers({ 'retry-after-ms': '1500' }),
      error: { type: 'requests', code: 'rate_limit_exceeded' },
    });
    expect(classify(thrown(err), READ)).toMatchObject({
      class: 'transient',
      reason: 'rate_limited',
      retryAfterMs: 1500,
    });
  });

  it('classify: an HttpOutcomeError-style error ({ outcome: { kind: "http" } }) with 422 insufficient_funds → business_rule', () => {
    const err = Object.assign(new Error('HTTP 422'), {
      outcome: { kind: 'http', status: 422, headers: {}, body: { code: 'insufficient_funds' } },
    });
    expect(classify(thrown(err), WRITE)).toMatchObject({
      class: 'semantic_rejection',
      reason: 'business_rule',
      retryable: false,
      status: 422,
    });
  });

  it('classify: an undici ResponseStatusCodeError (statusCode, headers, body) with 404 → not_found', () => {
    const err = Object.assign(new Error('Response status code 404: Not Found'), {
      name: 'ResponseStatusCodeError',
      code: 'UND_ERR_RESPONSE_STATUS_CODE',
      statusCode: 404,
      headers: {},
      body: '',
    });
    expect(classify(thrown(err), READ)).toMatchObject({
      class: 'semantic_rejection',
      reason: 'not_found',
      status: 404,
    });
  });

  it('classify: a wrapped 401 invalid_token keeps its challenge header → credential_expired (RFC 6750 §3.1)', () => {
    const err = new Error('wrapped', {
      cause: Object.assign(new Error('401'), {
        response: { status: 401, headers: { 'www-authenticate': 'Bearer error="invalid_token"' } },
      }),
    });
    expect(classify(thrown(err), READ)).toMatchObject({ class: 'authentication', reason: 'credential_expired' });
  });
});
