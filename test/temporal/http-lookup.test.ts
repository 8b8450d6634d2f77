/**
 * An HTTP tool's lookup written as docs/tools.md shows it — `ctx.http.request({ url, accept: [404] })` and
 * `if (res.status === 404) return { state: 'not_applied' }` — on the dev server, against the SQLite ledger of
 * examples/ledger-service.ts. Before `accept`, that branch never ran (ctx.http threw on the 404), so every write
 * dropped before it committed went to human review: the last test keeps that contrast.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { z } from 'zod';
import { defineTool, type LookupResult } from '../../activities/define-tool';
import { startLedgerService, type LedgerService } from '../../examples/ledger-service';
import { reconcileWorkflowId, reviewCaseQuery, type ReviewCase } from '../../workflows/definitions';
import { testEnv, uniqueTaskQueue, writeKey } from '../setup/env';
import { harness, okOutcome } from './harness';

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

const Refund = z.object({
  refundId: z.string(),
  orderId: z.string(),
  amountCents: z.number().int(),
  status: z.string(),
});
type Refund = z.infer<typeof Refund>;

/** The tools guide's refund tool; `accept` decides whether its lookup reads a 404 as an answer. */
function refundTool(baseUrl: string, accept: number[] | undefined) {
  return defineTool({
    name: 'issue_refund',
    description: 'Refunds part or all of an order.',
    input: z.object({ orderId: z.string(), amountCents: z.number().int().positive() }),
    output: Refund,
    effect: 'write',
    idempotency: { carrier: 'header', name: 'Idempotency-Key', deduplicates: false },
    commit: { settleMs: 0, lookupLagMs: 0 }, // the ledger commits before it answers and reads its own writes
    async execute(args, ctx) {
      return (await ctx.http.request({ method: 'POST', url: `${baseUrl}/refunds`, json: args })).body as Refund;
    },
    async lookup(operationId, ctx): Promise<LookupResult<Refund>> {
      const url = `${baseUrl}/refunds?op_key=${encodeURIComponent(operationId)}`;
      const res = await ctx.http.request({ url, ...(accept ? { accept } : {}) });
      if (res.status === 404) return { state: 'not_applied' };
      return { state: 'applied', result: res.body as Refund };
    },
  });
}

const LOOKUPS = { lookupBudget: 2, lookupBackoff: { initialIntervalMs: 50, maximumIntervalMs: 100 } };
const call = { tool: 'issue_refund', args: { orderId: 'O-1', amountCents: 500 }, stepId: 'refund' };

test('http lookup with accept [404]: a POST dropped before it reached the ledger → a 404 lookup → one replay with the same key; one row', async () => {
  ledger.fault({ kind: 'lost_in_transit' });
  const h = await harness(env, [refundTool(ledger.url, [404])]);
  const workflowId = uniqueTaskQueue('lookup-404');
  const r = await h.run(() => h.runPlan({ calls: [call], reconcile: LOOKUPS }, workflowId));
  expect(okOutcome(r.outcomes[0]).reconciled).toBe('replay');
  // settleMs + lookupLagMs = 0: one not_applied is final (docs/DESIGN.md, "Reconcile"; else two in a row, after it).
  expect([ledger.hits('POST /refunds'), ledger.hits('GET /refunds')]).toEqual([2, 1]);
  expect([ledger.rows('refunds'), ledger.rows('refunds', await writeKey(env.client, workflowId, 'refund'))]).toEqual([
    1, 1,
  ]);
});

test('http lookup with accept [404]: a POST committed whose answer was lost → the lookup finds it (200); no second POST', async () => {
  ledger.fault({ kind: 'lose_response' });
  const h = await harness(env, [refundTool(ledger.url, [404])]);
  const r = await h.run(() => h.runPlan({ calls: [call], reconcile: LOOKUPS }));
  const ok = okOutcome(r.outcomes[0]);
  expect([ok.reconciled, (ok.value as Refund).amountCents]).toEqual(['lookup', 500]);
  expect([ledger.hits('POST /refunds'), ledger.hits('GET /refunds'), ledger.rows('refunds')]).toEqual([1, 1, 1]);
});

test('http lookup without accept: the 404 throws inside the lookup, so the dropped POST waits for review instead of a replay', async () => {
  ledger.fault({ kind: 'lost_in_transit' });
  const h = await harness(env, [refundTool(ledger.url, undefined)]);
  const workflowId = uniqueTaskQueue('lookup-throws');
  const review = await h.run(async () => {
    await h.startPlan({ calls: [call], reconcile: LOOKUPS }, workflowId);
    const handle = env.client.workflow.getHandle(reconcileWorkflowId(await writeKey(env.client, workflowId, 'refund')));
    for (let i = 0; i < 300; i++) {
      const c = await handle.query(reviewCaseQuery).catch(() => undefined);
      if (c?.status === 'awaiting_review') {
        await env.client.workflow.getHandle(workflowId).terminate('test done');
        return c;
      }
      await new Promise((done) => setTimeout(done, 100));
    }
    throw new Error('never awaited review');
  });
  expect((review as ReviewCase).lookups.map((l) => l.state)).toEqual(['unknown', 'unknown']);
  expect([ledger.hits('POST /refunds'), ledger.rows('refunds')]).toEqual([1, 0]);
});
