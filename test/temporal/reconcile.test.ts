/**
 * Reconcile before replay, on the real dev server with a real SQLite side-effect store behind a loopback service.
 * Every test asserts rows in the database and requests at the service, not only the workflow's status.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { startLedgerService, type LedgerService } from '../../examples/ledger-service';
import { ledgerTools } from '../../examples/ledger-tools';
import {
  reviewCaseQuery,
  reviewDecisionSignal,
  decideReviewUpdate,
  type ReviewCase,
  reconcileWorkflowId,
} from '../../workflows/definitions';
import type { ToolPlanResult } from '../../workflows/tool-plan';
import { replayWorkflowsFromServer } from '../../plugin/replay';
import { testEnv, uniqueTaskQueue, writeKey } from '../setup/env';
import { eventTypes, FAST_BACKOFF, harness, type Harness, okOutcome } from './harness';

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

const FAST_LOOKUPS = { lookupBudget: 3, lookupBackoff: { initialIntervalMs: 50, maximumIntervalMs: 200 } };
const refundCall = (orderId: string) => ({ tool: 'issue_refund', args: { orderId, amountCents: 5000 } });

/** Waits until the reconciliation of `operationId` awaits review, and returns its case. */
async function awaitingReview(operationId: string): Promise<ReviewCase> {
  const handle = env.client.workflow.getHandle(reconcileWorkflowId(operationId));
  for (let i = 0; i < 200; i++) {
    try {
      const c = await handle.query(reviewCaseQuery);
      // The argument preview comes a few ms after the case opens (workflows/reconcile-preview.ts).
      if (c.status === 'awaiting_review' && c.argsSummary !== null) return c;
    } catch {
      /* not started yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${operationId} never awaited review`);
}

test('commit, then lose the response, in 50 runs → exactly one row per intent; each run returns the committed refund via lookup, never a second POST', async () => {
  // 50 lost answers in a row would (rightly) open the shared breaker; this test isolates reconciliation. Each lookup
  // gets 8 s (not 2 s): 50 lookups at once on a loaded machine must not time out, or the count of GETs is the load's.
  const tools = ledgerTools(ledger.url, { lookupTimeoutMs: 8_000 }).all;
  const h = await harness(env, tools, { breaker: { threshold: 1_000 } });
  const results = await h.run(() =>
    Promise.all(
      Array.from({ length: 50 }, (_, i) => {
        ledger.fault({ kind: 'lose_response' });
        return h.runPlan({ calls: [refundCall(`O-${i}`)], reconcile: FAST_LOOKUPS });
      }),
    ),
  );
  expect(ledger.rows('refunds')).toBe(50);
  expect(ledger.hits('POST /refunds')).toBe(50);
  expect(ledger.hits('GET /refunds')).toBe(50);
  for (const r of results) {
    const out = okOutcome(r.outcomes[0]);
    expect(out.reconciled).toBe('lookup');
    expect(ledger.rows('refunds', out.operationId)).toBe(1);
    const row = ledger.db
      .prepare('SELECT refund_id AS refundId FROM refunds WHERE op_key = ?')
      .get(out.operationId) as { refundId: string };
    expect(out.value).toMatchObject({ refundId: row.refundId, status: 'succeeded' });
  }
  // A case the lookup settles goes to no person: its child runs the lookup only, no argument preview, no marker.
  const child = await h.history(reconcileWorkflowId(okOutcome(results[0]!.outcomes[0]).operationId));
  const scheduled = child.flatMap((e) => e.activityTaskScheduledEventAttributes?.activityType?.name ?? []);
  expect(scheduled).toEqual(['lookupOperation']);
  expect(eventTypes(child).filter((t) => t === 'MARKER_RECORDED')).toHaveLength(0);
});

test('the operation_id is the workflow id plus a stable step: the same across the activity, the lookup and the key the service stored', async () => {
  ledger.fault({ kind: 'lose_response' });
  const h = await harness(env, ledgerTools(ledger.url).all);
  const workflowId = uniqueTaskQueue('refund');
  const r = await h.run(() =>
    h.runPlan({ calls: [{ ...refundCall('O-7'), stepId: 'refund-order-7' }], reconcile: FAST_LOOKUPS }, workflowId),
  );
  const key = await writeKey(env.client, workflowId, 'refund-order-7');
  expect(key).toMatch(new RegExp(`^${workflowId}@[0-9a-f-]{36}:refund-order-7$`));
  expect(okOutcome(r.outcomes[0]).operationId).toBe(key);
  expect(ledger.rows('refunds', key)).toBe(1);
});

test('refused connection before anything was sent → the write is retried safely by the workflow, one row, no reconciliation', async () => {
  await ledger.pause();
  const h = await harness(env, ledgerTools(ledger.url).all, {
    config: { backoff: { ...FAST_BACKOFF, initialIntervalMs: 1_000, jitterRatio: 0 } },
  });
  const r = await h.run(async () => {
    const id = await h.startPlan({ calls: [refundCall('O-1')] });
    // Back once the first attempt has failed, well inside the 1 s backoff before the workflow retries it.
    while (!eventTypes(await h.history(id)).includes('ACTIVITY_TASK_FAILED'))
      await new Promise((ok) => setTimeout(ok, 20));
    await ledger.resume();
    return (await env.client.workflow.getHandle(id).result()) as ToolPlanResult;
  });
  const out = okOutcome(r.outcomes[0]);
  expect(out.reconciled).toBeUndefined();
  expect(out.activities).toBe(2);
  expect(r.records.at(-1)).toMatchObject({ evidence: 'time_elapsed', terminal: 'succeeded' });
  expect(ledger.rows('refunds')).toBe(1);
  expect(ledger.hits('POST /refunds')).toBe(1);
});

describe('lookup down → human review', () => {
  let h: Harness;
  const run = async (orderId: string, decide: (operationId: string) => Promise<void>) => {
    const workflowId = uniqueTaskQueue('review');
    return h.run(async () => {
      await h.startPlan({ calls: [{ ...refundCall(orderId), stepId: orderId }], reconcile: FAST_LOOKUPS }, workflowId);
      const operationId = await writeKey(env.client, workflowId, orderId);
      const c = await awaitingReview(operationId);
      expect(c).toMatchObject({
        tool: 'issue_refund',
        operationId,
        replays: 0,
        argsSummary: { orderId, amountCents: 5000 },
      });
      expect(c.lookups.map((l) => l.state)).toEqual(['unknown', 'unknown', 'unknown']);
      await decide(operationId);
      return (await env.client.workflow.getHandle(workflowId).result()) as ToolPlanResult;
    });
  };
  beforeEach(async () => {
    ledger.setLookupDown(true);
    h = await harness(env, ledgerTools(ledger.url).all);
  });

  test('timed out before committing; reviewer signals replay → exactly one row, 2 POSTs', async () => {
    ledger.fault({ kind: 'fail_before_commit' });
    const r = await run('O-31', (operationId) =>
      env.client.workflow.getHandle(reconcileWorkflowId(operationId)).signal(reviewDecisionSignal, {
        operationId,
        decision: 'replay',
        by: 'ops@example',
        reason: 'provider shows nothing',
        confirmRisk: true,
      }),
    );
    expect(okOutcome(r.outcomes[0]).reconciled).toBe('review_replay');
    expect(ledger.rows('refunds')).toBe(1);
    expect(ledger.hits('POST /refunds')).toBe(2);
  });

  test('timed out before committing; reviewer abandons → still no row, the call stops', async () => {
    ledger.fault({ kind: 'fail_before_commit' });
    const r = await run('O-32', (operationId) =>
      env.client.workflow.getHandle(reconcileWorkflowId(operationId)).signal(reviewDecisionSignal, {
        operationId,
        decision: 'abandon',
        by: 'ops@example',
        reason: 'customer withdrew',
      }),
    );
    expect(r.outcomes[0]).toMatchObject({
      ok: false,
      action: 'stop',
      terminal: true,
      failure: { class: 'outcome_unknown' },
    });
    expect(ledger.rows('refunds')).toBe(0);
    expect(ledger.hits('POST /refunds')).toBe(1);
  });

  test('committed, response lost; reviewer marks it applied (update) → still one row, the workflow carries the reference', async () => {
    ledger.fault({ kind: 'lose_response' });
    const r = await run('O-33', async (operationId) => {
      const handle = env.client.workflow.getHandle(reconcileWorkflowId(operationId));
      const rejected = (args: object) =>
        handle.executeUpdate(decideReviewUpdate, { args: [args as never] }).then(
          () => 'accepted',
          (err: { cause?: { message?: string } }) => err.cause?.message,
        );
      expect(await rejected({ operationId: 'wrong-op', decision: 'abandon', by: 'x', reason: 'y' })).toMatch(
        /not wrong-op/,
      );
      expect(
        await rejected({ operationId, decision: 'mark_applied', by: 'ops@example', reason: 'seen in ledger' }),
      ).toMatch(/needs a resultRef/);
      const view = await handle.executeUpdate(decideReviewUpdate, {
        args: [
          { operationId, decision: 'mark_applied', by: 'ops@example', reason: 'seen in ledger', resultRef: 're_1' },
        ],
      });
      expect(view.operationId).toBe(operationId);
    });
    expect(okOutcome(r.outcomes[0])).toMatchObject({ reconciled: 'marked_applied', value: { resultRef: 're_1' } });
    expect(ledger.rows('refunds')).toBe(1);
    expect(ledger.hits('POST /refunds')).toBe(1);
  });
});

test('a write with no lookup and no deduplicating receiver goes straight to review (docs/DESIGN.md, "Reconcile"): no lookup, no resend', async () => {
  ledger.fault({ kind: 'lose_response' });
  const h = await harness(env, ledgerTools(ledger.url).all);
  const workflowId = uniqueTaskQueue('blind');
  let operationId = '';
  const r = await h.run(async () => {
    await h.startPlan(
      {
        calls: [
          { tool: 'send_newsletter_blind', args: { recipient: 'user-1', issue: '2015-04-23' }, stepId: 'send-1' },
        ],
      },
      workflowId,
    );
    operationId = await writeKey(env.client, workflowId, 'send-1');
    const c = await awaitingReview(operationId);
    expect(c.lookups).toEqual([]);
    // The case awaits review with its arguments, previewed on the Node side (activities/preview-arguments.ts).
    expect(c.argsSummary).toEqual({ recipient: 'user-1', issue: '2015-04-23' });
    await env.client.workflow.getHandle(reconcileWorkflowId(operationId)).signal(reviewDecisionSignal, {
      operationId,
      decision: 'mark_applied',
      by: 'ops',
      reason: 'in provider log',
      resultRef: 'm-1',
    });
    return (await env.client.workflow.getHandle(workflowId).result()) as ToolPlanResult;
  });
  expect(okOutcome(r.outcomes[0]).reconciled).toBe('marked_applied');
  expect(ledger.rows('emails')).toBe(1);
  expect(ledger.hits('POST /emails')).toBe(1);
  // One preview activity, the owner asked when the case reached review and before the decision was taken
  // (workflows/reconcile-owner.ts), and two patch markers in the child; its history replays on this code.
  const child = await h.history(reconcileWorkflowId(operationId));
  const scheduled = child.flatMap((e) => e.activityTaskScheduledEventAttributes?.activityType?.name ?? []);
  expect(scheduled).toEqual(['previewArguments', 'operationOwner', 'operationOwner']);
  expect(eventTypes(child).filter((t) => t === 'MARKER_RECORDED')).toHaveLength(2);
  const [replayed] = await replayWorkflowsFromServer(env.client, [reconcileWorkflowId(operationId)]);
  expect(replayed?.error).toBeUndefined();
});
