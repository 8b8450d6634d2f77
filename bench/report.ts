/** The benchmark's result: per-arm statistics, the subject/baseline ratios, the table and the JSON file. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname } from 'node:path';
import { ArmName } from './arms';
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

export interface ScenarioReport {
  name: string;
  description: string;
  arms: Record<ArmName, ArmReport>;
  /** subject / baseline of the medians; null when the baseline's median is 0. */
  ratio: { latencyMedian: number | null; cpuMedian: number | null; historyBytesMedian: number | null };
  history: { passed: boolean; problems: string[] };
}

export interface BenchReport {
  benchmark: 'happy-path';
  date: string;
  machine: { node: string; platform: string; arch: string; cpus: number; cpuModel: string; totalMemoryMb: number };
  temporalCli: { path: string; version: string };
  runs: number;
  warmup: number;
  method: Record<string, string>;
  scenarios: ScenarioReport[];
  passed: boolean;
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
  const baseline = armReport(samples[ArmName.BASELINE]);
  const subject = armReport(samples[ArmName.SUBJECT]);
  const problems = historyProblems(baseline.sequences, subject.sequences);
  const r = (s: number, b: number) => {
    const x = ratio(s, b);
    return x === null ? null : round(x, 3);
  };
  return {
    name: scenario.name,
    description: scenario.description,
    arms: { baseline, subject },
    ratio: {
      latencyMedian: r(subject.latencyMs.median, baseline.latencyMs.median),
      cpuMedian: r(subject.cpuMs.median, baseline.cpuMs.median),
      historyBytesMedian: r(subject.historyBytes.median, baseline.historyBytes.median),
    },
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
  ratio: (s: ScenarioReport) => string;
}

const n = (x: number | null) => (x === null ? '—' : x.toFixed(2));
const times = (x: number | null) => `×${n(x)}`;
const medianRatio = (s: ScenarioReport, pick: (a: ArmReport) => Summary) =>
  times(ratio(pick(s.arms.subject).median, pick(s.arms.baseline).median));

const MAIN_COLUMNS: readonly Column[] = [
  {
    title: 'events',
    arm: (a) => String(a.events),
    ratio: (s) => (s.arms.subject.events === s.arms.baseline.events ? '=' : '≠'),
  },
  { title: 'latency median ms', arm: (a) => n(a.latencyMs.median), ratio: (s) => times(s.ratio.latencyMedian) },
  { title: 'latency p90 ms', arm: (a) => n(a.latencyMs.p90), ratio: () => '' },
  { title: 'cpu median ms', arm: (a) => n(a.cpuMs.median), ratio: (s) => times(s.ratio.cpuMedian) },
  { title: 'cpu p90 ms', arm: (a) => n(a.cpuMs.p90), ratio: () => '' },
  {
    title: 'history bytes',
    arm: (a) => String(a.historyBytes.median),
    ratio: (s) => times(s.ratio.historyBytesMedian),
  },
];

const PHASE_COLUMNS: readonly Column[] = PHASES.map(({ name, title }) => ({
  title,
  arm: (a) => n(a.phasesMs[name].median),
  ratio: (s) => medianRatio(s, (a) => a.phasesMs[name]),
}));

/** One row per arm and one ratio row per scenario, aligned. */
function table(scenarios: readonly ScenarioReport[], columns: readonly Column[]): string[] {
  const rows: string[][] = [['scenario', 'arm', ...columns.map((c) => c.title)]];
  for (const s of scenarios) {
    for (const name of [ArmName.BASELINE, ArmName.SUBJECT])
      rows.push([s.name, name, ...columns.map((c) => c.arm(s.arms[name]))]);
    rows.push([s.name, 'subject/baseline', ...columns.map((c) => c.ratio(s))]);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => r.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(rows[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)];
}

/** The printed report: the main table, where the time went, then the history verdicts. */
export function formatTable(report: BenchReport): string {
  const m = report.machine;
  const out = [
    `Happy-path overhead: ${report.runs} runs per arm after ${report.warmup} warm-up, interleaved ABAB; ` +
      `node ${m.node}, ${m.cpus} × ${m.cpuModel}; temporal ${report.temporalCli.version}`,
    '',
    ...table(report.scenarios, MAIN_COLUMNS),
    '',
    'Medians; subject/baseline = ratio of medians. cpu = process.cpuUsage() user+system over start→result: both',
    'workers, the client and the service (one process). history bytes = the encoded history, payloads included.',
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
        ? `${s.name}: history OK: subject ${s.arms.subject.events} events = baseline ${b.events}, same kinds [${b.eventTypes.join(', ')}]`
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
  return { median: round(s.median, 3), p90: round(s.p90, 3), min: round(s.min, 3), max: round(s.max, 3) };
}
