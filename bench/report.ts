/** The benchmark's result: per-arm statistics, the subject/baseline ratios, the table and the JSON file. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname } from 'node:path';
import { ARM_NAMES, ArmName } from './arms';
import { distinctSequences, historyProblems, type Phases, type SequenceCount } from './events';
import type { Sample } from './measure';
import type { Scenario } from './scenarios';
import { ratio, round, summarize, type Summary } from './stats';

type PhaseName = keyof Phases;
const PHASES: readonly { name: PhaseName; title: string }[] = [
  { name: 'firstWorkflowTaskMs', title: 'first workflow task ms' },
  { name: 'activityMs', title: 'activity ms' },
  { name: 'lastWorkflowTaskMs', title: 'last workflow task ms' },
];

export interface ArmReport {
  latencyMs: Summary;
  cpuMs: Summary;
  /** Events of the most frequent history. */
  events: number;
  /** Event types of the most frequent history, in order. */
  eventTypes: string[];
  /** Every distinct history, most frequent first (one, when runs are alike). */
  sequences: SequenceCount[];
  /** Encoded history size, bytes (payloads included). */
  historyBytes: Summary;
  /** Where the time went (server timestamps), ms. */
  phasesMs: Record<PhaseName, Summary>;
  samples: { latencyMs: number[]; cpuMs: number[] };
}

/** An arm against the baseline: ratios of medians (p95 for `latencyP95`); null when the baseline's is 0. */
export interface ArmRatios {
  latencyMedian: number | null;
  latencyP95: number | null;
  cpuMedian: number | null;
  historyBytesMedian: number | null;
  firstWorkflowTaskMedian: number | null;
}

export interface ScenarioReport {
  name: string;
  description: string;
  arms: Record<ArmName, ArmReport>;
  /** Each arm / baseline. */
  ratios: Record<ArmName, ArmRatios>;
  /** The plugin's arms (`subject`, `unpreloaded`) hold no more history than the baseline's, kind for kind. */
  history: { passed: boolean; problems: string[] };
}

export interface BenchReport {
  benchmark: 'overhead';
  date: string;
  machine: { node: string; platform: string; arch: string; cpus: number; cpuModel: string; totalMemoryMb: number };
  temporalCli: { path: string; version: string };
  runs: number;
  warmup: number;
  method: Record<string, string>;
  scenarios: ScenarioReport[];
  passed: boolean;
  summary: OverheadSummary;
}

/** The figures, the plugin as shipped against bare on the happy path (ratios of medians; p95 for p95). */
export interface OverheadSummary {
  p50Ratio: number | null;
  p95Ratio: number | null;
  cpuRatio: number | null;
  /** Medians, ms: bare, plugin (preloaded), and the two intermediate arms. */
  firstWorkflowTaskMs: { bare: number; plugin: number; bareImports: number; pluginUnpreloaded: number };
  eventsPerCallRatio: number;
  /** classify + gate + route in this process, µs per call. */
  coreMicrosPerCall: number;
}

export function armReport(samples: readonly Sample[]): ArmReport {
  const latencyMs = samples.map((s) => round(s.latencyMs, 3));
  const cpuMs = samples.map((s) => round(s.cpuMs, 3));
  const sequences = distinctSequences(samples.map((s) => s.eventTypes));
  return {
    latencyMs: roundSummary(summarize(latencyMs)),
    cpuMs: roundSummary(summarize(cpuMs)),
    events: sequences[0]?.count ?? 0,
    eventTypes: sequences[0]?.types ?? [],
    sequences,
    historyBytes: summarize(samples.map((s) => s.historyBytes)),
    phasesMs: {
      firstWorkflowTaskMs: roundSummary(summarize(samples.map((s) => s.phases.firstWorkflowTaskMs))),
      activityMs: roundSummary(summarize(samples.map((s) => s.phases.activityMs))),
      lastWorkflowTaskMs: roundSummary(summarize(samples.map((s) => s.phases.lastWorkflowTaskMs))),
    },
    samples: { latencyMs, cpuMs },
  };
}

export function scenarioReport(scenario: Scenario, samples: Record<ArmName, readonly Sample[]>): ScenarioReport {
  const arms = Object.fromEntries(ARM_NAMES.map((a) => [a, armReport(samples[a])])) as Record<ArmName, ArmReport>;
  const baseline = arms[ArmName.BASELINE];
  const r = (s: number, b: number) => {
    const x = ratio(s, b);
    return x === null ? null : round(x, 3);
  };
  const ratios = Object.fromEntries(
    ARM_NAMES.map((a): [ArmName, ArmRatios] => [
      a,
      {
        latencyMedian: r(arms[a].latencyMs.median, baseline.latencyMs.median),
        latencyP95: r(arms[a].latencyMs.p95, baseline.latencyMs.p95),
        cpuMedian: r(arms[a].cpuMs.median, baseline.cpuMs.median),
        historyBytesMedian: r(arms[a].historyBytes.median, baseline.historyBytes.median),
        firstWorkflowTaskMedian: r(
          arms[a].phasesMs.firstWorkflowTaskMs.median,
          baseline.phasesMs.firstWorkflowTaskMs.median,
        ),
      },
    ]),
  ) as Record<ArmName, ArmRatios>;
  const problems = [ArmName.UNPRELOADED, ArmName.SUBJECT].flatMap((a) =>
    historyProblems(baseline.sequences, arms[a].sequences).map((p) => `${a}: ${p}`),
  );
  return {
    name: scenario.name,
    description: scenario.description,
    arms,
    ratios,
    history: { passed: problems.length === 0, problems },
  };
}

export function machineFacts(): BenchReport['machine'] {
  const all = cpus();
  return {
    node: process.version,
    platform: process.platform,
    arch: process.arch,
    cpus: all.length,
    cpuModel: all[0]?.model.trim() ?? 'unknown',
    totalMemoryMb: Math.round(totalmem() / 2 ** 20),
  };
}

interface Column {
  title: string;
  arm: (a: ArmReport) => string;
  ratio: (s: ScenarioReport, arm: ArmName) => string;
}

const n = (x: number | null) => (x === null ? '—' : x.toFixed(2));
const times = (x: number | null) => `×${n(x)}`;
const medianRatio = (s: ScenarioReport, arm: ArmName, pick: (a: ArmReport) => Summary) =>
  times(ratio(pick(s.arms[arm]).median, pick(s.arms.baseline).median));

const MAIN_COLUMNS: readonly Column[] = [
  {
    title: 'events',
    arm: (a) => String(a.events),
    ratio: (s, arm) => (s.arms[arm].events === s.arms.baseline.events ? '=' : '≠'),
  },
  {
    title: 'latency median ms',
    arm: (a) => n(a.latencyMs.median),
    ratio: (s, arm) => times(s.ratios[arm].latencyMedian),
  },
  { title: 'latency p95 ms', arm: (a) => n(a.latencyMs.p95), ratio: (s, arm) => times(s.ratios[arm].latencyP95) },
  { title: 'cpu median ms', arm: (a) => n(a.cpuMs.median), ratio: (s, arm) => times(s.ratios[arm].cpuMedian) },
  {
    title: 'history bytes',
    arm: (a) => String(a.historyBytes.median),
    ratio: (s, arm) => times(s.ratios[arm].historyBytesMedian),
  },
];

const PHASE_COLUMNS: readonly Column[] = PHASES.map(({ name, title }) => ({
  title,
  arm: (a) => n(a.phasesMs[name].median),
  ratio: (s, arm) => medianRatio(s, arm, (a) => a.phasesMs[name]),
}));

/** One row per arm and one ratio row per scenario, aligned. */
function table(scenarios: readonly ScenarioReport[], columns: readonly Column[]): string[] {
  const rows: string[][] = [['scenario', 'arm', ...columns.map((c) => c.title)]];
  for (const s of scenarios) {
    for (const name of ARM_NAMES) rows.push([s.name, name, ...columns.map((c) => c.arm(s.arms[name]))]);
    for (const name of ARM_NAMES.filter((a) => a !== ArmName.BASELINE))
      rows.push([s.name, `${name}/baseline`, ...columns.map((c) => c.ratio(s, name))]);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => r.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(rows[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)];
}

/** The printed report: the main table, where the time went, then the history verdicts. */
export function formatTable(report: BenchReport): string {
  const m = report.machine;
  const out = [
    `Overhead: ${report.runs} runs per arm after ${report.warmup} warm-up, interleaved ABCD; ` +
      `node ${m.node}, ${m.cpus} × ${m.cpuModel}; temporal ${report.temporalCli.version}`,
    '',
    ...table(report.scenarios, MAIN_COLUMNS),
    '',
    'Arms: baseline = bare activity; imports = bare + the router modules (not preloaded); unpreloaded = the plugin',
    'without preloading; subject = the plugin as shipped (preloaded). <arm>/baseline = ratio of medians (p95s).',
    'cpu = process.cpuUsage() user+system over start→result: the workers, the client and the service (one process).',
    '',
    "Where the time goes (medians of the server's event timestamps, started → completed):",
    '',
    ...table(report.scenarios, PHASE_COLUMNS),
    '',
  ];
  for (const s of report.scenarios) {
    const b = s.arms.baseline;
    out.push(
      s.history.passed
        ? `${s.name}: history OK: plugin ${s.arms.subject.events} events = baseline ${b.events}, same kinds [${b.eventTypes.join(', ')}]`
        : `${s.name}: history FAILED: ${s.history.problems.join('; ')}`,
    );
  }
  return out.join('\n');
}

export function writeReport(path: string, report: BenchReport): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(report, null, 2)}\n`);
}

function roundSummary(s: Summary): Summary {
  return {
    median: round(s.median, 3),
    p90: round(s.p90, 3),
    p95: round(s.p95, 3),
    min: round(s.min, 3),
    max: round(s.max, 3),
  };
}
