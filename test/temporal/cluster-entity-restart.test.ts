/**
 * A breaker entity whose run was terminated (an operator, a bad deploy) is started again by the workers' next
 * report, not read as current state: `SharedStateChannel.query` reads only a running entity (docs/operating.md, "Shared
 * mode": Reset). One worker of the plugin's workflows polls the entities' own task queue on the run's dev server.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { DownstreamFault } from '../../activities/breaker';
import { SharedBreaker } from '../../activities/shared-breaker';
import { RECOVERY_WORKFLOWS_PATH } from '../../plugin/recovery-plugin';
import { breakerEntityId } from '../../workflows/entity-definitions';
import { testEnv, uniqueTaskQueue } from '../setup/env';

let env: TestWorkflowEnvironment;
beforeAll(async () => {
  env = await testEnv();
});
afterAll(async () => {
  await env?.teardown();
});

/** The entity's latest run once it is running with a run id other than `not`, polled every 100 ms for 15 s. */
async function runningRun(id: string, not?: string): Promise<string> {
  for (let i = 0; i < 150; i++) {
    const d = await env.client.workflow
      .getHandle(id)
      .describe()
      .catch(() => undefined);
    if (d?.status.name === 'RUNNING' && d.runId !== not) return d.runId;
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`${id}: no running run other than ${not ?? 'none'} after 15 s`);
}

/** Shared-breaker options on the entities' queue `taskQueue`; a 5 000 ms bound, so no wait runs out on a loaded CI. */
const sharedOptions = (taskQueue: string) => ({
  shared: true as const,
  threshold: 3,
  halfOpenAfterMs: 60_000,
  client: env.client,
  taskQueue,
  timeoutMs: 5_000,
});

/** One call to `downstream` through `b` that the downstream fails (a counted fault). */
const fail = (b: SharedBreaker, downstream: string) =>
  b.execute(downstream, async () => {
    throw new DownstreamFault(new Error('HTTP 503'));
  });

test('a terminated breaker entity: the next failure report starts a new run; no call falls back to local state', async () => {
  const taskQueue = uniqueTaskQueue('entities');
  const downstream = uniqueTaskQueue('svc'); // entity ids are namespace-wide: one per test
  const id = breakerEntityId(downstream);
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowsPath: RECOVERY_WORKFLOWS_PATH,
  });
  const options = sharedOptions(taskQueue);
  await worker.runUntil(async () => {
    const first = new SharedBreaker(options);
    await expect(fail(first, downstream)).rejects.toThrow('HTTP 503');
    const firstRun = await runningRun(id);
    await env.client.workflow.getHandle(id).terminate('operator reset');
    // A worker that starts now: its first read finds only the terminated run, so it reads "no entity" and reports.
    const later = new SharedBreaker(options);
    await expect(fail(later, downstream)).rejects.toThrow('HTTP 503');
    const secondRun = await runningRun(id, firstRun);
    expect(secondRun).not.toBe(firstRun);
    expect([first.channel.fallbacks, later.channel.fallbacks]).toEqual([0, 0]);
    await env.client.workflow.getHandle(id).terminate('test over');
  });
});

test('an entity run that cannot even answer a query (its workers lacked the workflow), terminated: the next report starts a working one', async () => {
  const taskQueue = uniqueTaskQueue('entities');
  const broken = uniqueTaskQueue('broken'); // polled by a worker whose bundle has no breakerEntityWorkflow
  const downstream = uniqueTaskQueue('svc');
  const id = breakerEntityId(downstream);
  const good = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowsPath: RECOVERY_WORKFLOWS_PATH,
  });
  const wrong = await Worker.create({
    connection: env.nativeConnection,
    taskQueue: broken,
    workflowsPath: require.resolve('./fixtures/smoke-workflow'),
  });
  const options = sharedOptions(taskQueue);
  await wrong.runUntil(
    good.runUntil(async () => {
      const stale = await env.client.workflow.start('breakerEntityWorkflow', {
        taskQueue: broken,
        workflowId: id,
        args: [{}],
      });
      await env.client.workflow.getHandle(id).terminate('operator reset');
      const breaker = new SharedBreaker(options);
      await expect(fail(breaker, downstream)).rejects.toThrow('HTTP 503');
      const run = await runningRun(id, stale.firstExecutionRunId);
      expect(run).not.toBe(stale.firstExecutionRunId);
      expect(breaker.channel.fallbacks).toBe(0);
      await env.client.workflow.getHandle(id).terminate('test over');
    }),
  );
});
