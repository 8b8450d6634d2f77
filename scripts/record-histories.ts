/**
 * `npm run record-histories`: runs the main job's scenarios on a fresh ephemeral dev server and writes each
 * workflow's history to test/histories/<scenario>.json, for the replay test (test/temporal/replay.test.ts).
 * Re-record after an intended change of workflow behaviour; never to make a replay failure go away unexamined.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { temporalBinaries } from '../server/binaries';
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
        service.reset(scenario.script);
        scenario.arrange?.({ service, ledger });
        const handle = await env.client.workflow.start('toolPlanWorkflow', {
          taskQueue,
          workflowId: scenario.name,
          args: [{ catalog: plugin.catalog, calls: scenario.calls }],
        });
        await handle.result();
        writeFileSync(join(OUT, `${scenario.name}.json`), `${await fetchHistoryJSON(env.client, scenario.name)}\n`);
        // The reconciliations this run started (child workflows) are histories of their own.
        for await (const child of env.client.workflow.list({ query: `ParentWorkflowId = "${scenario.name}"` })) {
          writeFileSync(
            join(OUT, `${scenario.name}.${child.workflowId.replace(/[^A-Za-z0-9_.-]/g, '_')}.json`),
            `${await fetchHistoryJSON(env.client, child.workflowId)}\n`,
          );
        }
        console.log(`recorded ${scenario.name}`);
      }
    });
  } finally {
    await service.close();
    await ledger.close();
    await env.teardown();
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
