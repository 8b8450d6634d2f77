/**
 * Issue 27's rules on a real dev server, against the real SQLite ledger (examples/ledger-service.ts):
 * - a "not found" is final only once nothing can still make the write land (workflows/reconcile-not-found.ts);
 * - a worker's activity slots come back from tools that never settle, and its shutdown finishes;
 * - a plan's result and its activities' inputs stay within the payload limits (recovery/bounds.ts).
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { z } from 'zod';
import { defineTool } from '../../activities/define-tool';
import { HttpOutcomeError } from '../../activities/http';
import { startLedgerService, type LedgerService } from '../../examples/ledger-service';
import { ledgerTools } from '../../examples/ledger-tools';
import { MAX_WORKFLOW_RESULT_BYTES } from '../../recovery/bounds';
import { reconcileWorkflowId, reviewCaseQuery } from '../../workflows/definitions';
import { testEnv, timeSkippingEnv, writeKey } from '../setup/env';
import { eventMs, failedOutcome, harness, okOutcome, timerDurationsMs } from './harness';

let env: TestWorkflowEnvironment;
let ledger: LedgerService;
beforeAll(async () => {
  env = await testEnv();
});
beforeEach(async () => {
  ledger = await startLedgerService();
});
afterEach(async () => {
  await ledger.close();
});
afterAll(async () => {
  await env?.teardown();
});

const LOOKUPS = { lookupBudget: 3, lookupBackoff: { initialIntervalMs: 200, maximumIntervalMs: 400 } };

/**
 * The ledger's refund tool as an author writes it: no `commit` declaration (the default), and a lookup that reads
 * 200 as applied and 404 as not_applied — blind to a request the service holds but has not committed yet.
 */
function undeclaredRefund(url: string) {
  const { issueRefund } = ledgerTools(url, { writeTimeoutMs: 500 });
  const { commit: _commit, spec: _spec, ...def } = issueRefund;
  return defineTool({
    ...def,
    async lookup(operationId, ctx) {
      try {
        const res = await ctx.http.request({ url: `${url}/refunds?op_key=${encodeURIComponent(operationId)}` });
        return { state: 'applied', result: res.body as never };
      } catch (err) {
        if (HttpOutcomeError.is(err) && err.outcome.status === 404) return { state: 'not_applied' };
        throw err;
      }
    },
  });
}

describe('a stale "not found" never replays a write that may still land', () => {
  test('no commit declaration: the held POST commits after the lookups said not_applied → review, never a replay; 1 row', async () => {
    // The service holds the POST 10 s, then commits it; the client gave up at 0.5 s; the lookups ran in between.
    ledger.fault({ kind: 'slow_commit', delayMs: 10_000 });
    const h = await harness(env, [undeclaredRefund(ledger.url)], { searchAttributes: false });
    const workflowId = `finality-${Date.now()}`;
    await h.run(async () => {
      await h.startPlan(
        {
          calls: [{ tool: 'issue_refund', args: { orderId: 'O-1', amountCents: 100 }, stepId: 's' }],
          reconcile: { ...LOOKUPS, searchAttributes: false },
        },
        workflowId,
      );
      const handle = env.client.workflow.getHandle(reconcileWorkflowId(await writeKey(env.client, workflowId, 's')));
      let c;
      for (let i = 0; i < 200 && ledger.rows('refunds') === 0; i++) {
        c = await handle.query(reviewCaseQuery).catch(() => undefined);
        if (c?.status === 'awaiting_review') break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(c?.status).toBe('awaiting_review');
      expect(c?.replays).toBe(0);
      expect(c?.message).toContain('not final');
      while (ledger.rows('refunds') === 0) await new Promise((r) => setTimeout(r, 200));
      await env.client.workflow.getHandle(workflowId).terminate('test done');
      await handle.terminate('test done');
    });
    expect(ledger.rows('refunds')).toBe(1);
    expect(ledger.hits('POST /refunds')).toBe(1);
  });

  test('declared settle time: not_applied is believed only after it, and twice in a row → one replay, one row', async () => {
    // On the time-skipping server: the second lookup's timer is asserted as scheduled, never as a measured gap.
    ledger.fault({ kind: 'lost_in_transit' });
    const skipping = await timeSkippingEnv();
    try {
      const h = await harness(skipping, [
        defineTool({ ...undeclaredRefund(ledger.url), commit: { settleMs: 1_500, lookupLagMs: 0 } }),
      ]);
      const r = await h.run(() =>
        h.runPlan({
          calls: [{ tool: 'issue_refund', args: { orderId: 'O-2', amountCents: 100 } }],
          reconcile: LOOKUPS,
        }),
      );
      const out = okOutcome(r.outcomes[0]);
      expect(out).toMatchObject({ reconciled: 'replay' });
      expect(ledger.hits('GET /refunds')).toBe(2);
      expect(ledger.hits('POST /refunds')).toBe(2);
      expect(ledger.rows('refunds')).toBe(1);
      // The reconciliation's one timer ends exactly settleMs after it began (workflow time: the first task's start),
      // not at the lookup backoff (200 ms): the second lookup, and the replay, come only once nothing can land.
      const events = await h.history(reconcileWorkflowId(out.operationId!));
      const tasks = events.filter((e) => e.workflowTaskStartedEventAttributes);
      const timerAt = events.findIndex((e) => e.timerStartedEventAttributes);
      const taskBeforeTimer = events
        .slice(0, timerAt)
        .filter((e) => e.workflowTaskStartedEventAttributes)
        .at(-1)!;
      const [timerMs, ...more] = timerDurationsMs(events);
      expect(more).toEqual([]);
      expect(eventMs(taskBeforeTimer) + timerMs!).toBe(eventMs(tasks[0]!) + 1_500);
    } finally {
      await skipping.teardown();
    }
  });
});

describe('a worker keeps its slots when tools never settle', () => {
  test('2 slots, two reads that never settle: both end at their deadline, a third read runs, shutdown() finishes', async () => {
    const hang = defineTool({
      name: 'hang',
      description: 'Never answers.',
      input: z.object({}),
      output: z.unknown(),
      effect: 'read',
      timeouts: { startToCloseMs: 1_000 },
      execute: () => new Promise<never>(() => undefined),
    });
    const ping = defineTool({
      name: 'ping',
      description: 'Answers at once.',
      input: z.object({}),
      output: z.object({ pong: z.boolean() }),
      effect: 'read',
      execute: async () => ({ pong: true }),
    });
    const h = await harness(env, [hang, ping], {
      maxConcurrentActivityTaskExecutions: 2,
    });
    const results = await h.run(async () => {
      const hung = [1, 2].map(() => h.runPlan({ calls: [{ tool: 'hang', args: {} }], budgets: { perCallRetries: 0 } }));
      await new Promise((r) => setTimeout(r, 300));
      const pinged = h.runPlan({ calls: [{ tool: 'ping', args: {} }] });
      return Promise.all([...hung, pinged]);
    });
    // The server's StartToClose timeout and the worker's own deadline fire together; either may reach the workflow.
    for (const r of results.slice(0, 2))
      expect(['transient/interrupted', 'transient/timeout']).toContain(
        `${failedOutcome(r.outcomes[0]).failure.class}/${failedOutcome(r.outcomes[0]).failure.reason}`,
      );
    expect(okOutcome(results[2]!.outcomes[0]).value).toEqual({ pong: true });
    // h.run shut the worker down: it returned, so shutdown finished although both tools still hang.
  });
});

describe('payload limits', () => {
  test(`three 400 KB reads: the plan's result stays under ${MAX_WORKFLOW_RESULT_BYTES} bytes, the largest values marked omitted; the run completes`, async () => {
    let n = 0;
    const big = defineTool({
      name: 'export_rows',
      description: 'Exports rows.',
      input: z.object({ page: z.number().int() }),
      output: z.object({ rows: z.string() }),
      effect: 'read',
      execute: async () => ({ rows: String(++n).repeat(400 * 1024) }),
    });
    const h = await harness(env, [big]);
    const r = await h.run(() =>
      h.runPlan({ calls: [1, 2, 3].map((page) => ({ tool: 'export_rows', args: { page } })) }),
    );
    expect(JSON.stringify(r).length).toBeLessThanOrEqual(MAX_WORKFLOW_RESULT_BYTES);
    const values = r.outcomes.map((o) => okOutcome(o).value as { omitted?: boolean });
    expect(values.filter((v) => v.omitted === true)).toHaveLength(1);
    expect(values[0]).toMatchObject({ omitted: true, bytes: 400 * 1024 + 11 }); // {"rows":"…"}
  });

  test('a 1e6-element array the schema strips never reaches the activity input (history)', async () => {
    const echo = defineTool({
      name: 'echo_id',
      description: 'Echoes an id.',
      input: z.object({ id: z.string() }),
      output: z.object({ id: z.string() }),
      effect: 'read',
      execute: async (args) => ({ id: args.id }),
    });
    const h = await harness(env, [echo]);
    const extra = Array.from({ length: 1_000 }, (_, i) => i);
    const r = await h.run(() => h.runPlan({ calls: [{ tool: 'echo_id', args: { id: 'a', extra } }] }));
    expect(okOutcome(r.outcomes[0]).value).toEqual({ id: 'a' });
    const scheduled = (await h.history(r.workflowId)).find((e) => e.activityTaskScheduledEventAttributes);
    const input = scheduled?.activityTaskScheduledEventAttributes?.input?.payloads?.[0]?.data;
    expect(Buffer.from(input ?? []).toString('utf8')).not.toContain('extra');
  });
});
