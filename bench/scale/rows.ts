/**
 * The scale benchmark's rows and table (bench/scale.ts), pure so they can be tested. Each subject is held to its
 * own baseline at the same N: `toolPlanWorkflow` (one router call) to `bareActivityWorkflow` (one plain activity),
 * `agentWorkflow` (planner → router call → planner → submit) to `bareAgentWorkflow` (the same loop, plain
 * activities). Agent rows also keep the ratio against the one-activity workflow that earlier runs reported.
 *
 * The throughput ratio of a row with repeats is the geometric mean of the repeats' own ratios, not the ratio of the
 * medians: bench/scale.ts runs each pair in alternating order (AB, BA, …), so over an even number of repeats each
 * side of a pair runs first as often as second, and a machine or server that slows down steadily over the run (the
 * dev server's CPU per run grows with the runs it holds) moves one repeat's ratio up as much as the next one's down.
 */
import { alignedTable } from '../table';
import { summarize } from '../stats';

/** The workflows the scale benchmark measures. */
export type Workload = 'bareActivityWorkflow' | 'bareAgentWorkflow' | 'toolPlanWorkflow' | 'agentWorkflow';
export type Subject = 'toolPlanWorkflow' | 'agentWorkflow';
export type Baseline = 'bareActivityWorkflow' | 'bareAgentWorkflow';

/** Each subject's baseline. */
export const BASELINE_OF: Readonly<Record<Subject, Baseline>> = {
  toolPlanWorkflow: 'bareActivityWorkflow',
  agentWorkflow: 'bareAgentWorkflow',
};

/** One arm at one N. */
export interface Measured {
  runsPerSec: number;
  /** End to end (client start → result), in ms. */
  p95Ms: number;
  /** The worker's RSS over the run, sampled every 100 ms, in MiB: the highest sample and the mean of all. */
  peakRssMiB: number;
  meanRssMiB: number;
  /** Worker process CPU (user + system) per run, in ms. */
  cpuMsPerCall: number;
  /** The Temporal dev server's CPU (user + system) per run while this arm ran, in ms; absent where not readable. */
  serverCpuMsPerCall?: number;
}

/** One row of bench/results/scale.json; the `bare*` fields are the row's `baseline`. */
export interface ScaleRow {
  n: number;
  workflow: Subject;
  baseline: Baseline;
  runsPerSec: number;
  bareRunsPerSec: number;
  /** runs/s against the baseline's. */
  throughputRatio: number;
  /** runs/s against `bareActivityWorkflow`'s (what `throughputRatio` was before the agent had its own baseline). */
  throughputRatioVsOneActivity: number;
  p95Ms: number;
  bareP95Ms: number;
  /** Peak RSS, MiB, ours and the baseline's, and their ratio. */
  rssMiB: number;
  bareRssMiB: number;
  rssRatio: number;
  /** Mean RSS over the run, MiB (a steadier figure than the peak, which one GC's timing moves), and the ratio. */
  rssMeanMiB: number;
  bareRssMeanMiB: number;
  rssMeanRatio: number;
  cpuMsPerCall: number;
  bareCpuMsPerCall: number;
  cpuRatio: number;
  /** The dev server's CPU per run, ms (bench/scale/process-cpu.ts), ours and the baseline's; absent off Linux. */
  serverCpuMsPerCall?: number;
  bareServerCpuMsPerCall?: number;
  /**
   * How many times each arm ran at this N (interleaved); every figure above is a median over them, except
   * `throughputRatio`: the geometric mean of `throughputRatios` (see the module's comment).
   */
  repeats: number;
  /** `runsPerSec / bareRunsPerSec` of each repeat, in order. */
  throughputRatios: number[];
}

const r2 = (x: number) => Math.round(x * 100) / 100;

/** Every arm's runs at one N, one `Measured` per repeat (the same count for every arm, at least one). */
export type Repeats = Readonly<Record<Workload, readonly Measured[]>>;

const median = (values: readonly number[]): number => summarize(values).median;

/** Each metric's median over one arm's repeats. @throws RangeError when `samples` is empty. */
export function medianMeasured(samples: readonly Measured[]): Measured {
  if (samples.length === 0) throw new RangeError('medianMeasured: no samples');
  const server = samples.map((s) => s.serverCpuMsPerCall).filter((x): x is number => x !== undefined);
  return {
    runsPerSec: median(samples.map((s) => s.runsPerSec)),
    p95Ms: median(samples.map((s) => s.p95Ms)),
    peakRssMiB: median(samples.map((s) => s.peakRssMiB)),
    meanRssMiB: median(samples.map((s) => s.meanRssMiB)),
    cpuMsPerCall: median(samples.map((s) => s.cpuMsPerCall)),
    ...(server.length === samples.length ? { serverCpuMsPerCall: median(server) } : {}),
  };
}

/** The geometric mean of positive ratios (the mean of their logs, back). @throws RangeError when `ratios` is empty. */
export function geometricMean(ratios: readonly number[]): number {
  if (ratios.length === 0) throw new RangeError('geometricMean: no ratios');
  return Math.exp(ratios.reduce((sum, r) => sum + Math.log(r), 0) / ratios.length);
}

/**
 * The row of `workflow` at `n` from every arm's repeats: medians, the throughput ratio of each repeat, and their
 * geometric mean as the row's `throughputRatio`.
 */
export function scaleRowOf(n: number, workflow: Subject, repeats: Repeats): ScaleRow {
  const medians = Object.fromEntries(
    Object.entries(repeats).map(([w, samples]) => [w, medianMeasured(samples)]),
  ) as Record<Workload, Measured>;
  const subject = repeats[workflow];
  const base = repeats[BASELINE_OF[workflow]];
  const ratios = subject.map((s, i) => s.runsPerSec / base[i]!.runsPerSec);
  return {
    ...scaleRow(n, workflow, medians),
    throughputRatio: r2(geometricMean(ratios)),
    repeats: subject.length,
    throughputRatios: ratios.map(r2),
  };
}

/** The row of `workflow` at `n`, from every arm measured once at that N. */
export function scaleRow(n: number, workflow: Subject, measured: Readonly<Record<Workload, Measured>>): ScaleRow {
  const baseline = BASELINE_OF[workflow];
  const s = measured[workflow];
  const b = measured[baseline];
  return {
    n,
    workflow,
    baseline,
    runsPerSec: r2(s.runsPerSec),
    bareRunsPerSec: r2(b.runsPerSec),
    throughputRatio: r2(s.runsPerSec / b.runsPerSec),
    throughputRatioVsOneActivity: r2(s.runsPerSec / measured.bareActivityWorkflow.runsPerSec),
    p95Ms: r2(s.p95Ms),
    bareP95Ms: r2(b.p95Ms),
    rssMiB: r2(s.peakRssMiB),
    bareRssMiB: r2(b.peakRssMiB),
    rssRatio: r2(s.peakRssMiB / b.peakRssMiB),
    rssMeanMiB: r2(s.meanRssMiB),
    bareRssMeanMiB: r2(b.meanRssMiB),
    rssMeanRatio: r2(s.meanRssMiB / b.meanRssMiB),
    cpuMsPerCall: r2(s.cpuMsPerCall),
    bareCpuMsPerCall: r2(b.cpuMsPerCall),
    cpuRatio: r2(s.cpuMsPerCall / b.cpuMsPerCall),
    ...(s.serverCpuMsPerCall === undefined ? {} : { serverCpuMsPerCall: r2(s.serverCpuMsPerCall) }),
    ...(b.serverCpuMsPerCall === undefined ? {} : { bareServerCpuMsPerCall: r2(b.serverCpuMsPerCall) }),
    repeats: 1,
    throughputRatios: [r2(s.runsPerSec / b.runsPerSec)],
  };
}

export function formatScale(rows: readonly ScaleRow[]): string {
  const head = [
    'N',
    'workflow',
    'baseline',
    'runs/s (bare)',
    'throughput',
    'per repeat',
    'vs 1 activity',
    'p95 ms (bare)',
    'RSS MiB peak (bare)',
    'RSS MiB mean (bare)',
    'CPU ms/call (bare)',
    'server CPU ms/call (bare)',
  ];
  const lines = rows.map((r) => [
    String(r.n),
    r.workflow,
    r.baseline,
    `${r.runsPerSec} (${r.bareRunsPerSec})`,
    `×${r.throughputRatio}`,
    r.throughputRatios.map((x) => `×${x}`).join(' '),
    `×${r.throughputRatioVsOneActivity}`,
    `${r.p95Ms} (${r.bareP95Ms})`,
    `${r.rssMiB} (${r.bareRssMiB}) ×${r.rssRatio}`,
    `${r.rssMeanMiB} (${r.bareRssMeanMiB}) ×${r.rssMeanRatio}`,
    `${r.cpuMsPerCall} (${r.bareCpuMsPerCall})`,
    r.serverCpuMsPerCall === undefined ? '-' : `${r.serverCpuMsPerCall} (${r.bareServerCpuMsPerCall ?? '-'})`,
  ]);
  return alignedTable(
    'scale (one worker per arm and workload, N concurrent runs, each workflow against its baseline: medians over the repeats; throughput the geometric mean of the per-repeat ratios)',
    head,
    lines,
  );
}
