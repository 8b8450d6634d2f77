/**
 * Two workers with different catalogs on one task queue (issue 35, "Deploy-safe"): the support desk's worker
 * (`check_inventory`, `book_slot`) and another application's (`send_digest` only), or an old worker during a
 * rolling deploy. A tool activity that lands on the worker without the tool fails retryably, "not on this worker",
 * and runs on a worker that has it; when none takes it within the call's retries, the run escalates and the model is
 * told the call could not run, never that a tool it has does not exist. Real dev server, real workers.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { NativeConnection, Worker } from '@temporalio/worker';
import { z } from 'zod';
import { defineTool } from '../../activities/define-tool';
import { startScriptedService, type ScriptedService } from '../../examples/scripted-service';
import { supportTools } from '../../examples/support-tools';
import { RecoveryPlugin } from '../../plugin/recovery-plugin';
import type { ToolPlanInput, ToolPlanResult } from '../../workflows/tool-plan';
import { testEnv, uniqueTaskQueue } from '../setup/env';
import { workflowBundle } from './harness';

/** A 1 s backoff: the harness can see a first attempt fail before the next one is due. */
const BACKOFF = { initialIntervalMs: 1_000, backoffCoefficient: 1, maximumIntervalMs: 1_000, jitterRatio: 0 };
const sendDigest = defineTool({
  name: 'send_digest',
  description: "Another application's tool.",
  input: z.object({}),
  output: z.object({}),
  effect: 'read',
  execute: async () => ({}),
});

let env: TestWorkflowEnvironment;
let service: ScriptedService;
const connections: NativeConnection[] = [];
beforeAll(async () => {
  env = await testEnv();
  service = await startScriptedService({});
});
afterAll(async () => {
  await service?.close();
  await Promise.all(connections.map((c) => c.close()));
  await env?.teardown();
});

/**
 * A worker with the plugin and `tools`' catalog on `taskQueue`, on a connection of its own as a worker of another
 * process has (the SDK refuses a second worker of one task queue on one connection).
 */
async function workerWith(taskQueue: string, tools: ConstructorParameters<typeof RecoveryPlugin>[0]['tools']) {
  const plugin = new RecoveryPlugin({ tools, config: { taskQueue, backoff: BACKOFF } });
  const connection = await NativeConnection.connect({ address: env.address });
  connections.push(connection);
  const worker = await Worker.create({
    connection,
    taskQueue,
    plugins: [plugin],
    workflowBundle: await workflowBundle(),
  });
  return { plugin, worker };
}

/** A plan of one read and one write of the support desk. */
function plan(catalog: ToolPlanInput['catalog'], budgets: ToolPlanInput['budgets'] = {}): ToolPlanInput {
  return {
    ...(catalog ? { catalog } : {}),
    budgets,
    calls: [
      { tool: 'check_inventory', args: { sku: 'desk-1' } },
      { tool: 'book_slot', args: { slot: '10:00', customerId: 'cus_7' } },
    ],
  };
}

/** The tool activity failures a run's history holds as "not on this worker" (failed attempts and retried ones). */
async function notOnWorker(workflowId: string): Promise<number> {
  const events = (await env.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
  const failures = events.flatMap((e) => [
    e.activityTaskFailedEventAttributes?.failure,
    e.activityTaskStartedEventAttributes?.lastFailure,
  ]);
  return failures.filter((f) => f?.message?.includes('does not have it in its catalog')).length;
}

test('a rolling deploy: the old worker lacks the tools and takes the first attempt; it fails as "not on this worker" and the call runs on the new worker', async () => {
  service.reset({
    'GET /inventory': [{ status: 200, body: { items: [{ id: 'a1' }] } }],
    'POST /calendar/book': [{ status: 201, body: { bookingId: 'bk_1' } }],
  });
  const taskQueue = uniqueTaskQueue('catalogs');
  const tools = supportTools(service.url);
  const fresh = await workerWith(taskQueue, tools.all);
  const old = await workerWith(taskQueue, [sendDigest]);
  const workflowId = uniqueTaskQueue('deploy');
  const result = await old.worker.runUntil(async () => {
    const h = await env.client.workflow.start('toolPlanWorkflow', {
      taskQueue,
      workflowId,
      args: [plan(fresh.plugin.workflowDefaults().catalog)],
    });
    // The read's first attempt lands on the old worker, the only one polling; the deploy ends once it failed.
    for (let i = 0; i < 100 && !(await retriedOnce(workflowId)); i++) await new Promise((r) => setTimeout(r, 100));
    return h;
  });
  const done = (await fresh.worker.runUntil(result.result())) as ToolPlanResult;
  expect(done.outcomes.map((o) => [o.tool, o.ok])).toEqual([
    ['check_inventory', true],
    ['book_slot', true],
  ]);
  expect(service.hits('GET /inventory')).toBe(1);
  expect(service.hits('POST /calendar/book')).toBe(1);
  expect(await notOnWorker(workflowId)).toBe(1);
}, 60_000);

/** Whether the run's pending tool activity failed once as "not on this worker" and waits for its retry. */
async function retriedOnce(workflowId: string): Promise<boolean> {
  const pending = (await env.client.workflow.getHandle(workflowId).describe()).raw.pendingActivities ?? [];
  return pending.some((a) => a.lastFailure?.message?.includes('does not have it in its catalog'));
}

test('two applications on one queue: no call is told its tool does not exist', async () => {
  service.reset({
    'GET /inventory': [{ status: 200, body: { items: [{ id: 'a1' }] } }],
    'POST /calendar/book': [{ status: 201, body: { bookingId: 'bk_1' } }],
  });
  const taskQueue = uniqueTaskQueue('catalogs');
  const desk = await workerWith(taskQueue, supportTools(service.url).all);
  const other = await workerWith(taskQueue, [sendDigest]);
  const catalog = desk.plugin.workflowDefaults().catalog;
  const results = await other.worker.runUntil(
    desk.worker.runUntil(
      Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          env.client.workflow.execute('toolPlanWorkflow', {
            taskQueue,
            workflowId: uniqueTaskQueue(`two-apps-${i}`),
            args: [plan(catalog, { perCallRetries: 8 })],
          }),
        ),
      ),
    ),
  );
  const outcomes = (results as ToolPlanResult[]).flatMap((r) => r.outcomes);
  expect(outcomes).toHaveLength(12);
  expect(outcomes.filter((o) => !o.ok && o.failure.class === 'capability_missing')).toEqual([]);
  // With 9 attempts each, a call lands on the desk's worker at least once but for a chance of 1 in 512.
  expect(outcomes.filter((o) => !o.ok && o.failure.reason !== 'not_on_worker')).toEqual([]);
}, 90_000);

test('no worker with the tool within the call’s retries: escalated; the model is told the call could not run, not that the tool does not exist', async () => {
  service.reset({});
  const taskQueue = uniqueTaskQueue('catalogs');
  const desk = new RecoveryPlugin({ tools: supportTools(service.url).all, config: { taskQueue } });
  const other = await workerWith(taskQueue, [sendDigest]);
  const result = (await other.worker.runUntil(
    env.client.workflow.execute('toolPlanWorkflow', {
      taskQueue,
      workflowId: uniqueTaskQueue('nowhere'),
      args: [{ ...plan(desk.workflowDefaults().catalog, { perCallRetries: 1 }), stopOnTerminal: false }],
    }),
  )) as ToolPlanResult;
  expect(result.outcomes.map((o) => (o.ok ? 'ok' : [o.tool, o.failure.class, o.failure.reason, o.action]))).toEqual([
    ['check_inventory', 'transient', 'not_on_worker', 'escalate'],
    ['book_slot', 'transient', 'not_on_worker', 'escalate'],
  ]);
  for (const o of result.outcomes) {
    if (o.ok) continue;
    expect(o.attempts).toBe(2);
    expect(o.feedback.message).toMatch(/could not run/);
    expect(o.feedback.message).not.toMatch(/no tool named/);
  }
  expect(service.received).toEqual([]);
}, 60_000);
