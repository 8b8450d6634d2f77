/**
 * `npm run example:traces [-- --otlp http://127.0.0.1:4318/v1/traces] [--out bench/results/traces.json]`: the main
 * job's agent scenarios (examples/agent-demo/scenarios) on a fresh dev server, traced: Temporal's OpenTelemetry plugin
 * and the RecoveryPlugin's spans into an in-memory exporter (./otel-setup.ts) and, with `--otlp`, to a collector
 * over OTLP/HTTP. Writes one object per finished span (./span-rows.ts) and prints one scenario's trace as a tree.
 * Exits 1 when a scenario does not end as expected.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Command } from 'commander';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { createPlannerActivities } from '../../activities/planners/planner';
import { createScriptedPlanner } from '../../activities/planners/scripted';
import { RecoveryPlugin } from '../../plugin/recovery-plugin';
import { temporalBinaries } from '../../scripts/temporal-binaries';
import { SEARCH_ATTRIBUTES } from '../../workflows/search-attributes';
import { builtInScenarios } from '../agent-demo/builtin';
import { startDemoFixtures } from '../agent-demo/fixtures';
import { runScenario, type ScenarioReport } from '../agent-demo/run';
import { withPlaceholders } from '../agent-demo/scenario';
import { startTracing } from './otel-setup';
import { spanRows, treeText, type SpanRow } from './span-rows';

const DEFAULT_OUT = join(__dirname, '..', '..', 'bench', 'results', 'traces.json');
/** The scenario whose trace is printed: a refund whose answer was lost, reconciled by lookup. */
const SHOWN = 'refund-lost-answer';

async function main(): Promise<number> {
  const o = new Command()
    .option('--otlp <url>', 'also export to an OTLP/HTTP collector, e.g. http://127.0.0.1:4318/v1/traces')
    .option('--out <path>', 'where to write the spans', DEFAULT_OUT)
    .parse(process.argv)
    .opts<{ otlp?: string; out: string }>();
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const tracing = startTracing({ serviceName: 'recovery-router-example', ...(o.otlp ? { otlpUrl: o.otlp } : {}) });
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: temporalBinaries().cli },
      searchAttributes: [...SEARCH_ATTRIBUTES],
    },
  });
  const fixtures = await startDemoFixtures();
  const reports: ScenarioReport[] = [];
  let rows: SpanRow[] = [];
  try {
    const scenarios = builtInScenarios().map(({ scenario }) => ({
      ...scenario,
      script: withPlaceholders(scenario.script, fixtures.folders),
    }));
    const taskQueue = 'example-traces';
    const plugin = new RecoveryPlugin({ tools: fixtures.tools, config: { taskQueue } });
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      plugins: [tracing.temporalPlugin, plugin],
      activities: createPlannerActivities(
        createScriptedPlanner({ goals: Object.fromEntries(scenarios.map((s) => [s.goal, s.script])) }),
      ),
    });
    await worker.runUntil(async () => {
      for (const scenario of scenarios) {
        const report = await runScenario(scenario, { client: env.client, plugin, fixtures, idPrefix: 'traces' });
        console.log(`${report.passed ? '✓' : '✗'} ${scenario.name}: ${report.actual.actions.join(', ')}`);
        reports.push(report);
      }
    });
    await tracing.flush();
    rows = spanRows(tracing.memory.getFinishedSpans()); // before shutdown, which empties the in-memory exporter
  } finally {
    await fixtures.close();
    await env.teardown();
    await tracing.shutdown();
  }
  return write(o.out, rows, reports);
}

function write(out: string, rows: SpanRow[], reports: ScenarioReport[]): number {
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(rows, null, 2)}\n`);
  const shown = reports.find((r) => r.name === SHOWN);
  const root = rows.find(
    (r) => r.name === 'RunWorkflow:agentWorkflow' && r.attributes.workflowId === shown?.workflowId,
  );
  if (root) console.log(`\nThe trace of ${SHOWN}:\n\n${treeText(rows.filter((r) => r.traceId === root.traceId))}`);
  const ours = rows.filter((r) => /^(execute_tool|recover|replan|reconcile|apply_guardrail|retry_wait) /.test(r.name));
  console.log(
    `\n${rows.length} spans (${ours.length} of the router's) in ${new Set(rows.map((r) => r.traceId)).size} traces; wrote ${out}`,
  );
  return reports.every((r) => r.passed) ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(err);
    process.exitCode = 2;
  },
);
