/**
 * The write-safety matrix's downstream (bench/write-safety/payments-service.ts) and partition proxy, on loopback:
 * each fault knob does what the matrix's rows say, counted in the SQLite store. No Temporal server.
 * The knobs' times (holds, lags, hangs) run on jest's fake clock (`serviceClock()`): the service's timers fire when
 * the test advances the clock, so each knob is asserted at its scheduled time, not raced against the machine's load.
 * The HTTP client's own timeouts (`AbortSignal.timeout`, Node's fetch) stay on the real clock.
 */
import { get } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PostFault, ReadFault } from '../../bench/write-safety/fault-kinds';
import { startPartitionProxy } from '../../bench/write-safety/partition-proxy';
import { startPaymentsService, type PaymentsService } from '../../bench/write-safety/payments-service';

let dir: string;
const services: PaymentsService[] = [];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rr-ws-service-'));
});
afterEach(async () => {
  jest.useRealTimers();
  for (const s of services.splice(0)) await s.close();
});

/** The service's timers and Date on jest's fake clock; sockets, microtasks and the client's timeouts stay real. */
function serviceClock(): void {
  jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask', 'hrtime', 'performance'] });
}

/** Whether `p` has settled once pending I/O callbacks ran (a loopback answer in flight arrives within a few turns). */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(
    () => (done = true),
    () => (done = true),
  );
  for (let i = 0; i < 20 && !done; i++) await new Promise((r) => setImmediate(r));
  return done;
}
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function service(o: { dedupe?: boolean; post?: PostFault; read?: ReadFault } = {}) {
  const s = await startPaymentsService({
    dedupe: o.dedupe ?? false,
    post: o.post ?? { kind: 'none' },
    read: o.read ?? { kind: 'none' },
    tmpDir: dir,
  });
  services.push(s);
  return s;
}

const body = { invoice: 'INV-1', amountCents: 100 };

/**
 * POSTs a payment with `key`; the status and JSON body, or the error's name when `until` aborted it first: a
 * hang detector of `until` ms (10 s: a loaded machine's loopback round trip is no fault), or a signal the test
 * aborts once the service has the POST (`s.nextPost()`), so "the client gave up" never races the POST's arrival.
 */
/** POSTs a payment and gives up (aborts) as soon as the service has read the POST: a client that timed out. */
async function giveUp(s: PaymentsService, key: string) {
  const [posted, client] = [s.nextPost(), new AbortController()];
  const answer = pay(s.url, key, client.signal);
  await posted;
  client.abort();
  return answer;
}

async function pay(url: string, key: string, until: number | AbortSignal = 10_000, json: object = body) {
  try {
    const res = await fetch(`${url}/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(json),
      signal: typeof until === 'number' ? AbortSignal.timeout(until) : until,
    });
    const text = await res.text();
    return { status: res.status, body: text === '' ? '' : (JSON.parse(text) as unknown) };
  } catch (err) {
    return { error: (err as Error).name };
  }
}

async function read(url: string, path: string, timeoutMs = 2_000) {
  const res = await fetch(`${url}${path}`, { signal: AbortSignal.timeout(timeoutMs) });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

/** A read on a new connection (no keep-alive pool); its status. */
function readFresh(url: string, path: string): Promise<number> {
  return new Promise((ok, fail) => {
    const req = get(`${url}${path}`, { agent: false, timeout: 2_000 }, (res) => {
      res.resume();
      res.on('end', () => ok(res.statusCode ?? 0));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', fail);
  });
}

test('without dedupe every POST is a row, the same key too; the lookup finds the first', async () => {
  const s = await service();
  expect((await pay(s.url, 'k1')).status).toBe(201);
  expect((await pay(s.url, 'k1')).status).toBe(201);
  expect([s.rows(), s.rows('k1'), s.posts('k1')]).toEqual([2, 2, 2]);
  expect(JSON.parse((await read(s.url, '/payments/by-key/k1')).text)).toEqual({
    paymentId: 'pay_1',
    invoice: 'INV-1',
    amountCents: 100,
    status: 'captured',
  });
  expect((await read(s.url, '/payments/by-key/nope')).status).toBe(404);
  expect(JSON.parse((await read(s.url, '/payments?invoice=INV-1')).text).payments).toHaveLength(2);
});

test('with dedupe: a finished key replays its answer, a key in flight is 409, another body under the key is 422', async () => {
  serviceClock();
  const s = await service({ dedupe: true, post: { kind: 'hold_commit', holdMs: 400 } });
  const posted = s.nextPost();
  const first = pay(s.url, 'k1');
  await posted; // the first POST is held: its commit is due 400 ms later on the service's clock
  expect(await pay(s.url, 'k1')).toEqual({ status: 409, body: { code: 'idempotency_key_in_use' } });
  jest.advanceTimersByTime(400);
  expect((await first).status).toBe(201);
  expect(await pay(s.url, 'k1')).toMatchObject({ status: 200, body: { paymentId: 'pay_1' } });
  expect((await pay(s.url, 'k1', 1_000, { invoice: 'INV-2', amountCents: 5 })).status).toBe(422);
  expect(s.rows('k1')).toBe(1);
});

test('hold_commit: no row while held, one row at holdMs even though the client gave up', async () => {
  serviceClock();
  const s = await service({ post: { kind: 'hold_commit', holdMs: 500 } });
  expect(await giveUp(s, 'k1')).toEqual({ error: 'AbortError' });
  jest.advanceTimersByTime(499);
  expect(s.rows()).toBe(0);
  jest.advanceTimersByTime(1);
  expect(s.rows()).toBe(1);
  expect(await s.drain(0)).toBe(true);
});

test.each([
  ['commit_then_drop', 1],
  ['drop_before_commit', 0],
] as const)('%s: the connection is dropped (no answer), rows: %i', async (kind, rows) => {
  const s = await service({ post: { kind } });
  expect(await pay(s.url, 'k1')).toEqual({ error: 'TypeError' });
  expect(s.rows()).toBe(rows);
  expect((await pay(s.url, 'k1')).status).toBe(201);
});

test('drop_then_commit: dropped at once, committed exactly commitMs later', async () => {
  serviceClock();
  const s = await service({ post: { kind: 'drop_then_commit', commitMs: 300 } });
  expect(await pay(s.url, 'k1')).toEqual({ error: 'TypeError' });
  jest.advanceTimersByTime(299);
  expect(s.rows()).toBe(0);
  jest.advanceTimersByTime(1);
  expect(s.rows()).toBe(1);
});

test('commit_then_hang and commit_then_stall_body: committed, and the client never gets a whole answer', async () => {
  for (const kind of ['commit_then_hang', 'commit_then_stall_body'] as const) {
    const s = await service({ post: { kind } });
    expect(await giveUp(s, 'k1')).toEqual({ error: 'AbortError' });
    expect(s.rows()).toBe(1);
  }
});

test('gateway_timeout: 504 at exactly answerMs, the row at exactly commitMs', async () => {
  serviceClock();
  const s = await service({ post: { kind: 'gateway_timeout', answerMs: 100, commitMs: 400 } });
  const posted = s.nextPost();
  const answer = pay(s.url, 'k1');
  await posted;
  jest.advanceTimersByTime(99);
  expect(await settled(answer)).toBe(false);
  jest.advanceTimersByTime(1);
  expect(await answer).toEqual({ status: 504, body: { message: 'upstream request timeout' } });
  jest.advanceTimersByTime(299);
  expect(s.rows()).toBe(0);
  jest.advanceTimersByTime(1);
  expect(s.rows()).toBe(1);
});

test('answer with every: each POST of the key gets the status and body, nothing is committed', async () => {
  const s = await service({ post: { kind: 'answer', status: 503, body: { e: 1 }, every: true } });
  expect(await pay(s.url, 'k1')).toEqual({ status: 503, body: { e: 1 } });
  expect(await pay(s.url, 'k1')).toEqual({ status: 503, body: { e: 1 } });
  expect([s.rows(), s.posts('k1')]).toEqual([0, 2]);
});

test('replica_lag: a committed payment is invisible to reads for exactly lagMs', async () => {
  serviceClock();
  const s = await service({ read: { kind: 'replica_lag', lagMs: 400 } });
  await pay(s.url, 'k1');
  expect((await read(s.url, '/payments/by-key/k1')).status).toBe(404);
  expect(JSON.parse((await read(s.url, '/payments?invoice=INV-1')).text)).toEqual({ payments: [] });
  jest.advanceTimersByTime(399);
  expect((await read(s.url, '/payments/by-key/k1')).status).toBe(404);
  jest.advanceTimersByTime(1);
  expect((await read(s.url, '/payments/by-key/k1')).status).toBe(200);
});

test('not_found_once: the first read of each key answers 404 (an empty list by invoice), later reads are true', async () => {
  const s = await service({ read: { kind: 'not_found_once' } });
  await pay(s.url, 'k1');
  expect((await read(s.url, '/payments/by-key/k1')).status).toBe(404);
  expect((await read(s.url, '/payments/by-key/k1')).status).toBe(200);
  expect(JSON.parse((await read(s.url, '/payments?invoice=INV-1')).text)).toEqual({ payments: [] });
  expect(JSON.parse((await read(s.url, '/payments?invoice=INV-1')).text).payments).toHaveLength(1);
});

test('restored_backup: reads miss a commit made after the backup for exactly forMs, then the replica catches up', async () => {
  serviceClock();
  const s = await service({ post: { kind: 'commit_then_drop' }, read: { kind: 'restored_backup', forMs: 500 } });
  await pay(s.url, 'k1');
  expect(s.rows()).toBe(1);
  expect((await read(s.url, '/payments/by-key/k1')).status).toBe(404);
  jest.advanceTimersByTime(499);
  expect((await read(s.url, '/payments/by-key/k1')).status).toBe(404);
  jest.advanceTimersByTime(1);
  expect((await read(s.url, '/payments/by-key/k1')).status).toBe(200);
});

test('slow_first: the first `count` reads of a key answer after exactly hangMs, with what was true when they arrived', async () => {
  serviceClock();
  const s = await service({
    post: { kind: 'hold_commit', holdMs: 100 },
    read: { kind: 'slow_first', hangMs: 400, count: 1 },
  });
  const held = pay(s.url, 'k1', 2_000);
  await s.nextPost();
  const arrived = s.nextRead();
  const first = read(s.url, '/payments/by-key/k1');
  await arrived;
  jest.advanceTimersByTime(399); // the held POST commits at 100 ms; the read answers what was true at 0
  expect(await settled(first)).toBe(false);
  jest.advanceTimersByTime(1);
  expect((await first).status).toBe(404);
  await held;
  expect((await read(s.url, '/payments/by-key/k1')).status).toBe(200);
});

test('down, html_200, empty_200 and huge_200 reads', async () => {
  const down = await service({ read: { kind: 'down' } });
  expect((await read(down.url, '/payments/by-key/k1')).status).toBe(503);
  const html = await service({ read: { kind: 'html_200' } });
  expect(await read(html.url, '/payments/by-key/k1')).toMatchObject({ status: 200, type: 'text/html; charset=utf-8' });
  const empty = await service({ read: { kind: 'empty_200' } });
  expect(await read(empty.url, '/payments/by-key/k1')).toMatchObject({ status: 200, text: '' });
  const huge = await service({ read: { kind: 'huge_200', bytes: 1_000 } });
  await pay(huge.url, 'k1');
  expect((JSON.parse((await read(huge.url, '/payments/by-key/k1')).text) as { receipt: string }).receipt).toHaveLength(
    1_000,
  );
});

test('partition proxy: the POST goes through and commits, its answer and every later byte are dropped until heal', async () => {
  const s = await service();
  const proxy = await startPartitionProxy(s.port, 'POST /payments');
  try {
    expect(await pay(proxy.url, 'k1', 500)).toEqual({ error: 'TimeoutError' });
    await proxy.partitioned;
    expect(s.rows()).toBe(1);
    await expect(read(proxy.url, '/payments/by-key/k1', 300)).rejects.toThrow();
    proxy.heal();
    // A fresh connection, not one from the client's pool that the partition cut off (no wait for the resets).
    expect(await readFresh(proxy.url, '/payments/by-key/k1')).toBe(200);
  } finally {
    await proxy.close();
  }
});

/** POSTs a payment with `key` without following redirects: status, headers and body text. */
async function payRaw(url: string, key: string) {
  const res = await fetch(`${url}/payments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': key, 'x-api-key': 'ak' },
    body: JSON.stringify(body),
    redirect: 'manual',
  });
  return {
    status: res.status,
    location: res.headers.get('location'),
    type: res.headers.get('content-type'),
    text: await res.text(),
  };
}

test.each([
  ['half', 201, '{"paymentId":"pay_1","invoice":"INV-1"'],
  ['corrupt', 201, "{'paymentId':'pay_1','invoice':'INV-1','amountCents':100,'status':'captured'}"],
  ['empty', 204, ''],
] as const)('commit_then_answer %s: committed, answered %i with %j', async (kind, status, text) => {
  const s = await service({ post: { kind: 'commit_then_answer', status, body: kind } });
  expect(await payRaw(s.url, 'k1')).toMatchObject({ status, text });
  expect(s.rows('k1')).toBe(1);
});

test('redirect: every POST is answered with the Location of its target; commit: each POST commits first', async () => {
  const login = await service({ post: { kind: 'redirect', status: 302, to: 'login', commit: false } });
  expect(await payRaw(login.url, 'k1')).toMatchObject({ status: 302, location: '/login?next=%2Fpayments' });
  expect(await payRaw(login.url, 'k1')).toMatchObject({ status: 302 });
  expect(await read(login.url, '/login')).toMatchObject({ status: 200, type: 'text/html; charset=utf-8' });
  expect([login.rows(), login.posts('k1')]).toEqual([0, 2]);
  const loop = await service({ post: { kind: 'redirect', status: 307, to: 'self', commit: true } });
  expect(await payRaw(loop.url, 'k1')).toMatchObject({ status: 307, location: '/payments' });
  expect(await payRaw(loop.url, 'k1')).toMatchObject({ status: 307, location: '/payments' });
  expect(loop.rows('k1')).toBe(2);
  const other = await service({ post: { kind: 'redirect', status: 308, to: 'other_host', commit: false } });
  const { location } = await payRaw(other.url, 'k1');
  expect(location).toMatch(/^http:\/\/127\.0\.0\.2:\d+\/payments$/);
  expect(other.foreign()).toEqual([]);
  await fetch(location!, { method: 'POST', headers: { 'x-api-key': 'ak' }, body: '{}' });
  expect([other.foreign(), other.rows()]).toEqual([['POST /payments: body, x-api-key'], 0]);
});

test('async_failed_then_succeeded: 202, the key reads "failed" until succeedMs, then the committed payment', async () => {
  const s = await service({ post: { kind: 'async_failed_then_succeeded', succeedMs: 300 } });
  expect(await payRaw(s.url, 'k1')).toMatchObject({ status: 202, text: '{"status":"pending"}' });
  expect(JSON.parse((await read(s.url, '/payments/by-key/k1')).text)).toEqual({ status: 'failed' });
  expect(s.rows('k1')).toBe(0);
  await s.drain(2_000);
  expect([s.rows('k1'), JSON.parse((await read(s.url, '/payments/by-key/k1')).text).status]).toEqual([1, 'captured']);
});

test('big_answer: a gzip bomb inflates to `bytes`; a redirected read goes to /v2 on the same origin', async () => {
  const s = await service({
    post: { kind: 'big_answer', status: 201, bytes: 4 * 64 * 1024, gzip: true, commit: true },
    read: { kind: 'redirect', to: 'same_origin' },
  });
  const res = await fetch(`${s.url}/payments`, {
    method: 'POST',
    headers: { 'idempotency-key': 'k1' },
    body: JSON.stringify(body),
  });
  expect([res.status, res.headers.get('content-encoding'), (await res.arrayBuffer()).byteLength]).toEqual([
    201,
    'gzip',
    4 * 64 * 1024,
  ]);
  const moved = await fetch(`${s.url}/payments/by-key/k1`, { redirect: 'manual' });
  expect([moved.status, moved.headers.get('location')]).toEqual([302, '/v2/payments/by-key/k1']);
  expect((await read(s.url, '/v2/payments/by-key/k1')).status).toBe(200);
});
