/**
 * The real client-library errors of the dialects (recovery/classify/dialects/, test/dialects/): PostgreSQL through
 * node-postgres on a real server — a serialization failure (40001) that a retry cures, and a backend terminated
 * after the INSERT committed (57P01), whose write must be looked up, not replayed (a replay is 23505).
 */
import { counterTable } from '../pg-tools';
import {
  appliedLookupEnd,
  hasFields,
  judgeSuccess,
  lastSuccessEnd,
  REACTIONS,
  type RunContext,
  type Scenario,
} from '../scenario';

/** The rows a run's writes left: their keys are `<runId>@<intent>:<stepId>` (docs/tools.md, "One intent, one key"). */
async function rows(env: RunContext['env'], table: string, runId: string): Promise<number> {
  const r = await env.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE op_id LIKE $1`, [
    `${runId}@%`,
  ]);
  return r.rows[0]!.n;
}

export const pgSerialization: Scenario = {
  name: 'pg-serialization',
  exercises: 'transient (PostgreSQL 40001 serialization_failure)',
  description: 'a SERIALIZABLE payment loses to a concurrent transaction once or twice, then commits',
  persistent: false,
  routerActions: ['retry'],
  prepare({ runId, index, random, env }: RunContext) {
    const conflicts = 1 + Math.floor(random() * 2);
    let paid = 0;
    return {
      goal: `Record a payment of 2500 cents (run ${index})`,
      script: {
        on: REACTIONS,
        steps: [{ id: 'pay', tool: 'record_payment', args: { amountCents: 2_500 } }],
        submit: { resultFrom: 'pay' },
      },
      async arrange() {
        await env.pool.query(`CREATE TABLE IF NOT EXISTS ${counterTable(runId)} (k int NOT NULL)`);
        env.pgFaults.conflicts.set(runId, conflicts);
      },
      curedAtMs: () => 0, // the transaction was rolled back: running it again can commit
      judge: (o) =>
        judgeSuccess(o, {
          matches: (r) => hasFields(r, { amountCents: 2_500 }),
          rows: paid,
          what: `payment (${conflicts} conflicts)`,
          at: lastSuccessEnd(o, 'record_payment'),
        }),
      async settle() {
        paid = await rows(env, 'ev_payments', runId);
      },
    };
  },
};

export const pgKilledAfterCommit: Scenario = {
  name: 'pg-killed-after-commit',
  exercises: 'outcome_unknown (PostgreSQL 57P01 after the commit)',
  description: "the order's INSERT commits, then the backend is terminated before the tool returns",
  persistent: false,
  routerActions: ['reconcile'],
  prepare({ runId, index, env }: RunContext) {
    let orders = 0;
    return {
      goal: `Create an order for one book (run ${index})`,
      script: {
        on: REACTIONS,
        steps: [{ id: 'order', tool: 'create_order', args: { item: 'book' } }],
        submit: { resultFrom: 'order' },
      },
      arrange: () => void env.pgFaults.kills.set(runId, 1),
      curedAtMs: () => null, // the order exists: a re-execution collides with its key (23505)
      judge: (o) =>
        judgeSuccess(o, {
          matches: (r) => hasFields(r, { item: 'book' }),
          rows: orders,
          what: 'order row',
          at: appliedLookupEnd(o, 'create_order'),
        }),
      async settle() {
        orders = await rows(env, 'ev_orders', runId);
      },
    };
  },
};
