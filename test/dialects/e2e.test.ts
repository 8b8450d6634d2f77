/**
 * End to end on the run's Temporal dev server, through `callTool` (toolPlanWorkflow) with the RecoveryPlugin:
 * a serialization failure (40001) retried by Temporal's retry policy and then succeeding, and a write whose
 * PostgreSQL backend was killed after the INSERT committed (57P01) reconciled by lookup, not replayed.
 */
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Pool } from 'pg';
import { z } from 'zod';
import { defineTool } from '../../activities/define-tool';
import { harness, okOutcome } from '../temporal/harness';

const port = Number(process.env.RR_PG_PORT);
const pool = new Pool({
  host: '127.0.0.1',
  port,
  user: process.env.RR_PG_USER,
  password: process.env.RR_PG_PASSWORD,
  database: 'postgres',
});
pool.on('error', () => undefined);
let env: TestWorkflowEnvironment;

beforeAll(async () => {
  env = await TestWorkflowEnvironment.createFromExistingServer({ address: process.env.RR_DIALECTS_TEMPORAL_ADDRESS! });
  await pool.query(`
    DROP TABLE IF EXISTS e2e_payments, e2e_orders, e2e_counter;
    CREATE TABLE e2e_payments (op_id text PRIMARY KEY, amount int NOT NULL);
    CREATE TABLE e2e_orders (op_id text PRIMARY KEY, item text NOT NULL);
    CREATE TABLE e2e_counter (k int NOT NULL);
  `);
});
afterAll(async () => {
  await pool.end();
  await env?.teardown();
});

test('40001 on the first attempt → transient → Temporal retries the deduplicated write → one payment, 2 attempts', async () => {
  let attempts = 0;
  const recordPayment = defineTool({
    name: 'record_payment',
    description: 'Records a payment once per operation id.',
    input: z.object({ amount: z.number().int() }),
    output: z.object({ opId: z.string() }),
    effect: 'write',
    errors: 'postgres',
    idempotency: { carrier: 'field', name: 'opId', deduplicates: true }, // ON CONFLICT DO NOTHING: a replay is harmless
    async execute(args: { amount: number; opId?: string }) {
      attempts += 1;
      const c = await pool.connect();
      try {
        await c.query('BEGIN ISOLATION LEVEL SERIALIZABLE');
        await c.query('SELECT count(*) FROM e2e_counter WHERE k = 1');
        if (attempts === 1) {
          const other = await pool.connect();
          try {
            await other.query('BEGIN ISOLATION LEVEL SERIALIZABLE');
            await other.query('SELECT count(*) FROM e2e_counter WHERE k = 2');
            await other.query('INSERT INTO e2e_counter VALUES (1)');
            await other.query('COMMIT');
          } finally {
            other.release();
          }
        }
        await c.query('INSERT INTO e2e_counter VALUES (2)');
        await c.query('INSERT INTO e2e_payments VALUES ($1, $2) ON CONFLICT (op_id) DO NOTHING', [
          args.opId,
          args.amount,
        ]);
        await c.query('COMMIT');
        return { opId: args.opId! };
      } catch (err) {
        await c.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        c.release();
      }
    },
  });
  const h = await harness(env, [recordPayment]);
  const r = await h.run(() => h.runPlan({ calls: [{ tool: 'record_payment', args: { amount: 500 } }] }));
  const out = okOutcome(r.outcomes[0]);
  expect(out.attempts).toBe(2);
  expect(attempts).toBe(2);
  expect((await pool.query('SELECT count(*)::int AS n FROM e2e_payments')).rows[0].n).toBe(1);
  expect(r.records.map((x) => [x.class, x.action])).toEqual([['transient', 'retry']]);
});

test('57P01 after the INSERT committed → outcome_unknown → reconciled by lookup: one order, no replay', async () => {
  let executions = 0;
  const createOrder = defineTool({
    name: 'create_order',
    description: 'Creates an order.',
    input: z.object({ item: z.string() }),
    output: z.object({ opId: z.string(), item: z.string() }),
    effect: 'write',
    idempotency: { carrier: 'field', name: 'opId', deduplicates: false },
    async execute(args: { item: string; opId?: string }) {
      executions += 1;
      const c = await pool.connect();
      try {
        await c.query('INSERT INTO e2e_orders VALUES ($1, $2)', [args.opId, args.item]);
        await c.query('SELECT pg_sleep(5) /* rr-e2e-kill */'); // the backend is terminated here
        return { opId: args.opId!, item: args.item };
      } finally {
        c.release(true);
      }
    },
    async lookup(operationId) {
      const r = await pool.query<{ item: string }>('SELECT item FROM e2e_orders WHERE op_id = $1', [operationId]);
      return r.rows[0]
        ? { state: 'applied', result: { opId: operationId, item: r.rows[0].item } }
        : { state: 'not_applied' };
    },
  });
  const killer = (async () => {
    for (let i = 0; i < 500; i++) {
      const k = await pool.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE '%rr-e2e-kill%' AND state = 'active' AND pid <> pg_backend_pid()",
      );
      if (k.rows.length > 0) return;
      await new Promise((res) => setTimeout(res, 20));
    }
  })();
  const h = await harness(env, [createOrder]);
  const r = await h.run(() =>
    h.runPlan({
      calls: [{ tool: 'create_order', args: { item: 'book' } }],
      reconcile: { lookupBudget: 3, lookupBackoff: { initialIntervalMs: 50, maximumIntervalMs: 200 } },
    }),
  );
  await killer;
  const out = okOutcome(r.outcomes[0]);
  expect(out.reconciled).toBe('lookup');
  expect(out.value).toEqual({ opId: out.operationId, item: 'book' });
  expect(executions).toBe(1);
  expect((await pool.query('SELECT count(*)::int AS n FROM e2e_orders')).rows[0].n).toBe(1);
  expect(r.records.map((x) => [x.class, x.action])).toEqual([['outcome_unknown', 'reconcile']]);
});
