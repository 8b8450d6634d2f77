/**
 * The main job: `npm start`. Starts the embedded Temporal dev server if nothing answers at the configured address,
 * a loopback example service, and a worker with the RecoveryPlugin; runs every scenario as a workflow; prints a
 * recovery table and exits non-zero if any scenario ends other than expected.
 *
 *   npm start -- --report reports/main.json --scenario transient-then-ok
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Command } from 'commander';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { loadConfig } from './config/load';
import { resolveConnection } from './config/connection';
import { ensureEmbeddedServer } from './server/dev-server';
import { startLedgerService } from './examples/ledger-service';
import { ledgerTools } from './examples/ledger-tools';
import { startScriptedService } from './examples/scripted-service';
import { supportTools } from './examples/support-tools';
import { SCENARIOS } from './examples/scenarios';
import { createRecoveryWorker } from './worker';
import type { ToolPlanResult } from './workflows/tool-plan';

interface ScenarioReport {
  name: string;
  expected: string;
  passed: boolean;
  mismatches: string[];
  outcomes: { tool: string; result: string; class?: string; action?: string; attempts: number; activities: number }[];
  records: ToolPlanResult['records'];
}

async function main(): Promise<number> {
  const program = new Command()
    .name('recovery-router')
    .description('Runs the recovery scenarios on Temporal and prints how each failure was routed.')
    .option('--config <path>', 'temporal.config.json to use')
    .option('--report <path>', 'write the report as JSON to this file')
    .option('--verbose', "show the worker's logs (tool failure diagnostics included)")
    .option('--scenario <name...>', `run only these scenarios (${SCENARIOS.map((s) => s.name).join(', ')})`)
    .parse(process.argv);
  const opts = program.opts<{ config?: string; report?: string; scenario?: string[]; verbose?: boolean }>();
  Runtime.install({ logger: new DefaultLogger(opts.verbose ? 'INFO' : 'ERROR') });
  const unknown = (opts.scenario ?? []).filter((n) => !SCENARIOS.some((s) => s.name === n));
  if (unknown.length) throw new Error(`unknown scenario(s): ${unknown.join(', ')}`);
  const scenarios = opts.scenario ? SCENARIOS.filter((s) => opts.scenario!.includes(s.name)) : SCENARIOS;

  const config = loadConfig(opts.config);
  const target = resolveConnection(config);
  const server = target.embedded ? await ensureEmbeddedServer(config.embeddedServer) : undefined;
  console.log(
    server?.started
      ? `Started the embedded Temporal dev server at ${server.address}; Web UI: ${server.uiUrl}`
      : `Using the Temporal server at ${target.connectionOptions.address} (namespace ${target.namespace})`,
  );
  const service = await startScriptedService({});
  const ledger = await startLedgerService(); // in-memory SQLite
  const reports: ScenarioReport[] = [];
  try {
    const nativeConnection = await NativeConnection.connect(target.connectionOptions);
    const connection = await Connection.connect(target.connectionOptions);
    const client = new Client({ connection, namespace: target.namespace });
    const { worker, plugin } = await createRecoveryWorker(
      // A task queue of its own, so the demo never hands work to (or takes work from) your workers.
      {
        tools: [...supportTools(service.url).all, ...ledgerTools(ledger.url).all],
        config: { ...config, taskQueue: `${config.taskQueue}-main-job` },
      },
      nativeConnection,
      target.namespace,
    );
    await worker.runUntil(async () => {
      for (const scenario of scenarios) {
        service.reset(scenario.script);
        scenario.arrange?.({ service, ledger });
        process.stdout.write(`▶ ${scenario.name}: ${scenario.description}\n`);
        const result = (await client.workflow.execute('toolPlanWorkflow', {
          taskQueue: plugin.config.taskQueue,
          workflowId: `main-${scenario.name}-${Date.now()}`,
          args: [{ ...plugin.workflowDefaults(), calls: scenario.calls }],
        })) as ToolPlanResult;
        const mismatches = scenario.check(result, { service, ledger });
        reports.push({
          name: scenario.name,
          expected: scenario.expected,
          passed: mismatches.length === 0,
          mismatches,
          outcomes: result.outcomes.map((o) =>
            o.ok
              ? {
                  tool: o.tool,
                  result: o.reconciled ? `ok (${o.reconciled})` : o.empty ? 'ok (empty)' : 'ok',
                  attempts: o.attempts,
                  activities: o.activities,
                }
              : {
                  tool: o.tool,
                  result: o.refused ? 'refused' : 'failed',
                  class: o.failure.class,
                  action: o.action,
                  attempts: o.attempts,
                  activities: o.activities,
                },
          ),
          records: result.records,
        });
      }
    });
    await connection.close();
    await nativeConnection.close();
  } finally {
    await service.close();
    await ledger.close();
    await server?.stop();
  }

  printTable(reports);
  if (opts.report) {
    mkdirSync(dirname(opts.report), { recursive: true });
    writeFileSync(opts.report, `${JSON.stringify(reports, null, 2)}\n`);
    console.log(`Report written to ${opts.report}`);
  }
  const failed = reports.filter((r) => !r.passed);
  for (const r of failed) console.log(`✗ ${r.name}: ${r.mismatches.join('; ')}`);
  console.log(`${reports.length - failed.length} passed, ${failed.length} failed`);
  return failed.length === 0 ? 0 : 1;
}

function printTable(reports: ScenarioReport[]): void {
  const rows = reports.flatMap((r) =>
    r.outcomes.map((o, i) => [
      i === 0 ? r.name : '',
      o.tool,
      o.result,
      o.class ?? '',
      o.action ?? '',
      String(o.attempts),
      String(o.activities),
      i === 0 ? (r.passed ? 'as expected' : 'UNEXPECTED') : '',
    ]),
  );
  const header = ['scenario', 'tool', 'result', 'class', 'action', 'attempts', 'activities', 'verdict'];
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((row) => row[c]!.length)));
  const line = (cells: string[]) => cells.map((cell, c) => cell.padEnd(widths[c]!)).join('  ');
  console.log(`\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const row of rows) console.log(line(row));
  console.log('');
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
