/**
 * A payments service on a loopback port (node:http) over a real SQLite store (payments-store.ts), with the fault
 * knobs of the write-safety matrix (fault-kinds.ts). A fixture of the bench and tests, not of the library.
 *
 * - `POST /payments` (`Idempotency-Key` header; body `{ invoice, amountCents }`) → `201 <payment>`. Every POST
 *   that commits is a row. With `dedupe`, a finished key replays its first answer (`200`), a key in flight is
 *   `409 {"code":"idempotency_key_in_use"}`, the same key with another body `422` (draft-ietf-httpapi-idempotency-key-header).
 * - `GET /payments/by-key/:key` (lookup) → `200 <payment>` or `404 {"status":"not_found"}`.
 * - `GET /payments?invoice=I` (verify) → `200 {"payments":[…]}`.
 * - `GET /login` → `200 text/html` (a sign-in page); `GET /v2/payments/by-key/:key` is the lookup moved.
 * The first POST of each key suffers `post` (every POST for `redirect` and `answer` with `every`); the read path
 * suffers `read`. A second listener on another port (all interfaces) is another origin: it keeps what each request
 * it gets carried (`foreign()`), answers `POST /payments` with `201` and a payment of its own (a commit there), and
 * any GET with such a payment.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGzip } from 'node:zlib';
import type { AnswerBody, PostFault, ReadFault, RedirectTarget } from './fault-kinds';
import { PaymentsStore, type Payment } from './payments-store';

export interface PaymentsServiceOptions {
  dedupe: boolean;
  post: PostFault;
  read: ReadFault;
  /** Where backups for `restored_backup` are written. */
  tmpDir: string;
}

export interface PaymentsService {
  url: string;
  port: number;
  store: PaymentsStore;
  /** Rows committed in the primary: all, or for one idempotency key. */
  rows(key?: string): number;
  /** POSTs received (bodies read): all, or for one key. */
  posts(key?: string): number;
  /** Reads received. */
  reads(): number;
  /** What reached the other origin: one line per request, naming what it carried (`POST /payments: body, idempotency-key`). */
  foreign(): string[];
  /** Resolves with the key of the next POST whose body was read. */
  nextPost(): Promise<string>;
  /** Resolves at the next read request. */
  nextRead(): Promise<void>;
  /** Resolves true once no held commit is pending, false after `timeoutMs` ms. */
  drain(timeoutMs: number): Promise<boolean>;
  /** Ends every POST left hanging (`commit_then_hang`) by resetting its connection: how many it ended. */
  releaseHung(): number;
  close(): Promise<void>;
}

const HTML_PAGE = '<!doctype html><html><head><title>Sign in</title></head><body>Sign in</body></html>';
/** The password planted in a redirect's `Location` (`credentials`): it must never reach a history. */
export const LOCATION_PASSWORD = 'Rd1rectPassw0rd-9f8e';
/** Request headers whose arrival at another origin is a leak. */
const CARRIED_HEADERS = ['idempotency-key', 'x-api-key', 'authorization', 'cookie'];
const CHUNK = Buffer.alloc(64 * 1024, 0x78);

/** The service's state and handlers; `startPaymentsService` puts it behind a node:http server. */
class Payments {
  readonly store: PaymentsStore;
  readonly postsByKey = new Map<string, number>();
  private readonly readsBySubject = new Map<string, number>();
  reads = 0;
  pendingCommits = 0;
  closed = false;
  readonly postWaiters: ((key: string) => void)[] = [];
  readonly readWaiters: (() => void)[] = [];
  /** The sockets of POSTs left hanging, until `releaseHung`. */
  readonly hung = new Set<IncomingMessage['socket']>();
  /** Keys whose asynchronous job reads `failed` (until the provider's retry commits it). */
  private readonly failedJobs = new Set<string>();
  /** The other origin's port, once it listens. */
  otherPort = 0;

  constructor(private readonly o: PaymentsServiceOptions) {
    this.store = new PaymentsStore(o.read.kind === 'replica_lag' ? o.read.lagMs : 0, o.tmpDir);
  }

  /** Runs `fn` after `ms` ms unless the service closed; `commits` counts it as a held commit until then. */
  private later(ms: number, fn: () => void, commits = false): void {
    if (commits) this.pendingCommits += 1;
    setTimeout(() => {
      if (commits) this.pendingCommits -= 1;
      if (!this.closed) fn();
    }, ms).unref();
  }

  async post(req: IncomingMessage, res: ServerResponse, text: string): Promise<void> {
    const key = String(req.headers['idempotency-key'] ?? '');
    if (!key) return send(res, 400, { code: 'missing_idempotency_key' });
    const n = (this.postsByKey.get(key) ?? 0) + 1;
    this.postsByKey.set(key, n);
    for (const w of this.postWaiters.splice(0)) w(key);
    const body = JSON.parse(text) as { invoice?: unknown; amountCents?: unknown };
    const o = this.o;
    const every = (o.post.kind === 'answer' && o.post.every) || o.post.kind === 'redirect';
    const fault: PostFault = n === 1 || every ? o.post : { kind: 'none' };
    if (o.dedupe) {
      const state = this.store.claim(key, text);
      if (state.kind === 'in_flight') return send(res, 409, { code: 'idempotency_key_in_use' });
      if (state.kind === 'mismatch') return send(res, 422, { code: 'idempotency_key_reused' });
      if (state.kind === 'done') return send(res, 200, state.payment);
    }
    if (n === 1 && o.read.kind === 'restored_backup') await this.store.restoreReplicaFromBackup(o.read.forMs);
    const commit = (): Payment => this.store.commit(key, String(body.invoice), Number(body.amountCents));
    this.postUnder(fault, req, res, commit, () => this.store.release(key), key);
  }

  /** Serves one POST under `fault`: when it commits, when and whether it answers. */
  private postUnder(
    fault: PostFault,
    req: IncomingMessage,
    res: ServerResponse,
    commit: () => Payment,
    release: () => void,
    key: string,
  ): void {
    switch (fault.kind) {
      case 'none':
        return send(res, 201, commit());
      case 'hold_commit':
        return this.later(fault.holdMs, () => send(res, 201, commit()), true);
      case 'commit_then_drop':
        commit();
        return void req.socket.destroy();
      case 'drop_before_commit':
        release();
        return void req.socket.destroy();
      case 'drop_then_commit':
        req.socket.destroy();
        return this.later(fault.commitMs, () => void commit(), true);
      case 'commit_then_hang':
        this.hung.add(req.socket);
        req.socket.once('close', () => this.hung.delete(req.socket));
        return void commit();
      case 'commit_then_stall_body': {
        const text = JSON.stringify(commit());
        res.writeHead(201, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
        return void res.write(text.slice(0, Math.floor(text.length / 2)));
      }
      case 'gateway_timeout':
        this.later(fault.answerMs, () => send(res, 504, { message: 'upstream request timeout' }));
        return this.later(fault.commitMs, () => void commit(), true);
      case 'answer':
        release();
        return send(res, fault.status, fault.body);
      case 'commit_then_answer':
        return answerRaw(res, fault, JSON.stringify(commit()));
      case 'redirect': {
        const paymentId = fault.commit ? commit().paymentId : (release(), 'none');
        res.writeHead(fault.status, { location: this.location(fault.to, paymentId), 'content-type': 'text/plain' });
        return void res.end('Redirecting');
      }
      case 'big_answer':
        if (fault.commit) commit();
        else release();
        return streamBig(res, fault);
      case 'async_failed_then_succeeded': {
        this.failedJobs.add(key);
        this.later(fault.succeedMs, () => (this.failedJobs.delete(key), void commit()), true);
        return send(res, 202, { status: 'pending' });
      }
    }
  }

  /** The `Location` a redirect to `to` names. */
  private location(to: RedirectTarget, paymentId: string): string {
    switch (to) {
      case 'login':
        return '/login?next=%2Fpayments';
      case 'receipt':
        return `/receipts/${paymentId}`;
      case 'self':
        return '/payments';
      case 'other_host':
        return `http://127.0.0.2:${this.otherPort}/payments`;
      case 'other_port':
        return `http://127.0.0.1:${this.otherPort}/payments`;
      case 'credentials':
        return `http://pay:${LOCATION_PASSWORD}@127.0.0.1:${this.port}/payments#receipt`;
    }
  }

  /** This origin's port, once it listens. */
  port = 0;

  /** The true answer of a read now, as status and body. */
  private readNow(url: URL): [number, unknown] {
    const byKey = /^(?:\/v2)?\/payments\/by-key\/(.+)$/.exec(url.pathname);
    if (byKey && this.failedJobs.has(decodeURIComponent(byKey[1]!))) return [200, { status: 'failed' }];
    if (!byKey) return [200, { payments: this.store.readByInvoice(url.searchParams.get('invoice') ?? '') }];
    const p = this.store.readByKey(decodeURIComponent(byKey[1]!));
    if (p && this.o.read.kind === 'huge_200') return [200, { ...p, receipt: 'r'.repeat(this.o.read.bytes) }];
    return p ? [200, p] : [404, { status: 'not_found' }];
  }

  read(res: ServerResponse, url: URL): void {
    this.reads += 1;
    for (const w of this.readWaiters.splice(0)) w();
    const subject = url.pathname + url.search;
    const n = (this.readsBySubject.get(subject) ?? 0) + 1;
    this.readsBySubject.set(subject, n);
    const f = this.o.read;
    if (f.kind === 'redirect' && url.pathname.startsWith('/payments/by-key/')) {
      const to = f.to === 'other_host' ? `http://127.0.0.2:${this.otherPort}${url.pathname}` : `/v2${url.pathname}`;
      res.writeHead(302, { location: to });
      return void res.end();
    }
    if (f.kind === 'down') return send(res, 503, { error: 'read path unavailable' });
    if (f.kind === 'html_200') return sendRaw(res, 200, 'text/html; charset=utf-8', HTML_PAGE);
    if (f.kind === 'empty_200') return sendRaw(res, 200, 'application/json', '');
    if (f.kind === 'not_found_once' && n === 1)
      return url.pathname === '/payments' ? send(res, 200, { payments: [] }) : send(res, 404, { status: 'not_found' });
    const [status, body] = this.readNow(url);
    if (f.kind === 'slow_first' && n <= f.count) return this.later(f.hangMs, () => send(res, status, body));
    send(res, status, body);
  }
}

export async function startPaymentsService(o: PaymentsServiceOptions): Promise<PaymentsService> {
  const p = new Payments(o);
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString('utf8')));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://payments');
      if (req.method === 'POST' && url.pathname === '/payments') {
        p.post(req, res, text).catch(() => send(res, 500, { code: 'internal' }));
      } else if (req.method === 'GET' && /^\/(?:v2\/)?payments/.test(url.pathname)) {
        p.read(res, url);
      } else if (req.method === 'GET' && url.pathname === '/login') {
        sendRaw(res, 200, 'text/html; charset=utf-8', HTML_PAGE);
      } else send(res, 404, { code: 'no_route' });
    });
  });
  const foreign: string[] = [];
  const other = createServer((req, res) => {
    let bytes = 0;
    req.on('data', (c: Buffer) => (bytes += c.length));
    req.on('end', () => {
      const carried = [...(bytes > 0 ? ['body'] : []), ...CARRIED_HEADERS.filter((h) => req.headers[h] !== undefined)];
      foreign.push(`${req.method} ${req.url?.split('?')[0]}: ${carried.join(', ') || 'nothing'}`);
      send(res, req.method === 'POST' ? 201 : 200, ELSEWHERE);
    });
  });
  const port = await listen(server, '127.0.0.1');
  p.port = port;
  p.otherPort = await listen(other, '0.0.0.0');
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    store: p.store,
    rows: (key) => p.store.rows(key),
    posts: (key) =>
      key === undefined ? [...p.postsByKey.values()].reduce((a, b) => a + b, 0) : (p.postsByKey.get(key) ?? 0),
    reads: () => p.reads,
    foreign: () => [...foreign],
    nextPost: () => new Promise((ok) => p.postWaiters.push(ok)),
    nextRead: () => new Promise((ok) => p.readWaiters.push(ok)),
    async drain(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (p.pendingCommits > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      return p.pendingCommits === 0;
    },
    releaseHung() {
      const n = p.hung.size;
      for (const s of [...p.hung]) s.destroy();
      p.hung.clear();
      return n;
    },
    close: async () => {
      p.closed = true;
      await Promise.all([stop(server), stop(other)]);
      p.store.close();
    },
  };
}

/** A payment the other origin answers with: a commit there, not in this service's store. */
const ELSEWHERE = { paymentId: 'pay_elsewhere', invoice: 'INV-elsewhere', amountCents: 1, status: 'captured' };

async function listen(server: Server, host: string): Promise<number> {
  await new Promise<void>((ok) => server.listen(0, host, () => ok()));
  return (server.address() as AddressInfo).port;
}

function stop(server: Server): Promise<void> {
  return new Promise<void>((done) => {
    server.close(() => done());
    server.closeAllConnections();
  });
}

/** The body an `AnswerBody` names, from the payment's JSON text. */
function bodyOf(kind: AnswerBody, json: string): string {
  switch (kind) {
    case 'payment':
      return json;
    case 'half':
      return json.slice(0, Math.floor(json.length / 2));
    case 'corrupt':
      return json.replace(/"/g, "'");
    case 'empty':
      return '';
  }
}

function answerRaw(res: ServerResponse, f: Extract<PostFault, { kind: 'commit_then_answer' }>, json: string): void {
  const text = bodyOf(f.body, json);
  const length = Buffer.byteLength(text) * (f.overstate ? 2 : 1);
  const headers: Record<string, string> = { ...f.headers };
  if (f.status !== 204) {
    headers['content-type'] = f.contentType ?? 'application/json';
    headers['content-length'] = String(length);
  }
  res.writeHead(f.status, headers);
  if (!f.overstate) return void res.end(text);
  res.write(text);
  setTimeout(() => res.socket?.destroy(), 50).unref();
}

/** `bytes` of body in 64 KiB chunks (or without end), gzip-compressed zeros when `gzip`; stops when the client goes. */
function streamBig(res: ServerResponse, f: Extract<PostFault, { kind: 'big_answer' }>): void {
  res.writeHead(f.status, {
    'content-type': 'application/json',
    ...(f.gzip ? { 'content-encoding': 'gzip' } : {}),
  });
  const sink = f.gzip ? createGzip() : res;
  if (f.gzip) sink.pipe(res);
  const chunk = f.gzip ? Buffer.alloc(CHUNK.length) : CHUNK;
  let left = f.bytes === 'endless' ? Infinity : f.bytes;
  if (!f.gzip) sink.write('{"error":"');
  const pump = (): void => {
    while (left > 0 && !res.destroyed) {
      left -= chunk.length;
      if (!sink.write(chunk)) return void sink.once('drain', pump);
    }
    if (!res.destroyed) sink.end(f.gzip ? undefined : '"}');
  };
  res.on('close', () => (left = 0));
  pump();
}

function send(res: ServerResponse, status: number, body: unknown): void {
  sendRaw(res, status, 'application/json', JSON.stringify(body));
}

function sendRaw(res: ServerResponse, status: number, contentType: string, text: string): void {
  if (res.destroyed || res.headersSent) return;
  res.writeHead(status, { 'content-type': contentType });
  res.end(text);
}
