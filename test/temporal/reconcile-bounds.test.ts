/**
 * A committed write is never reported failed, and replays are bounded, on the dev server with the SQLite ledger:
 * - lost in transit again and again: the replay budget (default 1) holds across lookups and review;
 * - a review `replay` of a write that had already landed: the duplicate-key answer is looked up → applied;
 * - a reconciliation that is terminated: the call escalates with its operation id; the run does not fail;
 * - a breaker opened by a mass of lost answers: every refund ends applied (row) or escalated as never sent (no row).
 */
import { WorkflowNotFoundError } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { z } from 'zod';
import { defineTool } from '../../activities/define-tool';
import { startLedgerService, type LedgerService } from '../../examples/ledger-service';
import { ledgerTools } from '../../examples/ledger-tools';
import { decideReviewUpdate, reconcileWorkflowId, reviewCaseQuery, type ReviewCase } from '../../workflows/definitions';
import type { ToolPlanResult } from '../../workflows/tool-plan';
import { testEnv, uniqueTaskQueue, writeKey } from '../setup/env';
import { failedOutcome, harness, okOutcome, type Harness } from './harness';

let env: TestWorkflowEnvironment;
let ledger: LedgerService;
beforeAll(async () => {
  env = await testEnv();
});
beforeEach(async () => {
  ledger = await startLedgerService();
});
afterEach(async () => {
  await ledger?.close();
});
afterAll(async () => {
  await env?.teardown();
});

const FAST_LOOKUPS = { lookupBackoff: { initialIntervalMs: 50, maximumIntervalMs: 200 }, searchAttributes: false };
const refund = (orderId: string) => ({ tool: 'issue_refund', args: { orderId, amountCents: 700 }, stepId: orderId });

async function awaitingReview(operationId: string): Promise<ReviewCase> {
  const handle = env.client.workflow.getHandle(reconcileWorkflowId(operationId));
  for (let i = 0; i < 300; i++) {
    const c = await handle.query(reviewCaseQuery).catch(() => undefined);
    if (c?.status === 'awaiting_review') return c;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${operationId} never awaited review`);
}

const review = (operationId: string, decision: object) =>
  env.client.workflow
    .getHandle(reconcileWorkflowId(operationId))
    .executeUpdate(decideReviewUpdate, { args: [{ operationId, by: 'ops', reason: 'checked', ...decision } as never] });

describe('review decisions sent at once', () => {
  test('three decisions in flight together: exactly one is taken, the others are refused, and the run carries out the one taken', async () => {
    for (let i = 0; i < 4; i++) ledger.fault({ kind: 'lost_in_transit' });
    const h = await harness(env, ledgerTools(ledger.url).all);
    const workflowId = uniqueTaskQueue('race');
    let operationId = '';
    const decisions = [
      { decision: 'abandon', by: 'alice' },
      { decision: 'mark_applied', by: 'bob', resultRef: 'ledger#42' },
      { decision: 'abandon', by: 'carol' },
    ];
    const { settled, r } = await h.run(async () => {
      await h.startPlan({ calls: [refund('O-809')], reconcile: FAST_LOOKUPS }, workflowId);
      operationId = await writeKey(env.client, workflowId, 'O-809');
      await awaitingReview(operationId);
      const settled = await Promise.allSettled(decisions.map((d) => review(operationId, d)));
      return { settled, r: (await env.client.workflow.getHandle(workflowId).result()) as ToolPlanResult };
    });
    const taken = settled.flatMap((s, i) => (s.status === 'fulfilled' ? [decisions[i]!] : []));
    expect(taken).toHaveLength(1);
    // Refused by the validator or the handler; or, when it reaches the server after the decision taken has ended
    // the reconciliation, aborted with it (Temporal: "workflow update was aborted by closing workflow").
    for (const s of settled.filter((x): x is PromiseRejectedResult => x.status === 'rejected')) {
      if (s.reason instanceof WorkflowNotFoundError) {
        expect(s.reason.message).toBe('workflow update was aborted by closing workflow');
      } else {
        expect(s.reason).toMatchObject({
          cause: { message: expect.stringMatching(/already has a decision|is not awaiting review/) },
        });
      }
    }
    const outcome = r.outcomes[0];
    if (taken[0]!.decision === 'mark_applied') expect(okOutcome(outcome).reconciled).toBeDefined();
    else expect(failedOutcome(outcome)).toMatchObject({ action: 'stop' });
    expect(ledger.hits('POST /refunds')).toBe(2);
  });
});

describe('the replay budget holds across lookups and review', () => {
  test('lost in transit 4 times, default budget: 1 replay, then review; a review replay is refused; 2 POSTs, 0 rows', async () => {
    for (let i = 0; i < 4; i++) ledger.fault({ kind: 'lost_in_transit' });
    const h = await harness(env, ledgerTools(ledger.url).all);
    const workflowId = uniqueTaskQueue('transit');
    let operationId = '';
    const r = await h.run(async () => {
      await h.startPlan({ calls: [refund('O-801')], reconcile: FAST_LOOKUPS }, workflowId);
      operationId = await writeKey(env.client, workflowId, 'O-801');
      const c = await awaitingReview(operationId);
      expect(c).toMatchObject({
        replays: 1,
        lookups: [{ state: 'not_applied' }, { state: 'not_applied' }, { state: 'not_applied' }],
      });
      await expect(review(operationId, { decision: 'replay' })).rejects.toMatchObject({
        cause: { message: expect.stringContaining('the replay budget of this operation is spent (1 of 1)') },
      });
      await review(operationId, { decision: 'abandon' });
      return (await env.client.workflow.getHandle(workflowId).result()) as ToolPlanResult;
    });
    expect(failedOutcome(r.outcomes[0])).toMatchObject({ action: 'stop', attempts: 2, activities: 2 });
    expect(ledger.hits('POST /refunds')).toBe(2);
    expect(ledger.rows('refunds')).toBe(0);
  });

  test('lost in transit 4 times, replayBudget 2: 2 replays in all, then review; 3 POSTs', async () => {
    for (let i = 0; i < 4; i++) ledger.fault({ kind: 'lost_in_transit' });
    const h = await harness(env, ledgerTools(ledger.url).all);
    const workflowId = uniqueTaskQueue('transit2');
    let operationId = '';
    await h.run(async () => {
      await h.startPlan({ calls: [refund('O-802')], reconcile: { ...FAST_LOOKUPS, replayBudget: 2 } }, workflowId);
      operationId = await writeKey(env.client, workflowId, 'O-802');
      expect((await awaitingReview(operationId)).replays).toBe(2);
      await review(operationId, { decision: 'abandon' });
      await env.client.workflow.getHandle(workflowId).result();
    });
    expect(ledger.hits('POST /refunds')).toBe(3);
  });
});

test('a replay refused before it was sent (connection refused) spends no replay: looked up again, replayed, applied; 3 dispatches', async () => {
  const calls: string[] = [];
  const flaky = defineTool({
    name: 'post_payment',
    description: 'Posts a payment.',
    input: z.object({ amountCents: z.number().int() }),
    output: z.object({ paymentId: z.string() }),
    effect: 'write',
    idempotency: { carrier: 'header', name: 'Idempotency-Key', deduplicates: false },
    async execute() {
      calls.push('execute');
      if (calls.length === 1) throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
      if (calls.length === 2) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      return { paymentId: 'pay_1' };
    },
    lookup: async () => ({ state: 'not_applied' }),
    // A lookup that sees its own writes, and a service that commits before it answers: "not found" is final.
    commit: { settleMs: 0, lookupLagMs: 0 },
  });
  const h = await harness(env, [flaky]);
  const r = await h.run(() =>
    h.runPlan({ calls: [{ tool: 'post_payment', args: { amountCents: 10 }, stepId: 'pay' }], reconcile: FAST_LOOKUPS }),
  );
  expect(okOutcome(r.outcomes[0])).toMatchObject({ value: { paymentId: 'pay_1' }, reconciled: 'replay' });
  expect(calls).toHaveLength(3);
});

describe('a review replay of a write that had already landed', () => {
  test('the duplicate-key answer is looked up: reported applied with the committed row, one row', async () => {
    ledger.fault({ kind: 'lose_response' });
    ledger.setLookupDown(true);
    const h = await harness(env, ledgerTools(ledger.url).all);
    const workflowId = uniqueTaskQueue('landed');
    let operationId = '';
    const r = await h.run(async () => {
      await h.startPlan({ calls: [refund('O-811')], reconcile: FAST_LOOKUPS }, workflowId);
      operationId = await writeKey(env.client, workflowId, 'O-811');
      await awaitingReview(operationId);
      ledger.setLookupDown(false); // the lookup is back, but the reviewer chooses a replay
      // The refund's receiver is not declared deduplicating: a replay needs the person's confirmed risk.
      await expect(review(operationId, { decision: 'replay' })).rejects.toMatchObject({
        cause: {
          message: 'issue_refund does not deduplicate: a replay may apply the write twice. Confirm the risk to replay.',
        },
      });
      expect(ledger.hits('POST /refunds')).toBe(1);
      await review(operationId, { decision: 'replay', confirmRisk: true });
      return (await env.client.workflow.getHandle(workflowId).result()) as ToolPlanResult;
    });
    const out = okOutcome(r.outcomes[0]);
    expect(out).toMatchObject({ reconciled: 'review_replay', value: { orderId: 'O-811', amountCents: 700 } });
    expect(ledger.rows('refunds')).toBe(1);
    expect(ledger.hits('POST /refunds')).toBe(2); // the first, and the refused replay
  });

  test('when the lookup still cannot see it: back to review with that fact, then marked applied', async () => {
    ledger.fault({ kind: 'lose_response' });
    ledger.setLookupDown(true);
    const h = await harness(env, ledgerTools(ledger.url).all);
    const workflowId = uniqueTaskQueue('landed-unseen');
    let operationId = '';
    const r = await h.run(async () => {
      await h.startPlan({ calls: [refund('O-812')], reconcile: { ...FAST_LOOKUPS, lookupBudget: 2 } }, workflowId);
      operationId = await writeKey(env.client, workflowId, 'O-812');
      await awaitingReview(operationId);
      await review(operationId, { decision: 'replay', confirmRisk: true });
      for (let i = 0; i < 300; i++) {
        const c = await env.client.workflow.getHandle(reconcileWorkflowId(operationId)).query(reviewCaseQuery);
        if (c.status === 'awaiting_review' && c.replays === 1) {
          expect(c.message).toContain('idempotency key already exists');
          break;
        }
        await new Promise((ok) => setTimeout(ok, 50));
      }
      await review(operationId, { decision: 'mark_applied', resultRef: 're_1' });
      return (await env.client.workflow.getHandle(workflowId).result()) as ToolPlanResult;
    });
    expect(okOutcome(r.outcomes[0])).toMatchObject({ reconciled: 'marked_applied', value: { resultRef: 're_1' } });
    expect(ledger.rows('refunds')).toBe(1);
  });
});

test('a reconciliation terminated by an operator: the call escalates with its operation id; the run completes', async () => {
  ledger.fault({ kind: 'lose_response' });
  ledger.setLookupDown(true);
  const h = await harness(env, ledgerTools(ledger.url).all);
  const workflowId = uniqueTaskQueue('terminated');
  let operationId = '';
  const r = await h.run(async () => {
    await h.startPlan({ calls: [refund('O-821')], reconcile: FAST_LOOKUPS }, workflowId);
    operationId = await writeKey(env.client, workflowId, 'O-821');
    await awaitingReview(operationId);
    await env.client.workflow.getHandle(reconcileWorkflowId(operationId)).terminate('operator test');
    return (await env.client.workflow.getHandle(workflowId).result()) as ToolPlanResult;
  });
  expect(failedOutcome(r.outcomes[0])).toMatchObject({
    action: 'escalate',
    terminal: true,
    failure: { class: 'outcome_unknown' },
    feedback: {
      message: `The reconciliation of operation ${operationId} did not finish; a person must check whether the write was applied before anything is replayed.`,
    },
  });
});

describe('the breaker and a mass of lost answers', () => {
  const breakerHarness = (): Promise<Harness> =>
    harness(env, ledgerTools(ledger.url).all, {
      breaker: { threshold: 5, halfOpenAfterMs: 300 },
      maxConcurrentActivityTaskExecutions: 4, // calls go out in waves, so the breaker can open before all are sent
      config: {
        budgets: {
          perCallRetries: 2,
          perTurnReplans: 2,
          perCallRepairs: 2,
          perRunAttempts: 50,
          consecutiveUnknownToolTurns: 2,
        },
      },
    });

  async function runAll(h: Harness, n: number): Promise<{ orderId: string; r: ToolPlanResult }[]> {
    const orders = Array.from({ length: n }, (_, i) => `O-9${String(i).padStart(2, '0')}`);
    return h.run(() =>
      Promise.all(
        orders.map(async (orderId) => ({
          orderId,
          r: await h.runPlan({ calls: [refund(orderId)], reconcile: FAST_LOOKUPS }),
        })),
      ),
    );
  }
  const rowsOf = (orderId: string) =>
    (ledger.db.prepare('SELECT COUNT(*) AS n FROM refunds WHERE order_id = ?').get(orderId) as { n: number }).n;

  test('5 lost answers open it, then the service recovers: all 20 refunds applied, each exactly once', async () => {
    for (let i = 0; i < 5; i++) ledger.fault({ kind: 'lose_response' });
    const all = await runAll(await breakerHarness(), 20);
    for (const { orderId, r } of all) {
      expect(r.outcomes[0]?.ok).toBe(true);
      expect(rowsOf(orderId)).toBe(1);
    }
  });

  test('every answer lost: each refund ends applied (its row exists) or escalated as never sent (no row), never replanned', async () => {
    for (let i = 0; i < 200; i++) ledger.fault({ kind: 'lose_response' });
    const all = await runAll(await breakerHarness(), 20);
    let neverSent = 0;
    for (const { orderId, r } of all) {
      const out = r.outcomes[0]!;
      if (out.ok) {
        expect(rowsOf(orderId)).toBe(1);
        continue;
      }
      expect(out).toMatchObject({
        action: 'escalate',
        exhausted: 'per_call_retries',
        failure: { class: 'transient', reason: 'circuit_open', phase: 'preflight' },
      });
      expect(rowsOf(orderId)).toBe(0);
      neverSent += 1;
    }
    // The breaker did open (threshold 5 of 20 concurrent calls): some refunds were held back, honestly.
    expect(neverSent).toBeGreaterThan(0);
    expect(ledger.rows('refunds')).toBe(20 - neverSent);
  });
});
