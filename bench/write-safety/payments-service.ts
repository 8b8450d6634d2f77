/**
 * A payments service on a loopback port (node:http) over a real SQLite store (payments-store.ts), with the fault
 * knobs of the write-safety matrix (fault-kinds.ts). A fixture of the bench and tests, not of the library.
 *
 * - `POST /payments` (`Idempotency-Key` header; body `{ invoice, amountCents }`) → `201 <payment>`. Every POST
 *   that commits is a row. With `dedupe`, a finished key replays its first answer (`200`), a key in flight is
 *   `409 {"code":"idempotency_key_in_use"}`, the same key with another body `422` (draft-ietf-httpapi-idempotency-key-header).
 * - `GET /payments/by-key/:key` (lookup) → `200 <payment>` or `404 {"status":"not_found"}`.
 * - `GET /payments?invoice=I` (verify) → `200 {"payments":[…]}`.
 * The first POST of each key suffers `post`; the read path suffers `read`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PostFault, ReadFault } from './fault-kinds';
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
  /** Resolves with the key of the next POST whose body was read. */
  nextPost(): Promise<string>;
  /** Resolves at the next read request. */
  nextRead(): Promise<void>;
  /** Resolves true once no held commit is pending, false after `timeoutMs` ms. */
  drain(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

const HTML_PAGE = '<!doctype html><html><head><title>Sign in</title></head><body>Sign in</body></html>';

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
    const fault: PostFault = n === 1 || (o.post.kind === 'answer' && o.post.every) ? o.post : { kind: 'none' };
    if (o.dedupe) {
      const state = this.store.claim(key, text);
      if (state.kind === 'in_flight') return send(res, 409, { code: 'idempotency_key_in_use' });
      if (state.kind === 'mismatch') return send(res, 422, { code: 'idempotency_key_reused' });
      if (state.kind === 'done') return send(res, 200, state.payment);
    }
    if (n === 1 && o.read.kind === 'restored_backup') await this.store.restoreReplicaFromBackup(o.read.forMs);
    const commit = (): Payment => this.store.commit(key, String(body.invoice), Number(body.amountCents));
    this.postUnder(fault, req, res, commit, () => this.store.release(key));
  }

  /** Serves one POST under `fault`: when it commits, when and whether it answers. */
  private postUnder(
    fault: PostFault,
    req: IncomingMessage,
    res: ServerResponse,
    commit: () => Payment,
    release: () => void,
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
    }
  }

  /** The true answer of a read now, as status and body. */
  private readNow(url: URL): [number, unknown] {
    const byKey = /^\/payments\/by-key\/(.+)$/.exec(url.pathname);
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
      } else if (req.method === 'GET' && url.pathname.startsWith('/payments')) {
        p.read(res, url);
      } else send(res, 404, { code: 'no_route' });
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    store: p.store,
    rows: (key) => p.store.rows(key),
    posts: (key) =>
      key === undefined ? [...p.postsByKey.values()].reduce((a, b) => a + b, 0) : (p.postsByKey.get(key) ?? 0),
    reads: () => p.reads,
    nextPost: () => new Promise((ok) => p.postWaiters.push(ok)),
    nextRead: () => new Promise((ok) => p.readWaiters.push(ok)),
    async drain(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (p.pendingCommits > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      return p.pendingCommits === 0;
    },
    close: () =>
      new Promise<void>((done) => {
        p.closed = true;
        server.close(() => {
          p.store.close();
          done();
        });
        server.closeAllConnections();
      }),
  };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  sendRaw(res, status, 'application/json', JSON.stringify(body));
}

function sendRaw(res: ServerResponse, status: number, contentType: string, text: string): void {
  if (res.destroyed || res.headersSent) return;
  res.writeHead(status, { 'content-type': contentType });
  res.end(text);
}
