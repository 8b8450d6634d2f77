/**
 * Field scenarios of writes whose outcome is unknown (docs/DESIGN.md, "Reconcile"): a timed-out payment, a slow
 * e-mail API, a StartToClose timeout; on the dev server with the SQLite ledger service. Times are scaled down (the
 * 30–40 s holds of the field reports become 1–3 s); the order of events is kept.
 * The ledger's refund endpoint stands in for a payment intent: a write with an Idempotency-Key whose receiver
 * does not replay the first answer.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { startLedgerService, type LedgerService } from '../../examples/ledger-service';
import { ledgerTools } from '../../examples/ledger-tools';
import { reviewCaseQuery, type ReviewCase, reconcileWorkflowId } from '../../workflows/definitions';
import type { PlannedCall, ToolPlanInput } from '../../workflows/tool-plan';
import { testEnv, uniqueTaskQueue, writeKey } from '../setup/env';
import { eventTypes, harness, okOutcome, type Harness } from './harness';

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

const LOOKUPS = { lookupBudget: 3, lookupBackoff: { initialIntervalMs: 300, maximumIntervalMs: 1_000 } };
const keysOfRefunds = () =>
  (ledger.db.prepare('SELECT op_key AS k FROM refunds').all() as { k: string }[]).map((r) => r.k);

async function reviewCase(operationId: string, status: ReviewCase['status']): Promise<ReviewCase> {
  const handle = env.client.workflow.getHandle(reconcileWorkflowId(operationId));
  for (let i = 0; i < 200; i++) {
    const c = await handle.query(reviewCaseQuery).catch(() => undefined);
    if (c?.status === status) return c;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${operationId} never reached ${status}`);
}

/**
 * Runs one call that is expected to end in human review: returns the review case once it awaits a decision, then
 * terminates the plan (the test only inspects the case and the service).
 */
async function untilReview(
  h: Harness,
  call: PlannedCall,
  reconcile: ToolPlanInput['reconcile'],
  prefix: string,
): Promise<ReviewCase> {
  const workflowId = uniqueTaskQueue(prefix);
  return h.run(async () => {
    await h.startPlan({ calls: [call], ...(reconcile ? { reconcile } : {}) }, workflowId);
    const view = await reviewCase(await writeKey(env.client, workflowId, String(call.stepId)), 'awaiting_review');
    await env.client.workflow.getHandle(workflowId).terminate('test over');
    return view;
  });
}

describe('a timed-out payment is looked up by its step-bound key, never re-sent with a new one (docs/DESIGN.md, "Reconcile")', () => {
  const tools = () => ledgerTools(ledger.url, { writeTimeoutMs: 1_000 }).all;

  test('committed, answer held past the client timeout → lookup returns it; exactly one charge, one POST', async () => {
    ledger.fault({ kind: 'late_response', delayMs: 3_000 });
    const h = await harness(env, tools());
    const workflowId = uniqueTaskQueue('c01');
    const r = await h.run(() =>
      h.runPlan(
        {
          calls: [{ tool: 'issue_refund', args: { orderId: 'O-1', amountCents: 5000 }, stepId: 'pay' }],
          reconcile: LOOKUPS,
        },
        workflowId,
      ),
    );
    const out = okOutcome(r.outcomes[0]);
    expect(out).toMatchObject({ reconciled: 'lookup', value: { refundId: 're_1', amountCents: 5000 } });
    expect(keysOfRefunds()).toEqual([await writeKey(env.client, workflowId, 'pay')]);
    expect(ledger.hits('POST /refunds')).toBe(1);
    expect(ledger.hits('GET /refunds')).toBe(1);
  });

  test('variant A: the lookup answers 503 three times → human review after exactly 3 lookups; no second POST', async () => {
    ledger.fault({ kind: 'late_response', delayMs: 3_000 });
    ledger.setLookupDown(true);
    const h = await harness(env, tools());
    const c = await untilReview(
      h,
      { tool: 'issue_refund', args: { orderId: 'O-2', amountCents: 5000 }, stepId: 'pay' },
      LOOKUPS,
      'c01a',
    );
    expect(c.lookups.map((l) => l.state)).toEqual(['unknown', 'unknown', 'unknown']);
    expect(ledger.hits('GET /refunds')).toBe(3);
    expect(ledger.hits('POST /refunds')).toBe(1);
    expect(ledger.rows('refunds')).toBe(1);
  });

  test('variant B: nothing committed but the server saw the request → unknown, human review, no replay', async () => {
    ledger.fault({ kind: 'fail_before_commit' });
    const h = await harness(env, tools());
    const c = await untilReview(
      h,
      { tool: 'issue_refund', args: { orderId: 'O-3', amountCents: 5000 }, stepId: 'pay' },
      LOOKUPS,
      'c01b',
    );
    expect(c.lookups.map((l) => l.state)).toEqual(['unknown', 'unknown', 'unknown']);
    expect(ledger.hits('POST /refunds')).toBe(1);
    expect(ledger.rows('refunds')).toBe(0);
  });

  test('never seen by the server → one replay with the SAME key; one charge, two POSTs, one key', async () => {
    ledger.fault({ kind: 'lost_in_transit' });
    const h = await harness(env, tools());
    const workflowId = uniqueTaskQueue('c01c');
    const r = await h.run(() =>
      h.runPlan(
        {
          calls: [{ tool: 'issue_refund', args: { orderId: 'O-4', amountCents: 5000 }, stepId: 'pay' }],
          reconcile: LOOKUPS,
        },
        workflowId,
      ),
    );
    expect(okOutcome(r.outcomes[0]).reconciled).toBe('replay');
    expect(keysOfRefunds()).toEqual([await writeKey(env.client, workflowId, 'pay')]);
    expect(ledger.hits('POST /refunds')).toBe(2);
  });

  test('a lagging lookup says not_applied, the same-key replay hits the unique key (409) → looked up again, found; still one charge', async () => {
    ledger.fault({ kind: 'lose_response' });
    // The replica lags until the replay's answer is in: an event (an activity interceptor on the replay, the second
    // invokeTool), not a 500 ms lag racing the reconciliation's start under load.
    ledger.setLookupLagMs(3_600_000);
    let invokes = 0;
    const catchUp: ActivityInterceptorsFactory = (ctx) => ({
      inbound: {
        async execute(input, next) {
          if (ctx.info.activityType !== 'invokeTool' || ++invokes !== 2) return next(input);
          try {
            return await next(input);
          } finally {
            ledger.setLookupLagMs(0);
          }
        },
      },
    });
    const h = await harness(env, tools(), { interceptors: { activity: [catchUp] } });
    const r = await h.run(() =>
      h.runPlan({
        calls: [{ tool: 'issue_refund', args: { orderId: 'O-5', amountCents: 5000 } }],
        reconcile: { lookupBudget: 3, lookupBackoff: { initialIntervalMs: 700 } },
      }),
    );
    expect(okOutcome(r.outcomes[0])).toMatchObject({ reconciled: 'lookup', value: { refundId: 're_1' } });
    expect(ledger.rows('refunds')).toBe(1);
    expect(ledger.hits('POST /refunds')).toBe(2); // the replay was refused by the unique key
    expect(ledger.hits('GET /refunds')).toBe(2);
  });
});

describe('a slow e-mail API accepted the send; the batch resends only the unsent remainder (docs/DESIGN.md, "Reconcile")', () => {
  test('3 recipients, the 2nd answer arrives after the client gave up → found in the provider log, not resent: exactly one e-mail each', async () => {
    ledger.fault({ kind: 'late_response', delayMs: 0 });
    ledger.fault({ kind: 'late_response', delayMs: 3_000 });
    const h = await harness(env, ledgerTools(ledger.url, { writeTimeoutMs: 1_000 }).all);
    const r = await h.run(() =>
      h.runPlan({
        calls: ['user-1', 'user-2', 'user-3'].map((recipient) => ({
          tool: 'send_newsletter',
          args: { recipient, issue: '2015-04-23' },
          stepId: `send-${recipient}`,
        })),
        reconcile: LOOKUPS,
      }),
    );
    expect(r.outcomes.map((o) => (o.ok ? (o.reconciled ?? 'sent') : o.action))).toEqual(['sent', 'lookup', 'sent']);
    expect(
      ledger.db.prepare('SELECT recipient, COUNT(*) AS n FROM emails GROUP BY recipient ORDER BY recipient').all(),
    ).toEqual([
      { recipient: 'user-1', n: 1 },
      { recipient: 'user-2', n: 1 },
      { recipient: 'user-3', n: 1 },
    ]);
    expect(ledger.hits('POST /emails')).toBe(3);
  });

  test('variant: the provider has no lookup → parked for human review as unknown, never resent blindly', async () => {
    ledger.fault({ kind: 'late_response', delayMs: 3_000 });
    const h = await harness(env, ledgerTools(ledger.url, { writeTimeoutMs: 1_000 }).all);
    const c = await untilReview(
      h,
      { tool: 'send_newsletter_blind', args: { recipient: 'user-1', issue: '2015-04-23' }, stepId: 's1' },
      undefined,
      'c02b',
    );
    expect(c).toMatchObject({ tool: 'send_newsletter_blind', lookups: [], replays: 0 });
    expect(ledger.hits('POST /emails')).toBe(1);
    expect(ledger.rows('emails')).toBe(1);
  });
});

describe('a StartToClose timeout does not stop the first attempt (docs/DESIGN.md, "Phases")', () => {
  test('attempt 1 times out at 1 s but commits at 1.5 s → no second attempt; reconcile polls until the row appears; exactly one row', async () => {
    ledger.fault({ kind: 'slow_commit', delayMs: 1_500 });
    const h = await harness(env, ledgerTools(ledger.url, { writeTimeoutMs: 10_000, startToCloseMs: 1_000 }).all);
    const r = await h.run(() =>
      h.runPlan({
        calls: [{ tool: 'issue_refund', args: { orderId: 'O-88', amountCents: 8800 } }],
        reconcile: { lookupBudget: 5, lookupBackoff: { initialIntervalMs: 500 } },
      }),
    );
    const out = okOutcome(r.outcomes[0]);
    expect(out).toMatchObject({ reconciled: 'lookup', value: { refundId: 're_1', amountCents: 8800 } });
    expect(ledger.rows('refunds')).toBe(1);
    expect(ledger.hits('POST /refunds')).toBe(1);
    const events = eventTypes(await h.history(r.workflowId));
    expect(events.filter((e) => e === 'ACTIVITY_TASK_STARTED')).toHaveLength(1);
    expect(events).toContain('ACTIVITY_TASK_TIMED_OUT');
    expect(events).toContain('START_CHILD_WORKFLOW_EXECUTION_INITIATED');
  });
});
