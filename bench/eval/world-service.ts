/**
 * The eval's world: a loopback HTTP service over SQLite (better-sqlite3) holding what the scenarios change mid-run
 * — records and their replica, documents and their trash, prices and orders, subscriptions, invoices, summaries —
 * with a fault schedule per request path. A fixture of the benchmark, not of the library.
 *
 * Endpoints (JSON in and out; `:id` is a record, document or SKU id):
 * - `GET /records/:id`, `GET /replica/records/:id` (`?fields=a,b&format=json&page=1`) → `200 { recordId, title,
 *   owner, updatedAt }` (only `fields` when given); `format` other than `json` → `400 { error: { code: 400,
 *   message: "Bad Request" } }`; `page` over 1 → `422 { errors: [{ field: "page", message: "must be ≤ 1" }] }`;
 *   an unknown record → `404 { code: "not_found" }`.
 * - `GET /broken/records/:id` → headers and half a body, then the socket is destroyed.
 * - `GET /inventory/:sku` → `200 { sku, units: 4 }`.
 * - `GET /docs?folder=F` → `200 { docs: [ids] }`; `GET /docs/:id` → `200 { docId, text }` or `404 { code:
 *   "document_not_found" }`; `GET /trash/docs/:id` → the deleted document.
 * - `GET /quotes/:sku` → `200 { sku, priceCents }`; `POST /orders` (`Idempotency-Key`; `{ sku, priceCents }`) →
 *   `201 { orderId, sku, priceCents }`, `409 { code: "price_changed", currentPriceCents }` when the price differs;
 *   the same key again → `200` with the first order (the store deduplicates).
 * - `POST /subscriptions` (`{ email, list }`) → `201 { subscriptionId }` or `409 { code: "already_subscribed" }`;
 *   `GET /subscriptions?email=E&list=L` → `200 { subscribed: boolean }`.
 * - `POST /invoices` (`Idempotency-Key`; `{ customerId, amountCents, currency, dueDate }`) → `201 { invoiceId }` or
 *   `422 { errors: [{ field, message }] }` naming each bad field; deduplicated by key.
 * - `POST /summaries` (`Idempotency-Key`; `{ recordId, title }`) → `201 { summaryId, recordId, title }`; a repeated
 *   key → `409 { code: "duplicate_idempotency_key" }` (not deduplicated); `GET /summaries?op_key=K` → `200` or `404`.
 * - `POST /exports` → `201 { exportId }`.
 * - `POST /emails` (`{ recipient, issue, dedupeKey }`) → `201 { messageId, recipient, issue }`: an e-mail provider
 *   with no idempotency support — every POST sends one more e-mail (row); `GET /emails?dedupe_key=K` → the first
 *   message sent under `K` (the sender's own reference), or `404 { code: "not_found", seen }`.
 * Any path can carry a fault schedule (`fault(path, schedule)`): the n-th request to it (0-based) gets the answer the
 * schedule returns, or the normal one when it returns undefined.
 */
import Database from 'better-sqlite3';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A scheduled answer: a status with a JSON body (or raw `text`); a socket destroyed before anything is done; or the
 * normal handling (a write commits) followed by a destroyed socket (`afterCommit: 'destroy'`) or by the answer
 * `afterCommit` ms late.
 */
export type WorldAnswer =
  | { status: number; headers?: Readonly<Record<string, string>>; body?: unknown; text?: string }
  | { destroy: true }
  | { afterCommit: 'destroy' | number };

/**
 * The answer for the n-th request (0-based) to a path at `nowMs`, given its JSON body and headers (lower-case
 * names); undefined = the normal answer.
 */
export type Schedule = (
  n: number,
  nowMs: number,
  body: Record<string, unknown>,
  headers: IncomingMessage['headers'],
) => WorldAnswer | undefined;

export interface WorldService {
  url: string;
  db: Database.Database;
  /** Sets the schedule of `path` (`"GET /records/R-1"`), replacing any. */
  fault(path: string, schedule: Schedule): void;
  /** Requests received on `path` so far. */
  hits(path: string): number;
  addRecord(id: string, title: string, where?: 'primary' | 'replica' | 'both'): void;
  addDocument(folder: string, docId: string, text: string): void;
  /** One shot: right after the next listing of `folder` is sent, `docId` moves to the trash. */
  deleteAfterListing(folder: string, docId: string): void;
  setPrice(sku: string, priceCents: number): void;
  /** One shot: right after the next quote of `sku` is sent, its price becomes `priceCents`. */
  changePriceAfterQuote(sku: string, priceCents: number): void;
  subscribe(email: string, list: string): void;
  /** Rows of a table, optionally where `column = value`. */
  rows(
    table: 'orders' | 'subscriptions' | 'invoices' | 'summaries' | 'emails',
    column?: string,
    value?: string,
  ): number;
  close(): Promise<void>;
}

const SCHEMA = `
  CREATE TABLE records (id TEXT NOT NULL, store TEXT NOT NULL, title TEXT NOT NULL, PRIMARY KEY (id, store));
  CREATE TABLE docs (id TEXT PRIMARY KEY, folder TEXT NOT NULL, text TEXT NOT NULL, trashed INTEGER NOT NULL DEFAULT 0);
  CREATE TABLE prices (sku TEXT PRIMARY KEY, price_cents INTEGER NOT NULL);
  CREATE TABLE orders (order_id TEXT PRIMARY KEY, op_key TEXT NOT NULL UNIQUE, sku TEXT NOT NULL, price_cents INTEGER NOT NULL);
  CREATE TABLE subscriptions (id TEXT PRIMARY KEY, email TEXT NOT NULL, list TEXT NOT NULL, UNIQUE (email, list));
  CREATE TABLE invoices (invoice_id TEXT PRIMARY KEY, op_key TEXT NOT NULL UNIQUE, customer_id TEXT NOT NULL, amount_cents INTEGER NOT NULL);
  CREATE TABLE emails (message_id TEXT PRIMARY KEY, dedupe_key TEXT NOT NULL, recipient TEXT NOT NULL, issue TEXT NOT NULL);
  CREATE TABLE summaries (summary_id TEXT PRIMARY KEY, op_key TEXT NOT NULL UNIQUE, record_id TEXT NOT NULL, title TEXT NOT NULL);
`;

type Reply = { status: number; body: unknown; headers?: Record<string, string> };
const reply = (status: number, body: unknown, headers?: Record<string, string>): Reply => ({ status, body, headers });

/** Starts the world on a free loopback port, over an in-memory database. */
export async function startWorldService(): Promise<WorldService> {
  const db = new Database(':memory:');
  db.exec(SCHEMA);
  const schedules = new Map<string, Schedule>();
  const hits = new Map<string, number>();
  const afterListing = new Map<string, string[]>();
  const afterQuote = new Map<string, number>();
  let seq = 1;
  const id = (prefix: string) => `${prefix}_${seq++}`;
  const routes = createRoutes(db, id, afterListing, afterQuote);

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://world');
      const path = `${req.method ?? 'GET'} ${url.pathname}`;
      const n = hits.get(path) ?? 0;
      hits.set(path, n + 1);
      let body: Record<string, unknown> | undefined = {};
      try {
        body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : {};
      } catch {
        body = undefined;
      }
      const scheduled = schedules.get(path)?.(n, Date.now(), body ?? {}, req.headers);
      if (scheduled && !('afterCommit' in scheduled)) return answerScheduled(req, res, scheduled);
      if (body === undefined) return send(res, reply(400, { code: 'invalid_json' }));
      if (path.startsWith('GET /broken/')) return halfBody(res);
      const answer = routes(req, url, body) ?? reply(404, { code: 'no_route' });
      if (scheduled?.afterCommit === 'destroy') req.socket.destroy();
      else if (typeof scheduled?.afterCommit === 'number')
        setTimeout(() => send(res, answer), scheduled.afterCommit).unref();
      else send(res, answer);
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  const { port } = server.address() as AddressInfo;
  const count = (table: string, column?: string, value?: string) =>
    (
      db
        .prepare(`SELECT COUNT(*) AS n FROM ${table}${column ? ` WHERE ${column} = ?` : ''}`)
        .get(...(column ? [value] : [])) as { n: number }
    ).n;
  return {
    url: `http://127.0.0.1:${port}`,
    db,
    fault: (path, schedule) => void schedules.set(path, schedule),
    hits: (path) => hits.get(path) ?? 0,
    addRecord(recordId, title, where = 'both') {
      const stores = where === 'both' ? ['primary', 'replica'] : [where];
      for (const s of stores) db.prepare('INSERT INTO records VALUES (?, ?, ?)').run(recordId, s, title);
    },
    addDocument: (folder, docId, text) =>
      void db.prepare('INSERT INTO docs (id, folder, text) VALUES (?, ?, ?)').run(docId, folder, text),
    deleteAfterListing: (folder, docId) => void afterListing.set(folder, [...(afterListing.get(folder) ?? []), docId]),
    setPrice: (sku, cents) => void db.prepare('INSERT OR REPLACE INTO prices VALUES (?, ?)').run(sku, cents),
    changePriceAfterQuote: (sku, cents) => void afterQuote.set(sku, cents),
    subscribe: (email, list) =>
      void db.prepare('INSERT INTO subscriptions VALUES (?, ?, ?)').run(id('sub'), email, list),
    rows: (table, column, value) => count(table, column, value),
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

function send(res: ServerResponse, r: Reply): void {
  if (res.destroyed) return;
  res.writeHead(r.status, { 'content-type': 'application/json', ...r.headers });
  res.end(JSON.stringify(r.body));
}

function answerScheduled(req: IncomingMessage, res: ServerResponse, a: Exclude<WorldAnswer, { afterCommit: unknown }>) {
  if ('destroy' in a) {
    req.socket.destroy();
    return;
  }
  const text = a.text ?? JSON.stringify(a.body ?? {});
  res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers });
  res.end(text);
}

/** Headers and the first half of a JSON body, then the socket is destroyed (a read cut mid-body). */
function halfBody(res: ServerResponse): void {
  const text = JSON.stringify({ recordId: 'R-0', title: 'x'.repeat(2_000) });
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(text.length) });
  res.write(text.slice(0, text.length / 2), () => res.socket?.destroy());
}

/** The normal answers, by route. */
function createRoutes(
  db: Database.Database,
  id: (prefix: string) => string,
  afterListing: Map<string, string[]>,
  afterQuote: Map<string, number>,
) {
  const record = db.prepare<[string, string], { title: string }>(
    'SELECT title FROM records WHERE id = ? AND store = ?',
  );
  const doc = db.prepare<[string], { text: string; trashed: number }>('SELECT text, trashed FROM docs WHERE id = ?');
  const price = db.prepare<[string], { price_cents: number }>('SELECT price_cents FROM prices WHERE sku = ?');
  const orderByKey = db.prepare<[string], { order_id: string; sku: string; price_cents: number }>(
    'SELECT order_id, sku, price_cents FROM orders WHERE op_key = ?',
  );
  const summaryByKey = db.prepare<[string], { summary_id: string; record_id: string; title: string }>(
    'SELECT summary_id, record_id, title FROM summaries WHERE op_key = ?',
  );

  const getRecord = (store: 'primary' | 'replica', recordId: string, q: URLSearchParams): Reply => {
    if ((q.get('format') ?? 'json') !== 'json') return reply(400, { error: { code: 400, message: 'Bad Request' } });
    if (Number(q.get('page') ?? '1') > 1) return reply(422, { errors: [{ field: 'page', message: 'must be ≤ 1' }] });
    const row = record.get(recordId, store);
    if (!row) return reply(404, { code: 'not_found', message: 'no such record' });
    const full = { recordId, title: row.title, owner: 'ops', updatedAt: '2026-11-30' } as Record<string, unknown>;
    const fields = q.get('fields')?.split(',');
    return reply(200, fields ? Object.fromEntries(['recordId', ...fields].map((f) => [f, full[f]])) : full);
  };

  return (req: IncomingMessage, url: URL, body: Record<string, unknown>): Reply | undefined => {
    const [, a, b, c] = url.pathname.split('/');
    const key = String(req.headers['idempotency-key'] ?? '');
    const method = req.method ?? 'GET';
    if (method === 'GET' && a === 'records' && b) return getRecord('primary', decodeURIComponent(b), url.searchParams);
    if (method === 'GET' && a === 'replica' && b === 'records' && c)
      return getRecord('replica', decodeURIComponent(c), url.searchParams);
    if (method === 'GET' && a === 'inventory' && b) return reply(200, { sku: decodeURIComponent(b), units: 4 });
    if (method === 'GET' && a === 'docs' && !b) {
      const folder = url.searchParams.get('folder') ?? '';
      const ids = db.prepare('SELECT id FROM docs WHERE folder = ? AND trashed = 0 ORDER BY id').all(folder);
      const out = reply(200, { docs: ids.map((r) => (r as { id: string }).id) });
      for (const d of afterListing.get(folder) ?? []) db.prepare('UPDATE docs SET trashed = 1 WHERE id = ?').run(d);
      afterListing.delete(folder);
      return out;
    }
    if (method === 'GET' && (a === 'docs' || (a === 'trash' && b === 'docs'))) {
      const docId = decodeURIComponent((a === 'docs' ? b : c) ?? '');
      const row = doc.get(docId);
      const visible = row && (a === 'docs' ? row.trashed === 0 : row.trashed === 1);
      return visible
        ? reply(200, { docId, text: row.text })
        : reply(404, { code: 'document_not_found', message: 'no such document' });
    }
    if (method === 'GET' && a === 'quotes' && b) {
      const sku = decodeURIComponent(b);
      const p = price.get(sku);
      if (!p) return reply(404, { code: 'not_found' });
      const out = reply(200, { sku, priceCents: p.price_cents });
      const next = afterQuote.get(sku);
      if (next !== undefined) db.prepare('UPDATE prices SET price_cents = ? WHERE sku = ?').run(next, sku);
      afterQuote.delete(sku);
      return out;
    }
    if (method === 'POST' && a === 'orders') {
      const prior = orderByKey.get(key);
      if (prior) return reply(200, { orderId: prior.order_id, sku: prior.sku, priceCents: prior.price_cents });
      const current = price.get(String(body.sku))?.price_cents;
      if (current === undefined) return reply(404, { code: 'not_found', message: 'no such sku' });
      if (current !== body.priceCents) {
        return reply(409, { code: 'price_changed', message: 'the price changed', currentPriceCents: current });
      }
      const orderId = id('ord');
      db.prepare('INSERT INTO orders VALUES (?, ?, ?, ?)').run(orderId, key, String(body.sku), current);
      return reply(201, { orderId, sku: body.sku, priceCents: current });
    }
    if (a === 'subscriptions') return subscriptions(db, id, method, url, body);
    if (method === 'POST' && a === 'invoices') return invoice(db, id, key, body);
    if (method === 'POST' && a === 'summaries') {
      try {
        const summaryId = id('sum');
        db.prepare('INSERT INTO summaries VALUES (?, ?, ?, ?)').run(
          summaryId,
          key,
          String(body.recordId),
          String(body.title),
        );
        return reply(201, { summaryId, recordId: body.recordId, title: body.title });
      } catch {
        return reply(409, { code: 'duplicate_idempotency_key' });
      }
    }
    if (method === 'GET' && a === 'summaries') {
      const row = summaryByKey.get(url.searchParams.get('op_key') ?? '');
      return row
        ? reply(200, { summaryId: row.summary_id, recordId: row.record_id, title: row.title })
        : reply(404, { code: 'not_found' });
    }
    if (method === 'POST' && a === 'exports') return reply(201, { exportId: id('exp') });
    if (a === 'emails') return emails(db, id, method, url, body);
    return undefined;
  };
}

function subscriptions(
  db: Database.Database,
  id: (prefix: string) => string,
  method: string,
  url: URL,
  body: Record<string, unknown>,
): Reply | undefined {
  if (method === 'GET') {
    const n = db
      .prepare('SELECT COUNT(*) AS n FROM subscriptions WHERE email = ? AND list = ?')
      .get(url.searchParams.get('email'), url.searchParams.get('list')) as { n: number };
    return reply(200, { subscribed: n.n > 0 });
  }
  if (method !== 'POST') return undefined;
  try {
    const subscriptionId = id('sub');
    db.prepare('INSERT INTO subscriptions VALUES (?, ?, ?)').run(subscriptionId, String(body.email), String(body.list));
    return reply(201, { subscriptionId });
  } catch {
    return reply(409, { code: 'already_subscribed', message: 'this address is already on the list' });
  }
}

function invoice(db: Database.Database, id: (prefix: string) => string, key: string, body: Record<string, unknown>) {
  const prior = db.prepare('SELECT invoice_id FROM invoices WHERE op_key = ?').get(key) as
    | { invoice_id: string }
    | undefined;
  if (prior) return reply(200, { invoiceId: prior.invoice_id });
  const errors: { field: string; message: string }[] = [];
  if (typeof body.customerId !== 'string' || !/^cus_/.test(body.customerId))
    errors.push({ field: 'customerId', message: 'must look like cus_<id>' });
  if (!Number.isInteger(body.amountCents) || (body.amountCents as number) <= 0)
    errors.push({ field: 'amountCents', message: 'must be a positive integer (cents)' });
  if (body.currency !== 'usd' && body.currency !== 'eur') errors.push({ field: 'currency', message: 'usd or eur' });
  if (typeof body.dueDate !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(body.dueDate))
    errors.push({ field: 'dueDate', message: 'must be a date YYYY-MM-DD' });
  if (errors.length > 0) return reply(422, { code: 'invalid_request', errors });
  const invoiceId = id('inv');
  db.prepare('INSERT INTO invoices VALUES (?, ?, ?, ?)').run(invoiceId, key, body.customerId, body.amountCents);
  return reply(201, { invoiceId });
}

function emails(
  db: Database.Database,
  id: (prefix: string) => string,
  method: string,
  url: URL,
  body: Record<string, unknown>,
): Reply | undefined {
  if (method === 'POST') {
    const messageId = id('msg');
    db.prepare('INSERT INTO emails VALUES (?, ?, ?, ?)').run(
      messageId,
      String(body.dedupeKey ?? ''),
      String(body.recipient),
      String(body.issue),
    );
    return reply(201, { messageId, recipient: body.recipient, issue: body.issue });
  }
  if (method !== 'GET') return undefined;
  const row = db
    .prepare('SELECT message_id, recipient, issue FROM emails WHERE dedupe_key = ? ORDER BY rowid LIMIT 1')
    .get(url.searchParams.get('dedupe_key') ?? '') as
    | { message_id: string; recipient: string; issue: string }
    | undefined;
  return row
    ? reply(200, { messageId: row.message_id, recipient: row.recipient, issue: row.issue })
    : reply(404, { code: 'not_found', seen: false });
}
