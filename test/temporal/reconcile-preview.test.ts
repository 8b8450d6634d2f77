/**
 * The review case's argument preview under faults (workflows/reconcile-preview.ts, docs/DESIGN.md "What the model
 * sees"): the `previewArguments` activity fails, answers late, or is still running when the run is cancelled. A
 * write with no lookup and no deduplicating receiver whose answer is lost goes straight to review, so its
 * reconciliation runs the preview; an activity interceptor on the real worker makes that one activity fail or wait.
 */
import type { Context } from '@temporalio/activity';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import type { temporal } from '@temporalio/proto';
import { startLedgerService, type LedgerService } from '../../examples/ledger-service';
import { ledgerTools } from '../../examples/ledger-tools';
import { replayWorkflowsFromServer } from '../../plugin/replay';
import { decideReviewUpdate, reconcileWorkflowId, reviewCaseQuery, type ReviewCase } from '../../workflows/definitions';
import type { ToolPlanResult } from '../../workflows/tool-plan';
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

/** What the preview activity does: throws, or answers; `held` ones wait until the test releases them first. */
interface Fault {
  held: boolean;
  throws: boolean;
}

/**
 * A worker whose `previewArguments` runs under `fault`; counts its attempts. A held preview waits for `release()`
 * and nothing else (not its cancellation): a run that waited for it could not end before the test releases it, so
 * "ended while the preview was held" is an ordering of events, never a measured time.
 */
async function faultyHarness(
  fault: Fault,
): Promise<{ h: Harness; attempts: () => number; settled: () => number; release: () => void }> {
  let attempts = 0;
  let settled = 0;
  let release: () => void = () => undefined;
  const gate = new Promise<void>((r) => (release = r));
  const factory: ActivityInterceptorsFactory = (ctx: Context) => ({
    inbound: {
      async execute(input, next) {
        if (ctx.info.activityType !== 'previewArguments') return next(input);
        attempts += 1;
        try {
          if (fault.held) await gate;
          if (fault.throws) throw new Error('preview backend down at 10.0.0.7:5432');
          return await next(input);
        } finally {
          settled += 1;
        }
      },
    },
  });
  const h = await harness(env, ledgerTools(ledger.url).all, { interceptors: { activity: [factory] } });
  return { h, attempts: () => attempts, settled: () => settled, release };
}

/** Waits until the history of `workflowId` holds an event `match` finds and a workflow task completed after it. */
async function untilProcessed(
  workflowId: string,
  match: (e: temporal.api.history.v1.IHistoryEvent) => boolean,
): Promise<void> {
  for (;;) {
    const events = (await env.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
    const at = events.findIndex(match);
    if (at >= 0 && events.slice(at).some((e) => e.workflowTaskCompletedEventAttributes)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const send = { tool: 'send_newsletter_blind', args: { recipient: 'user-1', issue: '2015-04-23' }, stepId: 'send-1' };

/** The review case of `operationId` once its reconciliation has started. */
async function reviewCase(operationId: string, status?: ReviewCase['status']): Promise<ReviewCase> {
  const handle = env.client.workflow.getHandle(reconcileWorkflowId(operationId));
  for (let i = 0; i < 300; i++) {
    const c = await handle.query(reviewCaseQuery).catch(() => undefined);
    if (c && (status === undefined || c.status === status)) return c;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${operationId}: no review case${status ? ` with status ${status}` : ''}`);
}

const decide = (operationId: string) =>
  env.client.workflow.getHandle(reconcileWorkflowId(operationId)).executeUpdate(decideReviewUpdate, {
    args: [{ operationId, decision: 'mark_applied', by: 'ops', reason: 'in provider log', resultRef: 'm-1' }],
  });

test('preview: a preview that fails on every attempt shows argsSummary null; the review still decides the case', async () => {
  ledger.fault({ kind: 'lose_response' });
  const { h, attempts } = await faultyHarness({ held: false, throws: true });
  const workflowId = uniqueTaskQueue('preview-fails');
  let operationId = '';
  const r = await h.run(async () => {
    await h.startPlan({ calls: [send] }, workflowId);
    operationId = await writeKey(env.client, workflowId, 'send-1');
    await reviewCase(operationId, 'awaiting_review');
    // Every attempt failed and the last failure reached the workflow: an event in its history, not a wait.
    await untilProcessed(reconcileWorkflowId(operationId), (e) => Boolean(e.activityTaskFailedEventAttributes));
    const c = await reviewCase(operationId, 'awaiting_review');
    expect(c.argsSummary).toBeNull();
    expect(JSON.stringify(c)).not.toContain('10.0.0.7');
    await decide(operationId);
    return (await env.client.workflow.getHandle(workflowId).result()) as ToolPlanResult;
  });
  expect(attempts()).toBe(3); // maximumAttempts
  expect(okOutcome(r.outcomes[0]).reconciled).toBe('marked_applied');
  expect(ledger.hits('POST /emails')).toBe(1);
  const [replayed] = await replayWorkflowsFromServer(env.client, [reconcileWorkflowId(operationId)]);
  expect(replayed?.error).toBeUndefined();
});

test('preview: the case takes a decision while its preview still runs (argsSummary null until it comes)', async () => {
  ledger.fault({ kind: 'lose_response' });
  const { h, attempts, settled, release } = await faultyHarness({ held: true, throws: false });
  const workflowId = uniqueTaskQueue('preview-late');
  let operationId = '';
  const r = await h.run(async () => {
    await h.startPlan({ calls: [send] }, workflowId);
    operationId = await writeKey(env.client, workflowId, 'send-1');
    const early = await reviewCase(operationId, 'awaiting_review');
    expect(early.argsSummary).toBeNull();
    while (attempts() === 0) await new Promise((res) => setTimeout(res, 50));
    await decide(operationId); // taken while the preview is held
    expect(settled()).toBe(0);
    const result = (await env.client.workflow.getHandle(workflowId).result()) as ToolPlanResult;
    release();
    return result;
  });
  expect(okOutcome(r.outcomes[0]).reconciled).toBe('marked_applied');
  expect(ledger.hits('POST /emails')).toBe(1);
});

test('preview: the reconciliation cancelled while the preview runs ends CANCELLED, at once, and nothing is resent', async () => {
  ledger.fault({ kind: 'lose_response' });
  const { h, attempts, settled, release } = await faultyHarness({ held: true, throws: false });
  const workflowId = uniqueTaskQueue('preview-cancel');
  let operationId = '';
  const { status, settledAtEnd } = await h.run(async () => {
    await h.startPlan({ calls: [send] }, workflowId);
    operationId = await writeKey(env.client, workflowId, 'send-1');
    const child = env.client.workflow.getHandle(reconcileWorkflowId(operationId));
    await reviewCase(operationId);
    while (attempts() === 0) await new Promise((r) => setTimeout(r, 50));
    await child.cancel();
    await child.result().catch(() => undefined);
    const d = await child.describe();
    await env.client.workflow
      .getHandle(workflowId)
      .result()
      .catch(() => undefined);
    const atEnd = settled();
    release();
    return { status: d.status.name, settledAtEnd: atEnd };
  });
  expect(status).toBe('CANCELLED');
  // At once: it ended while its preview was still held, never waiting for the preview (nor its 60 s deadline).
  expect(settledAtEnd).toBe(0);
  const events = await h.history(reconcileWorkflowId(operationId));
  expect(eventTypes(events).at(-1)).toBe('WORKFLOW_EXECUTION_CANCELED');
  // The preview never ended (it was still held); the owner checks at review (operationOwner) did.
  const nameOf = new Map(
    events
      .filter((e) => e.activityTaskScheduledEventAttributes)
      .map((e) => [Number(e.eventId), e.activityTaskScheduledEventAttributes!.activityType!.name!]),
  );
  const ended = events
    .map(
      (e) =>
        e.activityTaskCompletedEventAttributes ??
        e.activityTaskFailedEventAttributes ??
        e.activityTaskTimedOutEventAttributes,
    )
    .filter((a) => a)
    .map((a) => nameOf.get(Number(a!.scheduledEventId)));
  expect(ended.filter((n) => n !== 'operationOwner')).toEqual([]);
  expect([...nameOf.values()].filter((n) => n === 'previewArguments')).toEqual(['previewArguments']);
  expect(ledger.hits('POST /emails')).toBe(1);
});

test('preview: the plan cancelled while its reconciliation previews ends CANCELLED, and so does the reconciliation', async () => {
  ledger.fault({ kind: 'lose_response' });
  const { h, attempts, release } = await faultyHarness({ held: true, throws: false });
  const workflowId = uniqueTaskQueue('preview-cancel-plan');
  let operationId = '';
  const [plan, child] = await h.run(async () => {
    await h.startPlan({ calls: [send] }, workflowId);
    operationId = await writeKey(env.client, workflowId, 'send-1');
    await reviewCase(operationId);
    while (attempts() === 0) await new Promise((r) => setTimeout(r, 50));
    const handle = env.client.workflow.getHandle(workflowId);
    await handle.cancel();
    await handle.result().catch(() => undefined);
    const reconcile = env.client.workflow.getHandle(reconcileWorkflowId(operationId));
    await reconcile.result().catch(() => undefined);
    const statuses = [(await handle.describe()).status.name, (await reconcile.describe()).status.name];
    release();
    return statuses;
  });
  expect([plan, child]).toEqual(['CANCELLED', 'CANCELLED']);
  expect(ledger.hits('POST /emails')).toBe(1);
});
