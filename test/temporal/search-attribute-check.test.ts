/**
 * A Worker with the plugin checks its namespace's search attributes before it polls
 * (plugin/search-attribute-check.ts). A namespace created here on the run's dev server has none of the plugin's (the
 * dev server registers them for `default` only): the Worker refuses to start, naming them and the commands; with
 * `searchAttributes: false` it runs, and a call waiting for approval waits (with them set, its workflow task would
 * fail with BadSearchAttributes on every attempt).
 */
import { Client } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { startScriptedService, type ScriptedService } from '../../examples/scripted-service';
import { RecoveryPlugin, SearchAttributesError } from '../../plugin/recovery-plugin';
import { pendingApprovalsQuery } from '../../workflows/definitions';
import { testEnv, uniqueTaskQueue } from '../setup/env';
import { workflowBundle } from './harness';
import { exportReportTool } from './fixtures/export-report-tool';

let env: TestWorkflowEnvironment;
let service: ScriptedService;
const namespace = `rr-no-sa-${process.pid}`;

beforeAll(async () => {
  env = await testEnv();
  service = await startScriptedService({});
  await env.connection.workflowService.registerNamespace({
    namespace,
    workflowExecutionRetentionPeriod: msToTs('1 day'),
  });
  // A new namespace reaches the server's namespace cache within seconds.
  for (let i = 0; i < 100; i++) {
    try {
      await env.connection.workflowService.describeNamespace({ namespace });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
});
afterAll(async () => {
  await service?.close();
  await env?.teardown();
});

const exportTool = exportReportTool(() => service.url);

async function workerIn(plugin: RecoveryPlugin, taskQueue: string): Promise<Worker> {
  return Worker.create({
    connection: env.nativeConnection,
    namespace,
    taskQueue,
    workflowBundle: await workflowBundle(),
    plugins: [plugin],
  });
}

test('a namespace without the search attributes: the Worker refuses to start, naming each one and the commands that register it', async () => {
  const taskQueue = uniqueTaskQueue('no-sa');
  const worker = await workerIn(new RecoveryPlugin({ tools: [exportTool], config: { taskQueue } }), taskQueue);
  const failed = await worker.run().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(failed).toBeInstanceOf(SearchAttributesError);
  const err = failed as SearchAttributesError;
  expect([err.code, err.namespace, err.problems]).toEqual([
    'search_attributes_missing',
    namespace,
    ['RecoveryStatus', 'RecoveryTool', 'RecoveryOperationId'],
  ]);
  expect(err.message).toContain(
    `temporal operator search-attribute create --namespace ${namespace} --name RecoveryOperationId --type Keyword`,
  );
  expect(err.message).toContain('new RecoveryPlugin({ searchAttributes: false, … })');
  expect(worker.getState()).toBe('STOPPED');
});

test('searchAttributes: false — the Worker runs there, workflowDefaults() carries it, and a call waits for approval', async () => {
  service.reset({ 'GET /export': [{ status: 403, body: { code: 'approval_required' } }] });
  const taskQueue = uniqueTaskQueue('no-sa-off');
  const plugin = new RecoveryPlugin({ tools: [exportTool], config: { taskQueue }, searchAttributes: false });
  expect(plugin.workflowDefaults().searchAttributes).toBe(false);
  const client = new Client({ connection: env.connection, namespace });
  const worker = await workerIn(plugin, taskQueue);
  const pending = await worker.runUntil(async () => {
    const handle = await client.workflow.start('toolPlanWorkflow', {
      taskQueue,
      workflowId: uniqueTaskQueue('no-sa-plan'),
      args: [{ ...plugin.workflowDefaults(), calls: [{ tool: 'export_report', args: { month: '2026-11' } }] }],
    });
    for (let i = 0; i < 200; i++) {
      // The query fails until the run's first workflow task has registered its handlers.
      const waiting = await handle.query(pendingApprovalsQuery).catch(() => []);
      if (waiting.length > 0) {
        await handle.terminate('test done');
        return waiting;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('the call never waited for approval');
  });
  expect(pending.map((p) => p.tool)).toEqual(['export_report']);
});
