/**
 * The happy path's await structure (docs/DESIGN.md, "Performance"): Temporal's workflow VM captures and source-maps
 * a stack for every promise workflow code creates, so the router adds as few as it can. Counted as
 * `npm run bench -- --only promises` counts them (bench/promises.ts: debug-mode workers, a promise hook on the
 * workflow VMs' promises), from the TypeScript sources: a `toolPlanWorkflow` run and an agent run (plan, one call,
 * submit) each create exactly 2 more than their bare baselines — `callTool`'s own result and its `await` of
 * `invokeTool` — in the usual run (each run is counted once the worker is quiet after it, but under load a finished
 * run's eviction can still land in the next one's count), and leave the same number of history events, but for the
 * agent's patch marker. The code
 * before the change this guards made an agent run create 10 more.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import type { Server } from 'node:http';
import { countWorkloads } from '../../bench/promises';
import { inventoryServer } from '../../bench/scale/workloads';
import { workflowBundle } from './harness';
import { testEnv } from '../setup/env';

let env: TestWorkflowEnvironment;
let inventory: { url: string; server: Server };
beforeAll(async () => {
  env = await testEnv();
  inventory = await inventoryServer();
});
afterAll(async () => {
  inventory?.server.close();
  await env?.teardown();
});

test('each workflow creates 2 promises per run beyond its bare baseline, with the same history events (the agent: + its patch marker)', async () => {
  const [bare, plugin] = await Promise.all([
    bundleWorkflowCode({ workflowsPath: require.resolve('../../bench/workflows'), logger: new DefaultLogger('ERROR') }),
    workflowBundle(),
  ]);
  const counts = await countWorkloads(env, inventory.url, { bare, plugin }, { runs: 6, warmup: 2 });
  const usual = (w: keyof typeof counts) => mode(counts[w].promisesByRun);

  expect(usual('toolPlanWorkflow') - usual('bareActivityWorkflow')).toBe(2);
  expect(usual('agentWorkflow') - usual('bareAgentWorkflow')).toBe(2);
  expect(counts.toolPlanWorkflow.history.events).toBe(11);
  expect(counts.bareActivityWorkflow.history.events).toBe(11);
  // The agent's one patch (its planner input names the capabilities: patched('recovery-router:planner-capability-
  // names')) costs its run 2 events, a MarkerRecorded and the SDK's upsert of TemporalChangeVersion.
  expect(counts.agentWorkflow.history.events).toBe(counts.bareAgentWorkflow.history.events + 2);
});

/** The most frequent value (the smallest of those tied). */
function mode(values: readonly number[]): number {
  const seen = new Map<number, number>();
  for (const v of values) seen.set(v, (seen.get(v) ?? 0) + 1);
  const [best] = [...seen].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  if (!best) throw new Error('no runs were counted');
  return best[0];
}
