/**
 * A real side-effect store for the examples and tests: refunds and e-mails in SQLite (better-sqlite3), behind a
 * loopback HTTP service that can be told, per request, to lose its answer after committing, to answer after the
 * client gave up, or to fail before committing. Fixtures of the examples and tests, not of the library.
 *
 * - `POST /refunds` (`Idempotency-Key` header; body `{ orderId, amountCents }`) → `201 { refundId, orderId,
 *   amountCents, status: "succeeded" }`. The table has `UNIQUE(op_key)`; a repeated key answers `409
 *   {"code":"duplicate_idempotency_key"}` — this receiver does NOT replay the first answer, so a blind replay is
 *   visible as a 409 and as a second POST in the request log.
 * - `GET /refunds?op_key=K` → `200 <refund>` when committed; `404 {"status":"not_found","seen":<bool>}` otherwise,
 *   `seen` telling whether a POST with that key ever arrived (an in-flight or lost request).
 * - `POST /emails` (body `{ recipient, issue, dedupeKey }`) and `GET /messages?dedupe_key=K`, the same way.
 */
import Database from 'better-sqlite3';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the next write request suffers. */
export type Fault =
  /** Commit, then drop the connection without an answer (the response is lost). */
  | { kind: 'lose_response' }
  /** Commit, then answer after `delayMs` (the client has usually given up). */
  | { kind: 'late_response'; delayMs: number }
  /** Commit only after `delayMs`, answering then (an attempt that outlives its timeout). */
  | { kind: 'slow_commit'; delayMs: number }
  /** Commit, then answer 503 (a gateway in front gave up after the service committed: the "refusal" is wrong). */
  | { kind: 'commit_then_503' }
  /** Drop the connection before committing anything (the service saw the request: a lookup answers `seen`). */
  | { kind: 'fail_before_commit' }
  /** Drop it as if it never reached the service (a proxy lost it): nothing committed, nothing seen. */
  | { kind: 'lost_in_transit' };

export interface LedgerService {
  url: string;
  db: Database.Database;
  /** Rows in `refunds` or `emails`, optionally for one key. */
  rows(table: 'refunds' | 'emails', key?: string): number;
  /** Requests received per route (`"POST /refunds"`, `"GET /refunds"`, …). */
  hits(route: string): number;
  /** Queues a fault for the next write request (FIFO). */
  fault(f: Fault): void;
  /** Picks the fault of a write when none is queued (e.g. a seeded random mix for chaos runs). */
  setFaultPicker(pick: ((key: string) => Fault | undefined) | undefined): void;
  /** Write requests received for `key` (its idempotency key or dedupe key), whatever became of them. */
  writes(key: string): number;
  /** Every lookup answers only after `ms` (a slow read replica). */
  setLookupDelayMs(ms: number): void;
  /** While down, lookups answer 503. */
  setLookupDown(down: boolean): void;
  /**
   * Lookups read a replica that lags by `ms`: what was written or seen less than `ms` ago is invisible to them
   * (a lookup then answers `not_found`, `seen: false`).
   */
  setLookupLagMs(ms: number): void;
  /** Stops accepting connections (clients get ECONNREFUSED) until `resume()`; the port is kept. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  close(): Promise<void>;
}

/** Starts the service on a free loopback port. `dbFile` defaults to an in-memory database. */
export async function startLedgerService(dbFile = ':memory:'): Promise<LedgerService> {
  const db = new Database(dbFile);
  db.exec(`
    CREATE TABLE IF NOT EXISTS refunds (
      refund_id TEXT PRIMARY KEY, op_key TEXT NOT NULL UNIQUE, order_id TEXT NOT NULL,
      amount_cents INTEGER NOT NULL, status TEXT NOT NULL, created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP);
    CREATE TABLE IF NOT EXISTS emails (
      message_id TEXT PRIMARY KEY, dedupe_key TEXT NOT NULL UNIQUE, recipient TEXT NOT NULL, issue TEXT NOT NULL);
  `);
  const faults: Fault[] = [];
  let pickFault: ((key: string) => Fault | undefined) | undefined;
  const writesByKey = new Map<string, number>();
  let lookupDelayMs = 0;
  const seen = new Map<string, number>(); // key → when the request arrived (ms)
  const committedAt = new Map<string, number>();
  let lookupLagMs = 0;
  const hits = new Map<string, number>();
  let lookupDown = false;
  let nextId = 1;

  const insertRefund = db.prepare(
    'INSERT INTO refunds (refund_id, op_key, order_id, amount_cents, status) VALUES (?, ?, ?, ?, ?)',
  );
  const refundByKey = db.prepare(
    'SELECT refund_id AS refundId, order_id AS orderId, amount_cents AS amountCents, status FROM refunds WHERE op_key = ?',
  );
  const insertEmail = db.prepare('INSERT INTO emails (message_id, dedupe_key, recipient, issue) VALUES (?, ?, ?, ?)');
  const emailByKey = db.prepare('SELECT message_id AS messageId, recipient, issue FROM emails WHERE dedupe_key = ?');

  const send = (res: ServerResponse, status: number, body: unknown) => {
    if (res.destroyed) return;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  /** Runs a write under the next fault. `commit` returns the answer, or throws a unique violation. */
  const write = (req: IncomingMessage, res: ServerResponse, key: string, commit: () => unknown) => {
    writesByKey.set(key, (writesByKey.get(key) ?? 0) + 1);
    const fault = faults.shift() ?? pickFault?.(key);
    if (fault?.kind === 'lost_in_transit') {
      req.socket.destroy();
      return;
    }
    seen.set(key, Date.now());
    const doCommit = (): [number, unknown] => {
      try {
        const answer = commit();
        committedAt.set(key, Date.now());
        return [201, answer];
      } catch (err) {
        if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE')
          return [409, { code: 'duplicate_idempotency_key' }];
        throw err;
      }
    };
    switch (fault?.kind) {
      case 'fail_before_commit':
        req.socket.destroy();
        return;
      case 'lose_response':
        doCommit();
        req.socket.destroy();
        return;
      case 'commit_then_503':
        doCommit();
        send(res, 503, { code: 'gateway_unavailable' });
        return;
      case 'late_response': {
        const [status, body] = doCommit();
        setTimeout(() => send(res, status, body), fault.delayMs).unref();
        return;
      }
      case 'slow_commit':
        setTimeout(() => {
          const [status, body] = doCommit();
          send(res, status, body);
        }, fault.delayMs).unref();
        return;
      default: {
        const [status, body] = doCommit();
        send(res, status, body);
      }
    }
  };

  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString('utf8')));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://ledger');
      const route = `${req.method} ${url.pathname}`;
      hits.set(route, (hits.get(route) ?? 0) + 1);
      const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      if (route === 'POST /refunds') {
        const key = String(req.headers['idempotency-key'] ?? '');
        if (!key) return send(res, 400, { code: 'missing_idempotency_key' });
        return write(req, res, key, () => {
          const refundId = `re_${nextId++}`;
          insertRefund.run(refundId, key, String(body.orderId), Number(body.amountCents), 'succeeded');
          return refundByKey.get(key);
        });
      }
      if (route === 'POST /emails') {
        const key = String(body.dedupeKey ?? '');
        return write(req, res, key, () => {
          insertEmail.run(`m-${nextId++}`, key, String(body.recipient), String(body.issue));
          return emailByKey.get(key);
        });
      }
      if (route === 'GET /refunds' || route === 'GET /messages') {
        if (lookupDelayMs > 0) {
          setTimeout(() => lookup(res, route, url), lookupDelayMs).unref();
          return;
        }
        return lookup(res, route, url);
      }
      send(res, 404, { code: 'no_route' });
    });
  });
  const lookup = (res: ServerResponse, route: string, url: URL) => {
    if (lookupDown) return send(res, 503, { error: 'lookup unavailable' });
    const key = url.searchParams.get(route === 'GET /refunds' ? 'op_key' : 'dedupe_key') ?? '';
    const visible = (at: number | undefined) => at !== undefined && Date.now() - at >= lookupLagMs;
    const row = visible(committedAt.get(key))
      ? (route === 'GET /refunds' ? refundByKey : emailByKey).get(key)
      : undefined;
    return row ? send(res, 200, row) : send(res, 404, { status: 'not_found', seen: visible(seen.get(key)) });
  };
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    db,
    rows: (table, key) =>
      key === undefined
        ? (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n
        : (
            db
              .prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE ${table === 'refunds' ? 'op_key' : 'dedupe_key'} = ?`)
              .get(key) as { n: number }
          ).n,
    hits: (route) => hits.get(route) ?? 0,
    fault: (f) => faults.push(f),
    setFaultPicker: (pick) => {
      pickFault = pick;
    },
    writes: (key) => writesByKey.get(key) ?? 0,
    setLookupDelayMs: (ms) => {
      lookupDelayMs = ms;
    },
    setLookupDown: (down) => {
      lookupDown = down;
    },
    setLookupLagMs: (ms) => {
      lookupLagMs = ms;
    },
    pause: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
    resume: () => new Promise((done) => server.listen(port, '127.0.0.1', () => done())),
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => {
          db.close();
          done();
        });
      }),
  };
}
