/**
 * Loopback tests of transport-error classification with REAL error objects: Node 20's global `fetch` against
 * node:http servers on 127.0.0.1 (port 0). Each case runs once as a read and once as a write.
 * Pure classification (recovery/classify) of what undici really throws; no Temporal.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { classify, type CallContext } from '../../recovery/classify';
import { toolFailureSchema } from '../../recovery/failure';

const NOW_MS = Date.UTC(2026, 9, 1, 12, 0, 0);
const ctx = (effect: 'read' | 'write', deduplicates = false): CallContext => ({
  tool: effect === 'read' ? 'get_payment' : 'create_payment',
  callId: `call-${effect}`,
  effect,
  deduplicates,
  approvalCanLift: false,
  nowMs: NOW_MS,
  diagnosticRef: 'diag-1',
});

const servers: http.Server[] = [];
const sockets = new Set<Socket>();

async function listen(handler: http.RequestListener): Promise<{ server: http.Server; url: string }> {
  const server = http.createServer(handler);
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** What `fetch` rejects with (the test fails if it resolves). */
async function fetchError(url: string, init: RequestInit): Promise<unknown> {
  try {
    const res = await fetch(url, init);
    await res.arrayBuffer();
  } catch (e) {
    return e;
  }
  throw new Error(`expected fetch(${url}) to fail`);
}

const route = (f: ReturnType<typeof classify>) => ({
  class: f.class,
  reason: f.reason,
  phase: f.phase,
  retryable: f.retryable,
  replaySafe: f.replaySafe,
});

let closedUrl: string;
let destroyUrl: string;
let hangUrl: string;

beforeAll(async () => {
  // A port that was open and is now closed: ECONNREFUSED.
  const closed = await listen(() => undefined);
  closedUrl = closed.url;
  await new Promise<void>((resolve) => closed.server.close(() => resolve()));
  servers.splice(servers.indexOf(closed.server), 1);
  // Reads the whole request, then destroys the socket without answering.
  destroyUrl = (
    await listen((req) => {
      req.resume();
      req.on('end', () => req.socket.destroy());
    })
  ).url;
  // Reads the request and never answers.
  hangUrl = (await listen((req) => req.resume())).url;
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await Promise.all(
    servers.map(
      (s) =>
        new Promise<void>((resolve) => {
          s.closeAllConnections();
          s.close(() => resolve());
        }),
    ),
  );
});

describe('loopback: connection refused (nothing was sent)', () => {
  it('classify: a real ECONNREFUSED on a write → transient/network in dispatch, replaySafe true, retryable', async () => {
    const error = await fetchError(`${closedUrl}/payment_intents`, { method: 'POST', body: '{"amount":5000}' });
    expect((error as Error).message).toBe('fetch failed');
    expect(((error as Error).cause as { code?: string }).code).toBe('ECONNREFUSED');
    const f = classify({ kind: 'thrown', error }, ctx('write'));
    expect(route(f)).toEqual({
      class: 'transient',
      reason: 'network',
      phase: 'dispatch',
      retryable: true,
      replaySafe: true,
    });
    expect(f.publicMessage).toBe(
      'create_payment: could not reach the service (ECONNREFUSED); the request was not sent, so it is safe to try again.',
    );
    expect(toolFailureSchema().safeParse(f).success).toBe(true);
  });

  it('classify: a real ECONNREFUSED on a read → transient, retryable', async () => {
    const error = await fetchError(`${closedUrl}/payment_intents/pi_1`, {});
    expect(route(classify({ kind: 'thrown', error }, ctx('read')))).toEqual({
      class: 'transient',
      reason: 'network',
      phase: 'dispatch',
      retryable: true,
      replaySafe: true,
    });
  });
});

describe('loopback: the server reads the request, then destroys the socket', () => {
  it('classify: a write → outcome_unknown in commit_unknown, not replaySafe', async () => {
    const error = await fetchError(`${destroyUrl}/payment_intents`, { method: 'POST', body: '{"amount":5000}' });
    expect(((error as Error).cause as { code?: string }).code).toBe('UND_ERR_SOCKET');
    const f = classify({ kind: 'thrown', error }, ctx('write'));
    expect(route(f)).toEqual({
      class: 'outcome_unknown',
      reason: 'network',
      phase: 'commit_unknown',
      retryable: false,
      replaySafe: false,
    });
    expect(f.publicMessage).toBe(
      'create_payment: the connection failed (UND_ERR_SOCKET) after the write was sent; it may or may not have been applied. Check its status before any new attempt.',
    );
  });

  it('classify: a write whose receiver deduplicates → transient, retryable, commit_unknown', async () => {
    const error = await fetchError(`${destroyUrl}/payment_intents`, { method: 'POST', body: '{"amount":5000}' });
    expect(route(classify({ kind: 'thrown', error }, ctx('write', true)))).toEqual({
      class: 'transient',
      reason: 'network',
      phase: 'commit_unknown',
      retryable: true,
      replaySafe: true,
    });
  });

  it('classify: a read → transient, retryable', async () => {
    const error = await fetchError(`${destroyUrl}/payment_intents/pi_1`, {});
    expect(route(classify({ kind: 'thrown', error }, ctx('read')))).toEqual({
      class: 'transient',
      reason: 'network',
      phase: 'dispatch',
      retryable: true,
      replaySafe: true,
    });
  });

  it('classify: the adapter saying requestSent: false wins (transient even for the write)', async () => {
    const error = await fetchError(`${destroyUrl}/payment_intents`, { method: 'POST', body: '{}' });
    expect(classify({ kind: 'thrown', error, requestSent: false }, ctx('write')).class).toBe('transient');
  });
});

describe('loopback: the server hangs past AbortSignal.timeout(200)', () => {
  it('classify: a write → outcome_unknown/timeout in commit_unknown', async () => {
    const error = await fetchError(`${hangUrl}/payment_intents`, {
      method: 'POST',
      body: '{"amount":5000}',
      signal: AbortSignal.timeout(200),
    });
    expect((error as Error).name).toBe('TimeoutError');
    const f = classify({ kind: 'thrown', error }, ctx('write'));
    expect(route(f)).toEqual({
      class: 'outcome_unknown',
      reason: 'timeout',
      phase: 'commit_unknown',
      retryable: false,
      replaySafe: false,
    });
  });

  it('classify: a read → transient/timeout, retryable', async () => {
    const error = await fetchError(`${hangUrl}/payment_intents/pi_1`, { signal: AbortSignal.timeout(200) });
    expect(route(classify({ kind: 'thrown', error }, ctx('read')))).toEqual({
      class: 'transient',
      reason: 'timeout',
      phase: 'dispatch',
      retryable: true,
      replaySafe: true,
    });
  });

  it('classify: an AbortController abort after send on a write → outcome_unknown', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const error = await fetchError(`${hangUrl}/payment_intents`, { method: 'POST', body: '{}', signal: ac.signal });
    expect((error as Error).name).toBe('AbortError');
    expect(classify({ kind: 'thrown', error }, ctx('write')).class).toBe('outcome_unknown');
  });
});
