/**
 * @supabase/postgrest-js (a PostgREST client) against a loopback server speaking PostgREST's documented errors
 * (PostgREST docs, "Errors": `{ code, details, hint, message }`, the SQLSTATE or a `PGRSTxxx` code; SQLSTATE → HTTP
 * status table: 23503/23505 → 409, 42501 → 403, 40P01 (any other) → 500; `PGRST116` → 406; a JWT error → 401), an
 * API gateway's 429, and a sign-in page answered with 200. The client's `throwOnError()` raises `PostgrestError`
 * (`code`, `details`, `hint`, `message`; no status).
 */
import { PostgrestClient } from '@supabase/postgrest-js';
import type { UnseenCase, UnseenLibrary } from '../unseen/cases';
import { loopbackCases, startLoopback, type Answer } from '../unseen/loopback';
import { closedPort } from '../unseen/net-fixtures';

const pg = (status: number, code: string, message: string, details: string | null = null): Answer => ({
  status,
  body: { code, details, hint: null, message },
});

export const postgrestJsLibrary: UnseenLibrary = {
  name: '@supabase/postgrest-js',
  kind: 'database REST API (PostgREST)',
  server: "loopback HTTP speaking PostgREST's error bodies and status mapping",
  async start() {
    const server = await startLoopback();
    const refused = `http://127.0.0.1:${await closedPort()}`;
    const db = (url = server.url) => new PostgrestClient(url);
    const read = (url?: string) => async () =>
      db(url).from('orders').select('id,state').eq('id', 42).single().throwOnError();
    const write = (url?: string) => async () =>
      db(url).from('orders').insert({ id: 42, customer_id: 99, total_cents: 1200 }).select().throwOnError();
    const one = loopbackCases('postgrest-js', server);
    const deadlock = pg(
      500,
      '40P01',
      'deadlock detected',
      'Process 4711 waits for ShareLock on transaction 912; blocked by process 4712.',
    );
    const cases: UnseenCase[] = [
      one('refused', 'read', undefined, read(refused)),
      one('refused', 'write', undefined, write(refused)),
      one(
        'foreign-key-23503-409',
        'write',
        pg(
          409,
          '23503',
          'insert or update on table "orders" violates foreign key constraint "orders_customer_id_fkey"',
          'Key (customer_id)=(99) is not present in table "customers".',
        ),
        write(),
      ),
      one(
        'unique-23505-409',
        'write',
        pg(
          409,
          '23505',
          'duplicate key value violates unique constraint "orders_pkey"',
          'Key (id)=(42) already exists.',
        ),
        write(),
        'holds',
      ),
      one('deadlock-40P01-500', 'read', deadlock, read()),
      one('deadlock-40P01-500', 'write', deadlock, write()),
      one('insufficient-privilege-42501-403', 'read', pg(403, '42501', 'permission denied for table orders'), read()),
      one('insufficient-privilege-42501-403', 'write', pg(403, '42501', 'permission denied for table orders'), write()),
      one('jwt-expired-401', 'read', pg(401, 'PGRST303', 'JWT expired'), read()),
      one(
        'no-rows-PGRST116-406',
        'read',
        pg(406, 'PGRST116', 'JSON object requested, multiple (or no) rows returned', 'The result contains 0 rows'),
        read(),
      ),
      one('gateway-429', 'write', { status: 429, body: { message: 'Too many requests' } }, write()),
      one(
        'html-200',
        'read',
        { status: 200, headers: { 'content-type': 'text/html' }, body: '<html><body>Sign in</body></html>' },
        read(),
      ),
    ];
    return { cases, stop: server.stop };
  },
};
