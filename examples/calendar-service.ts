/**
 * A real calendar for the examples and tests: bookings in SQLite (better-sqlite3) behind a loopback HTTP service,
 * with a fault hook for the race the demo needs — a slot that is free when the agent plans and taken when it books
 * (issue: "a calendar tool that answers 409 when a slot is taken between plan and execution"). A fixture of the
 * examples and tests, not of the library.
 *
 * Working slots are `WORKING_SLOTS` (09:00–16:00, hourly) on every day. Endpoints (JSON in, JSON out):
 * - `GET /calendar/slots?day=YYYY-MM-DD` → `200 { day, free: ["09:00", …] }`, the working slots not booked on
 *   `day`, in order.
 * - `POST /calendar/bookings` (header `Idempotency-Key`; body `{ day, slot, customerId }`) →
 *   `201 { bookingId, day, slot, customerId }`. The table has `UNIQUE(day, slot)` and `UNIQUE(op_key)`; the INSERT
 *   is what detects a conflict, and the stored row of the key tells which one it was:
 *   - the same key again with the same body → `200` with the original booking and `Idempotent-Replayed: true`
 *     (this receiver deduplicates: a replay is harmless and adds no row);
 *   - the same key with another body → `422 {"code":"idempotency_key_reused"}` (IETF
 *     draft-ietf-httpapi-idempotency-key-header §2.7);
 *   - the slot held by another booking → `409 { code: "slot_taken", message: "slot 10:00 on 2026-12-01 is taken",
 *     free: [...] }`, `free` being the day's free slots at that moment.
 * - `GET /calendar/bookings?op_key=K` → `200 <booking>` or `404 {"code":"not_found"}`: the terminal state of a
 *   write by its operation_id. Writes commit before they answer, so a 404 means nothing is committed under `K`.
 * - A bad body or query → `422 { code: "invalid_request", message, errors: [{ field, message, value? }] }` (the
 *   field-error shape recovery/classify/body.ts reads); a missing `Idempotency-Key` → `400`; malformed JSON → `400`.
 */
import Database from 'better-sqlite3';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RecoveryError, type CodeOf } from '../recovery/recovery-error';

/** The bookable slots of every day, `HH:MM`, in order (hourly, 09:00 to 16:00 inclusive: 8 slots). */
export const WORKING_SLOTS: readonly string[] = Object.freeze(
  Array.from({ length: 8 }, (_, i) => `${String(9 + i).padStart(2, '0')}:00`),
);

/** The routes the service answers, as `hits` counts them (`"METHOD /path"`, query ignored). */
export type CalendarRoute = 'GET /calendar/slots' | 'POST /calendar/bookings' | 'GET /calendar/bookings';

/** A booking as the API returns it. */
export interface Booking {
  /** `bk_<n>`, n the row's position (1-based, never reused while rows exist). */
  bookingId: string;
  /** `YYYY-MM-DD`. */
  day: string;
  /** `HH:MM`, one of `WORKING_SLOTS`. */
  slot: string;
  customerId: string;
}

/** A stored row: the booking plus what only the operator sees. */
export interface BookingRow extends Booking {
  /** The `Idempotency-Key` it was booked under; `null` for a booking made by `takeAfterListing`. */
  opKey: string | null;
  /** When it was committed, ISO-8601 UTC with milliseconds (`2026-12-01T09:30:00.123Z`). */
  createdAt: string;
}

export interface CalendarServiceOptions {
  /** SQLite file to keep the bookings in. @default ":memory:" */
  dbFile?: string;
}

/** What a fault hook was given that it cannot use. */
export const CalendarServiceErrorCode = {
  INVALID_DAY: 'invalid_day',
  INVALID_SLOT: 'invalid_slot',
  INVALID_CUSTOMER: 'invalid_customer',
} as const;
export type CalendarServiceErrorCode = CodeOf<typeof CalendarServiceErrorCode>;

/** A wrong argument to a `CalendarService` method (the test setup is wrong, not the code under test). */
export class CalendarServiceError extends RecoveryError<CalendarServiceErrorCode> {
  override readonly name = 'CalendarServiceError';
  static override readonly codes: readonly string[] = Object.values(CalendarServiceErrorCode);
}

export interface CalendarService {
  /** `http://127.0.0.1:<port>` */
  url: string;
  db: Database.Database;
  /**
   * Fault hook, one shot: the next time `GET /calendar/slots?day=<day>` is answered, right after the answer is
   * sent (so that listing still shows `slot` free), the service books `slot` on `day` for `byCustomer`, with no
   * idempotency key — the slot is taken between the agent's plan and its booking. If the slot is already booked
   * by then, nothing happens. Several hooks may wait, for the same or other days; each fires once.
   * @throws CalendarServiceError `invalid_day` (not a real `YYYY-MM-DD` date), `invalid_slot` (not one of
   *   `WORKING_SLOTS`), `invalid_customer` (empty).
   */
  takeAfterListing(day: string, slot: string, byCustomer: string): void;
  /** Rows in `bookings`, optionally only those matching every given field. */
  rows(filter?: { day?: string; slot?: string; customerId?: string; opKey?: string }): number;
  /** Requests received on `route` since start or the last `reset()`, whatever they were answered. */
  hits(route: CalendarRoute): number;
  /** Every stored booking, in the order committed. */
  bookings(): BookingRow[];
  /** Deletes every booking, forgets waiting hooks and zeroes the hit counters. */
  reset(): void;
  /** Closes open connections, stops listening and closes the database. */
  close(): Promise<void>;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** Largest request body read, in bytes; a larger one is answered 413. */
const MAX_BODY_BYTES = 64 * 1024;

/** `YYYY-MM-DD` naming a real date (2026-02-30 is not). */
function isDay(v: unknown): v is string {
  if (typeof v !== 'string' || !DAY.test(v)) return false;
  const [y, m, d] = v.split('-').map(Number) as [number, number, number];
  const at = new Date(Date.UTC(y, m - 1, d));
  return at.getUTCFullYear() === y && at.getUTCMonth() === m - 1 && at.getUTCDate() === d;
}
const isSlot = (v: unknown): v is string => typeof v === 'string' && WORKING_SLOTS.includes(v);
const isCustomer = (v: unknown): v is string => typeof v === 'string' && /^cus_[A-Za-z0-9_-]{1,60}$/.test(v);

interface FieldError {
  field: string;
  message: string;
  value?: unknown;
}

/** Field errors of a booking body (`[]` when it is valid). */
function bookingErrors(body: Record<string, unknown>): FieldError[] {
  const errors: FieldError[] = [];
  if (!isDay(body.day)) errors.push({ field: 'day', message: 'must be a date YYYY-MM-DD', value: body.day ?? null });
  if (!isSlot(body.slot))
    errors.push({ field: 'slot', message: `must be one of ${WORKING_SLOTS.join(', ')}`, value: body.slot ?? null });
  if (!isCustomer(body.customerId))
    errors.push({ field: 'customerId', message: 'must look like cus_<id>', value: body.customerId ?? null });
  for (const key of Object.keys(body)) {
    if (!['day', 'slot', 'customerId'].includes(key)) errors.push({ field: key, message: 'is not a known field' });
  }
  return errors;
}

function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/**
 * Starts the service on a free loopback port.
 * @throws the `listen` error if no port can be bound; better-sqlite3's error if `dbFile` cannot be opened.
 */
export async function startCalendarService(options: CalendarServiceOptions = {}): Promise<CalendarService> {
  const db = new Database(options.dbFile ?? ':memory:');
  db.exec(`
    CREATE TABLE IF NOT EXISTS bookings (
      booking_id TEXT PRIMARY KEY,
      day TEXT NOT NULL,
      slot TEXT NOT NULL,
      customer_id TEXT NOT NULL,
      op_key TEXT UNIQUE,
      created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
      UNIQUE (day, slot));
  `);
  // The id comes from the row's position, so a restart on a file keeps numbering (no counter in memory).
  const insert = db.prepare<[string, string, string, string | null]>(
    `INSERT INTO bookings (booking_id, day, slot, customer_id, op_key)
     VALUES ('bk_' || (SELECT COALESCE(MAX(rowid), 0) + 1 FROM bookings), ?, ?, ?, ?)`,
  );
  const columns =
    'booking_id AS bookingId, day, slot, customer_id AS customerId, op_key AS opKey, created_at AS createdAt';
  const byKey = db.prepare<[string], BookingRow>(`SELECT ${columns} FROM bookings WHERE op_key = ?`);
  const takenOn = db.prepare<[string], { slot: string }>('SELECT slot FROM bookings WHERE day = ?');
  const all = db.prepare<[], BookingRow>(`SELECT ${columns} FROM bookings ORDER BY rowid`);

  const hits = new Map<string, number>();
  let waiting: { day: string; slot: string; byCustomer: string }[] = [];

  const free = (day: string): string[] => {
    const taken = new Set(takenOn.all(day).map((r) => r.slot));
    return WORKING_SLOTS.filter((s) => !taken.has(s));
  };
  const publicBooking = (r: BookingRow): Booking => ({
    bookingId: r.bookingId,
    day: r.day,
    slot: r.slot,
    customerId: r.customerId,
  });
  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    if (res.destroyed) return;
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  const invalid = (res: ServerResponse, errors: FieldError[]) =>
    send(res, 422, {
      code: 'invalid_request',
      message: errors.map((e) => `${e.field} ${e.message}`).join('; '),
      errors,
    });

  /** Books for another customer, as `takeAfterListing` asked; a slot already gone is left as it is. */
  const fireHooks = (day: string) => {
    const due = waiting.filter((w) => w.day === day);
    waiting = waiting.filter((w) => w.day !== day);
    for (const w of due) {
      try {
        insert.run(w.day, w.slot, w.byCustomer, null);
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
      }
    }
  };

  const book = (res: ServerResponse, key: string, body: Record<string, unknown>) => {
    const errors = bookingErrors(body);
    if (errors.length > 0) return invalid(res, errors);
    const { day, slot, customerId } = body as { day: string; slot: string; customerId: string };
    try {
      insert.run(day, slot, customerId, key);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      // Which UNIQUE fired: a row under this key is a replay (or a reused key); otherwise the slot is held.
      const prior = byKey.get(key);
      if (prior === undefined) {
        return send(res, 409, { code: 'slot_taken', message: `slot ${slot} on ${day} is taken`, free: free(day) });
      }
      if (prior.day !== day || prior.slot !== slot || prior.customerId !== customerId) {
        return send(res, 422, {
          code: 'idempotency_key_reused',
          message: 'this Idempotency-Key was already used with another request body',
        });
      }
      return send(res, 200, publicBooking(prior), { 'idempotent-replayed': 'true' });
    }
    send(res, 201, publicBooking(byKey.get(key) as BookingRow));
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY_BYTES) chunks.push(c);
    });
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://calendar');
      const route = `${req.method ?? 'GET'} ${url.pathname}`;
      hits.set(route, (hits.get(route) ?? 0) + 1);
      try {
        if (route === 'GET /calendar/slots') {
          const day = url.searchParams.get('day');
          if (!isDay(day)) return invalid(res, [{ field: 'day', message: 'must be a date YYYY-MM-DD', value: day }]);
          send(res, 200, { day, free: free(day) });
          return fireHooks(day);
        }
        if (route === 'POST /calendar/bookings') {
          if (size > MAX_BODY_BYTES) return send(res, 413, { code: 'too_large', message: 'body over 64 KiB' });
          const key = req.headers['idempotency-key'];
          if (typeof key !== 'string' || key === '') {
            return send(res, 400, {
              code: 'missing_idempotency_key',
              message: 'the Idempotency-Key header is required',
            });
          }
          let body: unknown;
          try {
            body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            return send(res, 400, { code: 'invalid_json', message: 'the body is not JSON' });
          }
          if (typeof body !== 'object' || body === null || Array.isArray(body)) {
            return invalid(res, [{ field: 'body', message: 'must be an object { day, slot, customerId }' }]);
          }
          return book(res, key, body as Record<string, unknown>);
        }
        if (route === 'GET /calendar/bookings') {
          const key = url.searchParams.get('op_key');
          if (!key) return invalid(res, [{ field: 'op_key', message: 'is required' }]);
          const row = byKey.get(key);
          return row
            ? send(res, 200, publicBooking(row))
            : send(res, 404, { code: 'not_found', message: 'no booking under this key' });
        }
        send(res, 404, { code: 'no_route', message: `no route ${route}` });
      } catch {
        send(res, 500, { code: 'internal', message: 'the calendar failed' });
      }
    });
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => ok());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    db,
    takeAfterListing(day, slot, byCustomer) {
      if (!isDay(day))
        throw new CalendarServiceError('invalid_day', `takeAfterListing: day "${day}" is not YYYY-MM-DD`);
      if (!isSlot(slot)) {
        throw new CalendarServiceError(
          'invalid_slot',
          `takeAfterListing: slot "${slot}" is not one of ${WORKING_SLOTS.join(', ')}`,
        );
      }
      if (byCustomer === '')
        throw new CalendarServiceError('invalid_customer', 'takeAfterListing: byCustomer is empty');
      waiting.push({ day, slot, byCustomer });
    },
    rows(filter = {}) {
      const where: string[] = [];
      const params: string[] = [];
      const column = { day: 'day', slot: 'slot', customerId: 'customer_id', opKey: 'op_key' } as const;
      for (const k of Object.keys(column) as (keyof typeof column)[]) {
        const v = filter[k];
        if (v !== undefined) {
          where.push(`${column[k]} = ?`);
          params.push(v);
        }
      }
      const sql = `SELECT COUNT(*) AS n FROM bookings${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`;
      return (db.prepare(sql).get(...params) as { n: number }).n;
    },
    hits: (route) => hits.get(route) ?? 0,
    bookings: () => all.all(),
    reset() {
      db.exec('DELETE FROM bookings');
      waiting = [];
      hits.clear();
    },
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
