/**
 * No hidden wiring (issue 29): a Worker with the plugin runs the plugin's own workflows and supplies the catalog and
 * policy, whatever the user's workflows module exports; a prebuilt bundle without them is refused before polling.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, DefaultLogger, Worker } from '@temporalio/worker';
import { createPlannerActivities } from '../../activities/planners/planner';
import { createScriptedPlanner } from '../../activities/planners/scripted';
import { startLedgerService, type LedgerService } from '../../examples/ledger-service';
import { ledgerTools } from '../../examples/ledger-tools';
import { startScriptedService, type ScriptedService } from '../../examples/scripted-service';
import { supportTools } from '../../examples/support-tools';
import { bundleExports } from '../../plugin/bundle-check';
import { RecoveryPlugin } from '../../plugin/recovery-plugin';
import type { AgentResult } from '../../workflows/agent';
import type { ToolOutcome } from '../../workflows/tool-router';
import { testEnv, uniqueTaskQueue } from '../setup/env';
import { FAST_BACKOFF } from './harness';

const USER_WORKFLOWS = require.resolve('./fixtures/user-workflows-only');
const FAST_LOOKUPS = { lookupBudget: 3, lookupBackoff: { initialIntervalMs: 50, maximumIntervalMs: 200 } };
const logger = new DefaultLogger('ERROR');

let env: TestWorkflowEnvironment;
let ledger: LedgerService;
beforeAll(async () => {
  env = await testEnv();
  ledger = await startLedgerService();
});
afterAll(async () => {
  await ledger?.close();
  await env?.teardown();
});

function ledgerPlugin(taskQueue: string, extra: Partial<ConstructorParameters<typeof RecoveryPlugin>[0]> = {}) {
  return new RecoveryPlugin({
    tools: ledgerTools(ledger.url).all,
    config: { backoff: FAST_BACKOFF, taskQueue },
    searchAttributes: false,
    ...extra,
  });
}

test('a workflowsPath that exports neither reconcileOperationWorkflow nor a catalog: a lost answer is reconciled by lookup, one POST, one row', async () => {
  const taskQueue = uniqueTaskQueue('wiring');
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    plugins: [ledgerPlugin(taskQueue)],
    workflowsPath: USER_WORKFLOWS,
    bundlerOptions: {},
  });
  ledger.fault({ kind: 'lose_response' });
  const posts = ledger.hits('POST /refunds');
  const rows = ledger.rows('refunds');
  const outcome = (await worker.runUntil(
    env.client.workflow.execute('refundOnce', {
      taskQueue,
      workflowId: uniqueTaskQueue('refund'),
      args: ['O-2901', FAST_LOOKUPS],
    }),
  )) as ToolOutcome;
  expect(outcome).toMatchObject({ ok: true, tool: 'issue_refund', reconciled: 'lookup' });
  expect(ledger.hits('POST /refunds') - posts).toBe(1);
  expect(ledger.rows('refunds') - rows).toBe(1);
});

test('a prebuilt bundle without reconcileOperationWorkflow: the Worker refuses to start, naming the export', async () => {
  const taskQueue = uniqueTaskQueue('wiring');
  const bare = await bundleWorkflowCode({ workflowsPath: USER_WORKFLOWS, logger });
  const creating = Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    plugins: [ledgerPlugin(taskQueue)],
    workflowBundle: bare,
  });
  await expect(creating).rejects.toMatchObject({
    name: 'WorkflowBundleError',
    code: 'workflow_bundle_incomplete',
    message: expect.stringMatching(/does not export reconcileOperationWorkflow, which the plugin starts/),
  });
});

test("a bundle built with the plugin has the plugin's workflows; in shared mode the entities too", async () => {
  const local = await bundleWorkflowCode({ workflowsPath: USER_WORKFLOWS, plugins: [ledgerPlugin('q')], logger });
  expect([...(bundleExports(local.code) ?? [])].sort()).toEqual(['reconcileOperationWorkflow', 'refundOnce']);
  const sharedPlugin = ledgerPlugin('q', { breaker: { shared: true, threshold: 5, halfOpenAfterMs: 1_000 } });
  const shared = await bundleWorkflowCode({ workflowsPath: USER_WORKFLOWS, plugins: [sharedPlugin], logger });
  expect([...(bundleExports(shared.code) ?? [])].sort()).toEqual([
    'breakerEntityWorkflow',
    'credentialEntityWorkflow',
    'reconcileOperationWorkflow',
    'refundOnce',
  ]);
});

test('a bundle built with a plugin of another catalog is refused before polling, naming both digests', async () => {
  const taskQueue = uniqueTaskQueue('wiring');
  const other = new RecoveryPlugin({ tools: ledgerTools(ledger.url).all.slice(0, 1), searchAttributes: false });
  const bundle = await bundleWorkflowCode({ workflowsPath: USER_WORKFLOWS, plugins: [other], logger });
  await expect(
    Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      plugins: [ledgerPlugin(taskQueue)],
      workflowBundle: bundle,
    }),
  ).rejects.toMatchObject({
    code: 'workflow_bundle_foreign',
    message: expect.stringMatching(/digest [0-9a-f]{16}, this plugin's [0-9a-f]{16}/),
  });
});

describe('a client with no tool code', () => {
  let service: ScriptedService;
  beforeAll(async () => {
    service = await startScriptedService({ 'GET /inventory': [{ status: 200, body: { items: [{ id: 'desk-1' }] } }] });
  });
  afterAll(async () => {
    await service?.close();
  });

  test('starts agentWorkflow with its goal only, from a process that loads none of the tools, the plugin or the activities', async () => {
    const taskQueue = uniqueTaskQueue('wiring');
    const goal = 'Check the stock of SKU-1';
    const planner = createScriptedPlanner({
      goals: {
        [goal]: {
          steps: [{ id: 'stock', tool: 'check_inventory', args: { sku: 'SKU-1' } }],
          submit: { resultFrom: 'stock' },
        },
      },
    });
    const plugin = new RecoveryPlugin({
      tools: supportTools(service.url).all,
      config: { backoff: FAST_BACKOFF, taskQueue },
      searchAttributes: false,
    });
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      plugins: [plugin],
      activities: createPlannerActivities(planner),
    });
    const address = process.env.TEMPORAL_TEST_ADDRESS ?? '';
    const client = require.resolve('./fixtures/start-agent-client');
    const run = promisify(execFile)(
      process.execPath,
      [require.resolve('ts-node/dist/bin'), '-T', client, address, taskQueue, uniqueTaskQueue('agent'), goal],
      { cwd: `${__dirname}/../..` },
    );
    const { stdout } = await worker.runUntil(run);
    const { result, loaded } = JSON.parse(stdout) as { result: AgentResult; loaded: string[] };
    expect(result).toMatchObject({ status: 'submitted', result: { items: [{ id: 'desk-1' }] } });
    expect(service.hits('GET /inventory')).toBe(1);
    expect(loaded.filter((p) => /^(activities|plugin|examples|config)\//.test(p))).toEqual([]);
    expect(loaded).toContain('test/temporal/fixtures/start-agent-client.ts');
  });
});
