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

export async function startPaymentsService(o: PaymentsServiceOptions): Promise<PaymentsService> {
  const lagMs = o.read.kind === 'replica_lag' ? o.read.lagMs : 0;
  const store = new PaymentsStore(lagMs, o.tmpDir);
  const postsByKey = new Map<string, number>();
  const readsBySubject = new Map<string, number>();
  let reads = 0;
  let pendingCommits = 0;
  let closed = false;
  const postWaiters: ((key: string) => void)[] = [];
  const readWaiters: (() => void)[] = [];

  const later = (ms: number, fn: () => void, commits = false) => {
    if (commits) pendingCommits += 1;
    setTimeout(() => {
      if (commits) pendingCommits -= 1;
      if (!closed) fn();
    }, ms).unref();
  };

  const handlePost = async (req: IncomingMessage, res: ServerResponse, text: string) => {
    const key = String(req.headers['idempotency-key'] ?? '');
    if (!key) return send(res, 400, { code: 'missing_idempotency_key' });
    const n = (postsByKey.get(key) ?? 0) + 1;
    postsByKey.set(key, n);
    for (const w of postWaiters.splice(0)) w(key);
    const body = JSON.parse(text) as { invoice?: unknown; amountCents?: unknown };
    const fault: PostFault = n === 1 || (o.post.kind === 'answer' && o.post.every) ? o.post : { kind: 'none' };
    if (o.dedupe) {
      const state = store.claim(key, text);
      if (state.kind === 'in_flight') return send(res, 409, { code: 'idempotency_key_in_use' });
      if (state.kind === 'mismatch') return send(res, 422, { code: 'idempotency_key_reused' });
      if (state.kind === 'done') return send(res, 200, state.payment);
    }
    if (n === 1 && o.read.kind === 'restored_backup') await store.restoreReplicaFromBackup(o.read.forMs);
    const commit = (): Payment => store.commit(key, String(body.invoice), Number(body.amountCents));
    postUnder(fault, req, res, commit, () => store.release(key));
  };

  /** Serves one POST under `fault`: when it commits, when and whether it answers. */
  const postUnder = (
    fault: PostFault,
    req: IncomingMessage,
    res: ServerResponse,
    commit: () => Payment,
    release: () => void,
  ) => {
    switch (fault.kind) {
      case 'none':
        return send(res, 201, commit());
      case 'hold_commit':
        return later(fault.holdMs, () => send(res, 201, commit()), true);
      case 'commit_then_drop':
        commit();
        return req.socket.destroy();
      case 'drop_before_commit':
        release();
        return req.socket.destroy();
      case 'drop_then_commit':
        req.socket.destroy();
        return later(fault.commitMs, () => void commit(), true);
      case 'commit_then_hang':
        return void commit();
      case 'commit_then_stall_body': {
        const text = JSON.stringify(commit());
        res.writeHead(201, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
        return void res.write(text.slice(0, Math.floor(text.length / 2)));
      }
      case 'gateway_timeout':
        later(fault.answerMs, () => send(res, 504, { message: 'upstream request timeout' }));
        return later(fault.commitMs, () => void commit(), true);
      case 'answer':
        release();
        return send(res, fault.status, fault.body);
    }
  };

  /** The true answer of a read now, as status and body. */
  const readNow = (url: URL): [number, unknown] => {
    const byKey = /^\/payments\/by-key\/(.+)$/.exec(url.pathname);
    if (byKey) {
      const p = store.readByKey(decodeURIComponent(byKey[1]!));
      if (p && o.read.kind === 'huge_200') return [200, { ...p, receipt: 'r'.repeat(o.read.bytes) }];
      return p ? [200, p] : [404, { status: 'not_found' }];
    }
    return [200, { payments: store.readByInvoice(url.searchParams.get('invoice') ?? '') }];
  };

  const handleRead = (res: ServerResponse, url: URL) => {
    reads += 1;
    for (const w of readWaiters.splice(0)) w();
    const subject = url.pathname + url.search;
    const n = (readsBySubject.get(subject) ?? 0) + 1;
    readsBySubject.set(subject, n);
    const f = o.read;
    if (f.kind === 'down') return send(res, 503, { error: 'read path unavailable' });
    if (f.kind === 'html_200') return sendRaw(res, 200, 'text/html; charset=utf-8', HTML_PAGE);
    if (f.kind === 'empty_200') return sendRaw(res, 200, 'application/json', '');
    if (f.kind === 'not_found_once' && n === 1)
      return url.pathname === '/payments' ? send(res, 200, { payments: [] }) : send(res, 404, { status: 'not_found' });
    const [status, body] = readNow(url);
    if (f.kind === 'slow_first' && n <= f.count) return later(f.hangMs, () => send(res, status, body));
    send(res, status, body);
  };

  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString('utf8')));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://payments');
      if (req.method === 'POST' && url.pathname === '/payments') {
        handlePost(req, res, text).catch(() => send(res, 500, { code: 'internal' }));
      } else if (req.method === 'GET' && url.pathname.startsWith('/payments')) {
        handleRead(res, url);
      } else send(res, 404, { code: 'no_route' });
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    store,
    rows: (key) => store.rows(key),
    posts: (key) =>
      key === undefined ? [...postsByKey.values()].reduce((a, b) => a + b, 0) : (postsByKey.get(key) ?? 0),
    reads: () => reads,
    nextPost: () => new Promise((ok) => postWaiters.push(ok)),
    nextRead: () => new Promise((ok) => readWaiters.push(ok)),
    async drain(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (pendingCommits > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      return pendingCommits === 0;
    },
    close: () =>
      new Promise<void>((done) => {
        closed = true;
        server.close(() => {
          store.close();
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
