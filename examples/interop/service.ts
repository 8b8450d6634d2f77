/**
 * The loopback service of the interop scenarios (AI SDK, OpenAI Agents), self-contained (node:http only) so the
 * consumer test can copy it into a fresh project: a calendar whose 10:00 slot is taken and an e-mail outbox that
 * loses the answer to the first send after committing it.
 *
 * - `POST /bookings` `{ slot, customerId }` → `201 { bookingId, slot }`; a taken slot → `409 { code: "slot_taken",
 *   message, freeSlots }`.
 * - `POST /emails` `{ to, subject, dedupeKey }` → `201 { messageId }`, `422 { code: "invalid_recipient" }` for a `to`
 *   without `@`; while `loseNextSend` is set, the first send
 *   is committed and its connection dropped without an answer.
 * - `GET /emails?dedupeKey=K` → `200 <message>` when committed, `404 { status: "not_found" }` otherwise.
 * Counts every request per route and keeps the committed rows.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface InteropService {
  url: string;
  /** Requests per route, e.g. `"POST /bookings"`. */
  hits: Record<string, number>;
  bookings: { bookingId: string; slot: string; customerId: string }[];
  emails: { messageId: string; to: string; subject: string; dedupeKey: string }[];
  /** Drop the answer of the next `POST /emails` after committing it. */
  loseNextSend: boolean;
  /** Clears the rows and counts; `10:00` is taken again. */
  reset(): void;
  close(): Promise<void>;
}

const TAKEN = ['10:00'];
const FREE = ['11:00', '14:30'];

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function handle(s: InteropService, req: IncomingMessage, res: ServerResponse, text: string): void {
  const url = new URL(req.url ?? '/', 'http://x');
  const route = `${req.method ?? 'GET'} ${url.pathname}`;
  s.hits[route] = (s.hits[route] ?? 0) + 1;
  const body = (text ? JSON.parse(text) : {}) as Record<string, string>;
  if (route === 'POST /bookings') {
    if (TAKEN.includes(body.slot ?? '') || s.bookings.some((b) => b.slot === body.slot)) {
      const free = FREE.filter((f) => !s.bookings.some((b) => b.slot === f));
      return send(res, 409, { code: 'slot_taken', message: `slot ${body.slot} is taken`, freeSlots: free });
    }
    const row = { bookingId: `bk_${s.bookings.length + 1}`, slot: body.slot!, customerId: body.customerId! };
    s.bookings.push(row);
    return send(res, 201, { bookingId: row.bookingId, slot: row.slot });
  }
  if (route === 'POST /emails') {
    if (!(body.to ?? '').includes('@')) {
      return send(res, 422, { code: 'invalid_recipient', message: 'to is not an e-mail address', param: 'to' });
    }
    const row = {
      messageId: `msg_${s.emails.length + 1}`,
      to: body.to!,
      subject: body.subject!,
      dedupeKey: body.dedupeKey!,
    };
    s.emails.push(row);
    if (s.loseNextSend) {
      s.loseNextSend = false;
      req.socket.destroy();
      return;
    }
    return send(res, 201, { messageId: row.messageId });
  }
  if (route === 'GET /emails') {
    const row = s.emails.find((e) => e.dedupeKey === url.searchParams.get('dedupeKey'));
    return row ? send(res, 200, row) : send(res, 404, { status: 'not_found' });
  }
  send(res, 404, { code: 'no_route' });
}

/** Starts the service on a free loopback port. */
export async function startInteropService(): Promise<InteropService> {
  const service: InteropService = {
    url: '',
    hits: {},
    bookings: [],
    emails: [],
    loseNextSend: false,
    reset() {
      this.hits = {};
      this.bookings = [];
      this.emails = [];
      this.loseNextSend = false;
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(service, req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => ok());
  });
  service.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return service;
}
