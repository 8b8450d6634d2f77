/**
 * The Worker the plugin runs on the entities' own task queue (plugin/entity-worker.ts; docs/operating.md, "Shared mode"),
 * on the run's dev server: it answers the entities without a Worker of the user's on that queue, stops when the
 * user's Worker stops, and a failure to start it rejects `run()` with a message that names the queue.
 */
import { temporal } from '@temporalio/proto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import type { SharedBreaker } from '../../activities/shared-breaker';
import { RecoveryPlugin } from '../../plugin/recovery-plugin';
import { breakerEntityId, breakerStateQuery } from '../../workflows/entity-definitions';
import { startClusterService, type ClusterService } from '../fixtures/cluster-service';
import { clusterTools } from '../fixtures/cluster-tools';
import { testEnv, uniqueTaskQueue } from '../setup/env';
import { FAST_BACKOFF, workflowBundle } from './harness';

let env: TestWorkflowEnvironment;
let service: ClusterService;
beforeAll(async () => {
  env = await testEnv();
  service = await startClusterService();
  service.down = false;
});
afterAll(async () => {
  await service?.close();
  await env?.teardown();
});

/** Workflow pollers the server has seen on `taskQueue` (DescribeTaskQueue). */
async function pollers(taskQueue: string): Promise<number> {
  const answer = await env.client.workflowService.describeTaskQueue({
    namespace: 'default',
    taskQueue: { name: taskQueue },
    taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
  });
  return answer.pollers?.length ?? 0;
}

const pluginFor = (ns: string, taskQueue: string, entityWorker?: false | { workflowBundle: never }) =>
  new RecoveryPlugin({
    tools: clusterTools(service.url, ns).all,
    config: { taskQueue, backoff: FAST_BACKOFF },
    breaker: { shared: true, threshold: 5, timeoutMs: 5_000 },
    ...(entityWorker === undefined ? {} : { entityWorker }),
  });

test("worker.run() also runs the entities' Worker on <taskQueue>-entities; both stop with the user's Worker", async () => {
  const ns = uniqueTaskQueue('ns');
  const taskQueue = uniqueTaskQueue('entity-worker');
  const plugin = pluginFor(ns, taskQueue);
  expect((plugin.breakers as SharedBreaker).channel.taskQueue).toBe(`${taskQueue}-entities`);
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    plugins: [plugin],
    workflowBundle: await workflowBundle(),
  });
  const running = worker.run();
  // The entities' Worker bundles workflows/entities.ts first (no `entityWorker.workflowBundle` here).
  let seen = 0;
  for (let i = 0; seen === 0 && i < 150; i++) {
    await new Promise((r) => setTimeout(r, 200));
    seen = await pollers(`${taskQueue}-entities`);
  }
  expect(seen).toBeGreaterThan(0);
  const workflowId = uniqueTaskQueue('plan');
  await env.client.workflow.start('toolPlanWorkflow', {
    taskQueue,
    workflowId,
    args: [{ ...plugin.workflowDefaults(), calls: [{ tool: 'service_status', args: { region: 'a' } }] }],
  });
  const result = await env.client.workflow.getHandle(workflowId).result();
  expect(result).toMatchObject({ outcomes: [{ ok: true, value: { up: true } }] });
  const entity = env.client.workflow.getHandle(breakerEntityId(`status-svc-${ns}`));
  expect(await entity.query(breakerStateQuery)).toMatchObject({ state: 'closed', totals: { successes: 1 } });
  expect((await entity.describe()).taskQueue).toBe(`${taskQueue}-entities`);
  expect((plugin.breakers as SharedBreaker).channel.fallbacks).toBe(0);
  worker.shutdown();
  await running; // resolves only once the entities' Worker stopped too
  expect(worker.getState()).toBe('STOPPED');
  await entity.terminate('test over');
});

test("an entities' Worker that cannot start rejects run() naming its queue; entityWorker: false runs none", async () => {
  const taskQueue = uniqueTaskQueue('entity-worker-bad');
  const broken = pluginFor(uniqueTaskQueue('ns'), taskQueue, {
    workflowBundle: { codePath: '/nonexistent.js' } as never,
  });
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    plugins: [broken],
    workflowBundle: await workflowBundle(),
  });
  await expect(worker.run()).rejects.toThrow(
    `recovery-router: the Worker of the entities' task queue ${taskQueue}-entities did not start`,
  );
  // The user's Worker was released (run and stopped at once), not left created: a Worker never run keeps its
  // native worker and workflow threads, and with them the process (jest hung at the end of its run).
  expect(worker.getState()).toBe('STOPPED');
  const off = pluginFor(uniqueTaskQueue('ns'), `${taskQueue}-off`, false);
  const alone = await Worker.create({
    connection: env.nativeConnection,
    taskQueue: `${taskQueue}-off`,
    plugins: [off],
    workflowBundle: await workflowBundle(),
  });
  const running = alone.run();
  // Once the user's queue has its pollers (an answer of the server, not a 1 s wait), the plugin's startup is over.
  while ((await pollers(`${taskQueue}-off`)) === 0) await new Promise((r) => setTimeout(r, 100));
  expect(await pollers(`${taskQueue}-off-entities`)).toBe(0); // nobody polls the entities' queue
  alone.shutdown();
  await running;
});
