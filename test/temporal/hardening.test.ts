/**
 * Regressions from the attack review: inputs a model, a server or an operator can send must end the call or the
 * run cleanly (never a workflow task that fails forever), and must not bypass the gate or an approval.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { z } from 'zod';
import { defineTool } from '../../activities/define-tool';
import { startScriptedService, type ScriptedService } from '../../examples/scripted-service';
import { supportTools } from '../../examples/support-tools';
import { approvalSignal, pendingApprovalsQuery } from '../../workflows/definitions';
import type { ToolPlanResult } from '../../workflows/tool-plan';
import { testEnv, timeSkippingEnv } from '../setup/env';
import { failedOutcome, harness, okOutcome, timerDurationsMs } from './harness';

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

test('an unknown tool name of 600 characters, or an empty one → capability_missing, the run completes', async () => {
  service.reset({});
  const h = await harness(env, supportTools(service.url).all);
  const r = await h.run(() =>
    h.runPlan({
      calls: [
        { tool: 'x'.repeat(600), args: {} },
        { tool: '', args: {} },
      ],
      stopOnTerminal: false,
    }),
  );
  expect(r.outcomes.map((o) => failedOutcome(o).failure.class)).toEqual(['capability_missing', 'capability_missing']);
  expect(failedOutcome(r.outcomes[1]).failure.tool).toBe('(no name)');
});

test('a tool named "constructor" that answers 409: the identical second call is refused, not a crash', async () => {
  service.reset({ 'GET /c': [{ status: 409, body: { code: 'conflict' } }] });
  const ctor = defineTool({
    name: 'constructor',
    description: 'A tool whose name is an Object.prototype member.',
    input: z.object({ id: z.string() }),
    output: z.object({ ok: z.boolean() }),
    effect: 'read',
    async execute(_a, ctx) {
      return (await ctx.http.request({ url: `${service.url}/c` })).body as never;
    },
  });
  const h = await harness(env, [ctor]);
  const r = await h.run(() =>
    h.runPlan({
      calls: [
        { tool: 'constructor', args: { id: '1' } },
        { tool: 'constructor', args: { id: '1' }, sameTurn: true },
      ],
      stopOnTerminal: false,
    }),
  );
  expect(failedOutcome(r.outcomes[0]).action).toBe('replan');
  expect(failedOutcome(r.outcomes[1]).refused).toBe(true);
  expect(service.hits('GET /c')).toBe(1);
});

test('an extra key the tool strips is no change: {slot, note} after a 409 on {slot} is refused (1 request)', async () => {
  service.reset({ 'POST /calendar/book': [{ status: 409, body: { code: 'slot_taken' } }] });
  const lenient = defineTool({
    name: 'book',
    description: 'Books a slot (unknown keys are stripped).',
    input: z.object({ slot: z.string() }),
    output: z.object({ bookingId: z.string() }),
    effect: 'read',
    async execute(args, ctx) {
      return (await ctx.http.request({ method: 'POST', url: `${service.url}/calendar/book`, json: args }))
        .body as never;
    },
  });
  const h = await harness(env, [lenient]);
  const r = await h.run(() =>
    h.runPlan({
      calls: [
        { tool: 'book', args: { slot: '10:00' } },
        { tool: 'book', args: { slot: '10:00', note: 'please' }, sameTurn: true },
      ],
      stopOnTerminal: false,
    }),
  );
  expect(failedOutcome(r.outcomes[1]).refused).toBe(true);
  expect(service.hits('POST /calendar/book')).toBe(1);
});

test('an approval signal with approved: "false" (a string) approves nothing; the call times out and stops', async () => {
  service.reset({
    'GET /export': [
      { status: 403, body: { code: 'approval_required' } },
      { status: 200, body: { url: 'u' } },
    ],
  });
  const exportTool = defineTool({
    name: 'export_report',
    description: 'Exports the report.',
    input: z.object({ month: z.string() }),
    output: z.object({ url: z.string() }),
    effect: 'read',
    approvalCanLift: true,
    async execute(_a, ctx) {
      return (await ctx.http.request({ url: `${service.url}/export` })).body as never;
    },
  });
  // On the time-skipping server: time stands still while the test signals, and the 3 s expiry passes, as scheduled
  // (one timer of exactly 3 000 ms), once it awaits the result.
  const skipping = await timeSkippingEnv();
  const h = await harness(skipping, [exportTool]);
  const r = await h.run(async () => {
    const id = await h.startPlan({
      calls: [{ tool: 'export_report', args: { month: '11' } }],
      approvalTimeoutMs: 3_000,
    });
    const handle = skipping.client.workflow.getHandle(id);
    let pending = await handle.query(pendingApprovalsQuery);
    while (pending.length === 0) {
      await new Promise((ok) => setTimeout(ok, 100));
      pending = await handle.query(pendingApprovalsQuery);
    }
    await handle.signal(approvalSignal, {
      callId: pending[0]!.callId,
      argsDigest: pending[0]!.argsDigest,
      approved: 'false' as never,
      by: 'mallory',
    });
    await handle.signal(approvalSignal, null as never);
    return { ...((await handle.result()) as ToolPlanResult), workflowId: id };
  });
  try {
    expect(failedOutcome(r.outcomes[0])).toMatchObject({
      action: 'stop',
      feedback: { message: 'The approval request expired after 3 s without a decision; the action was not taken.' },
    });
    expect(service.hits('GET /export')).toBe(1);
    expect(timerDurationsMs(await h.history(r.workflowId))).toEqual([3_000]);
  } finally {
    await skipping.teardown();
  }
});

test('budgets from the worker config reach the workflow: perCallRetries 0 → exactly 1 attempt on 503', async () => {
  service.reset({ 'GET /inventory': [{ status: 503 }] });
  const h = await harness(env, supportTools(service.url).all, {
    config: {
      budgets: {
        perCallRetries: 0,
        perTurnReplans: 2,
        perCallRepairs: 2,
        perRunAttempts: 50,
        consecutiveUnknownToolTurns: 2,
      },
    },
  });
  const r = await h.run(() => h.runPlan({ calls: [{ tool: 'check_inventory', args: { sku: 'a' } }] }));
  expect(failedOutcome(r.outcomes[0]).attempts).toBe(1);
  expect(service.hits('GET /inventory')).toBe(1);
});

test('a validate.before that throws a secret: one attempt, unrecoverable, and the secret is in no outcome', async () => {
  const secret = 'password=hunter2 at /srv/app/db.ts:12 host 10.0.0.5';
  const broken = defineTool({
    name: 'broken_rules',
    description: 'A tool whose business rule throws.',
    input: z.object({ id: z.string() }),
    output: z.object({ ok: z.boolean() }),
    effect: 'read',
    validate: {
      before() {
        throw new Error(secret);
      },
    },
    async execute() {
      return { ok: true };
    },
  });
  const h = await harness(env, [broken]);
  const r = await h.run(() => h.runPlan({ calls: [{ tool: 'broken_rules', args: { id: '1' } }] }));
  const out = failedOutcome(r.outcomes[0]);
  expect(out).toMatchObject({ attempts: 1, failure: { class: 'unrecoverable' } });
  const text = JSON.stringify(await h.history(r.workflowId), (_k, v: unknown) =>
    ArrayBuffer.isView(v) ? Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('utf8') : v,
  );
  for (const s of ['hunter2', '/srv/app', '10.0.0.5']) expect(text).not.toContain(s);
});

test('a malformed plan input fails the run cleanly (non-retryable invalid_input), not the workflow task', async () => {
  const h = await harness(env, supportTools(service.url).all);
  const error = await h.run(async () => {
    const id = await h.startPlan({ calls: null as never });
    return env.client.workflow
      .getHandle(id)
      .result()
      .then(
        () => undefined,
        (e: unknown) => e,
      );
  });
  expect(error).toBeInstanceOf(WorkflowFailedError);
  const cause = (error as WorkflowFailedError).cause as ApplicationFailure;
  expect(cause).toBeInstanceOf(ApplicationFailure);
  expect(cause.type).toBe('invalid_input');
  expect(cause.message).toMatch(/^toolPlanWorkflow input calls:/);
});

test('a plain success still works after the hardening: an empty list is a success labelled empty, 1 attempt', async () => {
  service.reset({ 'GET /inventory': [{ status: 200, body: { items: [] } }] });
  const h = await harness(env, supportTools(service.url).all);
  const r = await h.run(() => h.runPlan({ calls: [{ tool: 'check_inventory', args: { sku: 'a' } }] }));
  expect(okOutcome(r.outcomes[0])).toMatchObject({ empty: true, attempts: 1 });
});
