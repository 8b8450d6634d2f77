/**
 * The main job: `npm start`. Starts the embedded Temporal dev server if nothing answers at the configured address,
 * the demo's services (support HTTP service, refund/e-mail ledger and calendar on SQLite, the MCP filesystem
 * server), and a worker with the RecoveryPlugin and a planner; runs each support-agent scenario as an
 * `agentWorkflow`, shows its progress, prints the recovery report (one row per tool call) and exits non-zero if
 * any scenario ends other than expected.
 *
 *   npm start -- --report reports/main.json
 *   npm start -- --scenario calendar-race --scenario ./my-scenario.json
 *   npm start -- --planner openai        # a real model: OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import type { Planner } from '../../activities/planners/planner';
import { createOpenAIPlanner } from '../../activities/planners/openai';
import { createScriptedPlanner, fieldPath, ScriptedPolicyError } from '../../activities/planners/scripted';
import { loadConfig } from '../../config/load';
import type { RecoveryConfig } from '../../config/schema';
import { resolveConnection, type ConnectionTarget } from '../../config/connection';
import { builtInScenarios } from './builtin';
import { startDemoFixtures, type DemoFixtures } from './fixtures';
import { printLegend, printScenario, printTable, printTelemetry } from './print';
import { runScenario, type ScenarioReport } from './run';
import { recordingPlanner } from './told';
import { checkScenarios, loadScenarioFile, ScenarioFileError, withPlaceholders, type AgentScenario } from './scenario';
import { RecoveryMetrics } from '../../plugin/metrics';
import { RecoveryPlugin } from '../../plugin/recovery-plugin';
import { summarizeRecords } from '../../recovery/telemetry';
import { ensureEmbeddedServer, type EmbeddedServer } from '../../server/dev-server';

interface Options {
  config?: string;
  report?: string;
  scenario?: string[];
  verbose?: boolean;
  list?: boolean;
  planner: 'scripted' | 'openai';
  metrics?: string;
  metricsPort?: number;
}

async function main(): Promise<number> {
  const opts = parseOptions(process.argv);
  Runtime.install({ logger: new DefaultLogger(opts.verbose ? 'INFO' : 'ERROR') });

  const builtIn = builtInScenarios();
  if (opts.list) {
    for (const { scenario } of builtIn) console.log(`${scenario.name.padEnd(30)} ${scenario.description}`);
    return 0;
  }
  const selected = select(opts.scenario, builtIn);
  const config = loadConfig(opts.config);
  const target = resolveConnection(config);

  // Everything that can refuse the input runs before a server is started (the services, the tool check, the
  // planner): a bad scenario file or a missing OPENAI_* variable fails fast.
  const fixtures = await startDemoFixtures();
  let run: { reports: ScenarioReport[]; telemetryText: string } = { reports: [], telemetryText: '' };
  let server: EmbeddedServer | undefined;
  try {
    const tools = fixtures.tools.map((t) => t.spec.name);
    checkScenarios(selected, tools);
    const scenarios = selected.map(({ scenario }) => ({
      ...scenario,
      script: withPlaceholders(scenario.script, fixtures.folders),
    }));
    const planner: Planner = opts.planner === 'openai' ? createOpenAIPlanner() : scriptedPlanner(scenarios, selected);

    server = target.embedded ? await ensureEmbeddedServer(config.embeddedServer) : undefined;
    const uiUrl = server?.uiUrl ?? (target.embedded ? 'http://127.0.0.1:8233' : undefined);
    console.log(
      server?.started
        ? `Started the embedded Temporal dev server at ${server.address}`
        : `Using the Temporal server at ${target.connectionOptions.address} (namespace ${target.namespace})`,
    );
    if (uiUrl) console.log(`Temporal Web UI: ${uiUrl}/namespaces/${target.namespace}/workflows`);
    run = await runOnWorker({ opts, config, target, fixtures, planner, scenarios, uiUrl });
  } finally {
    await fixtures.close();
    await server?.stop();
  }
  if (server?.started) {
    console.log(
      'The dev server this job started is stopped; `npm run server` serves these runs again (state is kept in the ' +
        "embedded server's database file) and the Web UI links above work while it runs.",
    );
  }
  return finish(opts, run.reports, run.telemetryText);
}

/** The command line (`process.argv`). Exits the process for `--help` and for an option commander refuses. */
function parseOptions(argv: string[]): Options {
  return new Command()
    .name('recovery-router')
    .description('Runs the support-agent scenarios on Temporal and reports how every tool failure was routed.')
    .option('--config <path>', 'temporal.config.json to use')
    .option('--report <path>', 'write the report as JSON to this file')
    .option('--scenario <name-or-file...>', 'run these built-in scenarios (by name) or scenario files (.json)')
    .option('--list', 'list the built-in scenarios and exit')
    .addOption(
      new Option('--planner <kind>', 'who plans: the scenario scripts, or an OpenAI-compatible model (env)')
        .choices(['scripted', 'openai'])
        .default('scripted'),
    )
    .option('--metrics <path>', 'write the Prometheus metrics of the run (text format) to this file')
    .option('--metrics-port <port>', 'serve /metrics on 127.0.0.1:<port> while the scenarios run', (v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0 || n > 65_535) throw new InvalidArgumentError('a port number 0-65535');
      return n;
    })
    .option('--verbose', "show the worker's logs (tool failure diagnostics included)")
    .parse(argv)
    .opts<Options>();
}

/**
 * Connects to `target`, runs every scenario in order on a worker with the RecoveryPlugin, printing each one's
 * progress and end, and closes the connections. Returns the reports and the run's metrics (Prometheus text).
 */
async function runOnWorker(job: {
  opts: Options;
  config: RecoveryConfig;
  target: ConnectionTarget;
  fixtures: DemoFixtures;
  planner: Planner;
  scenarios: AgentScenario[];
  uiUrl: string | undefined;
}): Promise<{ reports: ScenarioReport[]; telemetryText: string }> {
  const { opts, config, target, fixtures, planner, scenarios, uiUrl } = job;
  const nativeConnection = await NativeConnection.connect(target.connectionOptions);
  const connection = await Connection.connect(target.connectionOptions);
  const client = new Client({ connection, namespace: target.namespace });
  // A task queue of its own, so the demo never hands work to (or takes work from) your workers.
  const metrics = new RecoveryMetrics();
  const recorder = recordingPlanner(planner); // what the planner was told, for each scenario's printout
  const plugin = new RecoveryPlugin({
    tools: fixtures.tools,
    planner: recorder.planner,
    config: { ...config, taskQueue: `${config.taskQueue}-main-job` },
    telemetry: metrics,
  });
  const metricsServer = opts.metricsPort !== undefined ? await metrics.serve(opts.metricsPort) : undefined;
  if (metricsServer) console.log(`Prometheus metrics: ${metricsServer.url}`);
  const worker = await Worker.create({
    connection: nativeConnection,
    namespace: target.namespace,
    taskQueue: plugin.config.taskQueue,
    plugins: [plugin],
  });
  const reports: ScenarioReport[] = [];
  await worker.runUntil(async () => {
    for (const [i, scenario] of scenarios.entries()) {
      console.log(
        `\n▶ [${i + 1}/${scenarios.length}] ${scenario.name}${scenario.description ? `: ${scenario.description}` : ''}`,
      );
      const report = await runScenario(scenario, {
        client,
        plugin,
        fixtures,
        searchAttributes: target.embedded,
        toldFor: recorder.toldFor,
        progress: (line) => console.log(`    ${line}`),
      });
      reports.push(report);
      const link =
        uiUrl && `${uiUrl}/namespaces/${target.namespace}/workflows/${encodeURIComponent(report.workflowId)}`;
      printScenario(report, link || undefined);
    }
  });
  const telemetryText = await metrics.text();
  await metricsServer?.close();
  await connection.close();
  await nativeConnection.close();
  return { reports, telemetryText };
}

/** Prints the table and telemetry, writes `--metrics` and `--report`, lists failures. @returns the exit code. */
function finish(opts: Options, reports: ScenarioReport[], telemetryText: string): number {
  printTable(reports);
  printLegend();
  printTelemetry(summarizeRecords(reports.flatMap((r) => r.records)), reports);
  if (opts.metrics) {
    mkdirSync(dirname(opts.metrics), { recursive: true });
    writeFileSync(opts.metrics, telemetryText);
    console.log(`Prometheus metrics written to ${opts.metrics}`);
  }
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

/**
 * The scripted planner for `scenarios` (placeholders filled in; `selected[i]` is where `scenarios[i]` comes from).
 * @throws ScenarioFileError naming the file(s) of the scenario(s) whose goal the ScriptedPolicyError names, or all
 *   of them when it names none.
 */
function scriptedPlanner(
  scenarios: readonly AgentScenario[],
  selected: readonly { scenario: AgentScenario; source: string }[],
): Planner {
  try {
    return createScriptedPlanner({ goals: Object.fromEntries(scenarios.map((s) => [s.goal, s.script])) });
  } catch (err) {
    if (!ScriptedPolicyError.is(err)) throw err;
    // The message starts with `policy: goals["<goal>"]…` (fieldPath) when one goal's script is at fault.
    const named = selected.filter(({ scenario }) => {
      const at = `policy: ${fieldPath(['goals', scenario.goal])}`;
      return err.message.startsWith(at) && /^[.[:]/.test(err.message.slice(at.length));
    });
    const sources = [...new Set((named.length ? named : selected).map((s) => s.source))];
    throw new ScenarioFileError(sources.join(', '), '', `the scripted planner refuses the scenarios: ${err.message}`);
  }
}

/** The scenarios `--scenario` names: built-in names, or paths of scenario files. @throws ScenarioFileError */
function select(
  wanted: string[] | undefined,
  builtIn: { scenario: AgentScenario; source: string }[],
): { scenario: AgentScenario; source: string }[] {
  if (!wanted) return builtIn;
  return wanted.flatMap((w) => {
    const named = builtIn.filter((b) => b.scenario.name === w);
    if (named.length) return named;
    if (w.endsWith('.json') || existsSync(w)) return loadScenarioFile(w).map((scenario) => ({ scenario, source: w }));
    throw new ScenarioFileError(
      w,
      '',
      `no built-in scenario has this name and no such file exists (built-in: ${builtIn.map((b) => b.scenario.name).join(', ')})`,
    );
  });
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(ScenarioFileError.is(err) ? 2 : 1);
  },
);
