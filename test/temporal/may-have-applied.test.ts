/**
 * A write an earlier attempt of which may have been applied is that unknown outcome, on the dev server with a
 * scripted loopback service (docs/DESIGN.md, "Phases" and "Reconcile", 4; recovery/steps.ts `mayHaveApplied`): a
 * repeat refused as a duplicate of its idempotency key, and a later failure after an answer that was lost. What the
 * reconciliation starts with is read from its own history (its input) and its review case, never from the router's
 * code.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { z } from 'zod';
import { defineTool, type LookupResult } from '../../activities/define-tool';
import type { ToolContext } from '../../activities/tool-context';
import { startScriptedService, type ScriptedService } from '../../examples/scripted-service';
import type { ToolFailure } from '../../recovery/failure';
import { reconcileWorkflowId, reviewCaseQuery, type ReviewCase } from '../../workflows/definitions';
import { testEnv, uniqueTaskQueue, writeKey } from '../setup/env';
import { failedOutcome, harness, type Harness } from './harness';

let env: TestWorkflowEnvironment;
let service: ScriptedService;
beforeAll(async () => {
  env = await testEnv();
  service = await startScriptedService({});
});
afterAll(async () => {
  await service?.close();
  await env?.teardown();
});

const DUPLICATE_KEY =
  'A repeat of this write was refused as a duplicate of its idempotency key: the first one may have been applied.';
const EARLIER_APPLIED =
  'An earlier attempt of this write may have been applied before this one failed; it is looked up before anything runs again.';

/** A lookup that never finds the payment (a 404). */
async function notFound(_operationId: string, ctx: ToolContext): Promise<LookupResult<{ paymentId: string }>> {
  const res = await ctx.http.request({ url: `${service.url}/payments`, accept: [404] });
  return res.status === 404 ? { state: 'not_applied' } : { state: 'unknown' };
}

/** A payment write: its receiver deduplicates by the key or not; with a lookup whose "not found" is final at once. */
const pay = (deduplicates: boolean, withLookup = false) =>
  defineTool({
    name: 'pay',
    description: 'Pays an invoice.',
    input: z.object({ invoice: z.string() }).strict(),
    output: z.object({ paymentId: z.string() }),
    effect: 'write',
    idempotency: { carrier: 'header', name: 'Idempotency-Key', deduplicates },
    timeouts: { startToCloseMs: 5_000 },
    async execute(args, ctx) {
      return (await ctx.http.request({ method: 'POST', url: `${service.url}/pay`, json: args })).body as never;
    },
    ...(withLookup ? { commit: { settleMs: 0, lookupLagMs: 0 }, lookup: notFound } : {}),
  });

/** The failure the latest run of the operation's reconciliation was started with (its input in history). */
async function reconciledFailure(h: Harness, operationId: string): Promise<ToolFailure> {
  const [started] = await h.history(reconcileWorkflowId(operationId));
  const payload = started?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0]?.data;
  if (!payload) throw new Error(`no input recorded for ${operationId}`);
  return (JSON.parse(Buffer.from(payload).toString('utf8')) as { failure: ToolFailure }).failure;
}

/** Runs the plan until its write's reconciliation awaits review: the case, the failure it started with, then ends the plan. */
async function untilReview(h: Harness, prefix: string): Promise<{ view: ReviewCase; failure: ToolFailure }> {
  const workflowId = uniqueTaskQueue(prefix);
  return h.run(async () => {
    await h.startPlan({ calls: [{ tool: 'pay', args: { invoice: 'inv-7' }, stepId: 'pay' }] }, workflowId);
    const operationId = await writeKey(env.client, workflowId, 'pay');
    const handle = env.client.workflow.getHandle(reconcileWorkflowId(operationId));
    for (let i = 0; i < 300; i++) {
      const view = await handle.query(reviewCaseQuery).catch(() => undefined);
      if (view?.status === 'awaiting_review') {
        const failure = await reconciledFailure(h, operationId);
        await env.client.workflow.getHandle(workflowId).terminate('test over');
        await handle.terminate('test over');
        return { view, failure };
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${operationId} never awaited review`);
  });
}

describe('a repeat refused as a duplicate of its idempotency key: the first write may have landed', () => {
  test('503, then 409 to the retry under the same key, receiver does not deduplicate → reconciled, not replay-safe: 2 POSTs, review warns', async () => {
    service.reset({ 'POST /pay': [{ status: 503 }, { status: 409 }] });
    const { view, failure } = await untilReview(await harness(env, [pay(false)]), 'dup-key');
    expect(failure).toMatchObject({
      class: 'outcome_unknown',
      reason: 'conflict',
      phase: 'commit_unknown',
      retryable: false,
      replaySafe: false,
      status: 409,
      publicMessage: DUPLICATE_KEY,
    });
    expect(view).toMatchObject({ message: DUPLICATE_KEY, deduplicates: false, replays: 0 });
    expect(view.failure).toMatchObject({ class: 'outcome_unknown', reason: 'conflict', phase: 'commit_unknown' });
    expect(service.hits('POST /pay')).toBe(2);
  });

  test('a dropped answer, then 409 to the retry, receiver deduplicates → reconciled, replay-safe: one replay with the key, 3 POSTs', async () => {
    service.reset({ 'POST /pay': [{ destroy: true }, { status: 409 }] });
    const { view, failure } = await untilReview(await harness(env, [pay(true)]), 'dup-key-dedup');
    expect(failure).toMatchObject({
      class: 'outcome_unknown',
      reason: 'conflict',
      phase: 'commit_unknown',
      retryable: false,
      replaySafe: true,
      publicMessage: DUPLICATE_KEY,
    });
    expect(view).toMatchObject({ deduplicates: true, replays: 1 });
    expect(service.hits('POST /pay')).toBe(3);
  });
});

describe('a later failure of a write whose earlier attempt may have been applied', () => {
  test('503, 409 to the retry, "not found", the replay refused 422 → reconciled again as that unknown outcome, then its own route: 4 POSTs', async () => {
    service.reset({
      'POST /pay': [{ status: 503 }, { status: 409 }, { status: 422, body: { code: 'invoice_closed' } }],
      'GET /payments': [{ status: 404 }],
    });
    const h = await harness(env, [pay(false, true)]);
    const workflowId = uniqueTaskQueue('dup-later');
    const r = await h.run(() =>
      h.runPlan({ calls: [{ tool: 'pay', args: { invoice: 'inv-7' }, stepId: 'pay' }] }, workflowId),
    );
    const failure = await reconciledFailure(h, await writeKey(env.client, workflowId, 'pay'));
    expect(failure).toMatchObject({
      class: 'outcome_unknown',
      phase: 'commit_unknown',
      replaySafe: false,
      status: 422,
      publicMessage: EARLIER_APPLIED,
    });
    expect(failedOutcome(r.outcomes[0]).failure).toMatchObject({ status: 422 });
    expect([service.hits('POST /pay'), service.hits('GET /payments')]).toEqual([4, 2]);
  });

  test('a dropped answer, "not found", the replay refused 422 → reconciled again, not replay-safe; then its own route: 3 POSTs', async () => {
    service.reset({
      'POST /pay': [{ destroy: true }, { status: 422, body: { code: 'invoice_closed', message: 'closed' } }],
      'GET /payments': [{ status: 404 }],
    });
    const h = await harness(env, [pay(false, true)]);
    const workflowId = uniqueTaskQueue('later');
    const r = await h.run(() =>
      h.runPlan({ calls: [{ tool: 'pay', args: { invoice: 'inv-7' }, stepId: 'pay' }] }, workflowId),
    );
    const failure = await reconciledFailure(h, await writeKey(env.client, workflowId, 'pay'));
    expect(failure).toMatchObject({
      class: 'outcome_unknown',
      phase: 'commit_unknown',
      retryable: false,
      replaySafe: false,
      status: 422,
      publicMessage: EARLIER_APPLIED,
    });
    expect(failedOutcome(r.outcomes[0]).failure).toMatchObject({ status: 422, replaySafe: true });
    expect([service.hits('POST /pay'), service.hits('GET /payments')]).toEqual([3, 2]);
  });
});
