/**
 * `npm run record-histories [-- --force]`: runs the demo runs on a fresh ephemeral dev server and writes each
 * workflow's history to test/histories/, for the replay test (test/temporal/replay.test.ts):
 * - the tool-plan scenarios (examples/scenarios.ts) as `<scenario>.json`;
 * - the main job's agent scenarios (examples/agent-demo/scenarios) as `agent-<scenario>.json`;
 * - the reconciliations they started (child workflows) as `<parent>.<child id>.json`.
 * A history already on disk is kept (it was recorded by older workflow code: replaying it is the point) unless
 * `--force` is given. Re-record after an intended change of workflow behaviour; never to make a replay failure go
 * away unexamined.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import type { Client } from '@temporalio/client';
import { createPlannerActivities } from '../activities/planners/planner';
import { createScriptedPlanner } from '../activities/planners/scripted';
import { builtInScenarios } from '../examples/agent-demo/builtin';
import { startDemoFixtures } from '../examples/agent-demo/fixtures';
import { runScenario } from '../examples/agent-demo/run';
import { withPlaceholders } from '../examples/agent-demo/scenario';
import { join, resolve } from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime, Worker, type NativeConnection } from '@temporalio/worker';
import { temporalBinaries } from './temporal-binaries';
import { SEARCH_ATTRIBUTES } from '../workflows/search-attributes';
import { RecoveryPlugin } from '../plugin/recovery-plugin';
import { fetchHistoryJSON } from '../plugin/replay';
import { startLedgerService } from '../examples/ledger-service';
import { ledgerTools } from '../examples/ledger-tools';
import { startScriptedService } from '../examples/scripted-service';
import { supportTools } from '../examples/support-tools';
import { SCENARIOS } from '../examples/scenarios';

const OUT = resolve(__dirname, '..', 'test', 'histories');

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: temporalBinaries().cli },
      searchAttributes: [...SEARCH_ATTRIBUTES],
    },
  });
  const service = await startScriptedService({});
  const ledger = await startLedgerService();
  try {
    const taskQueue = 'record-histories';
    const plugin = new RecoveryPlugin({
      tools: [...supportTools(service.url).all, ...ledgerTools(ledger.url).all],
      config: { taskQueue },
    });
    const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, plugins: [plugin] });
    mkdirSync(OUT, { recursive: true });
    await worker.runUntil(async () => {
      for (const scenario of SCENARIOS) {
        if (!FORCE && existsSync(join(OUT, `${scenario.name}.json`))) continue;
        service.reset(scenario.script);
        scenario.arrange?.({ service, ledger });
        const handle = await env.client.workflow.start('toolPlanWorkflow', {
          taskQueue,
          workflowId: scenario.name,
          args: [{ catalog: plugin.catalog, calls: scenario.calls }],
        });
        await handle.result();
        await save(env.client, scenario.name);
      }
    });
    await recordAgentScenarios(env.client, env.nativeConnection);
  } finally {
    await service.close();
    await ledger.close();
    await env.teardown();
  }
}

const FORCE = process.argv.includes('--force');

/** Writes a workflow's history, and its child reconciliations', to test/histories. */
async function save(client: Client, workflowId: string): Promise<void> {
  writeFileSync(join(OUT, `${workflowId}.json`), `${await fetchHistoryJSON(client, workflowId)}\n`);
  for await (const child of client.workflow.list({ query: `ParentWorkflowId = "${workflowId}"` })) {
    writeFileSync(
      join(OUT, `${workflowId}.${child.workflowId.replace(/[^A-Za-z0-9_.-]/g, '_')}.json`),
      `${await fetchHistoryJSON(client, child.workflowId)}\n`,
    );
  }
  console.log(`recorded ${workflowId}`);
}

/** The main job's agent scenarios, as `agent-<name>`, with the scripted planner on the demo services. */
async function recordAgentScenarios(client: Client, connection: NativeConnection): Promise<void> {
  const fixtures = await startDemoFixtures();
  try {
    const scenarios = builtInScenarios()
      .map(({ scenario }) => ({ ...scenario, script: withPlaceholders(scenario.script, fixtures.folders) }))
      .filter((s) => FORCE || !existsSync(join(OUT, `agent-${s.name}.json`)));
    const taskQueue = 'record-agent-histories';
    const plugin = new RecoveryPlugin({ tools: fixtures.tools, config: { taskQueue } });
    const worker = await Worker.create({
      connection,
      taskQueue,
      plugins: [plugin],
      activities: createPlannerActivities(
        createScriptedPlanner({ goals: Object.fromEntries(scenarios.map((s) => [s.goal, s.script])) }),
      ),
    });
    await worker.runUntil(async () => {
      for (const scenario of scenarios) {
        const report = await runScenario(scenario, { client, plugin, fixtures, idPrefix: 'agent', stableIds: true });
        if (!report.passed)
          throw new Error(`${scenario.name} did not end as expected: ${report.mismatches.join('; ')}`);
        await save(client, report.workflowId);
      }
    });
  } finally {
    await fixtures.close();
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
