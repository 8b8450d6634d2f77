/** The promises benchmark's rows (bench/promises.ts): each workflow against its baseline, and the printed table. */
import { BASELINE_OF, type Baseline, type Subject } from '../scale/rows';
import { alignedTable } from '../table';
import type { WorkloadCount } from './count';

export interface PromiseRow {
  workflow: Subject;
  baseline: Baseline;
  runs: number;
  promisesPerRun: number;
  basePromisesPerRun: number;
  /** Promises per run beyond the baseline's. */
  extraPromisesPerRun: number;
  allocatedKiBPerRun: number;
  baseAllocatedKiBPerRun: number;
  hookKiBPerRun: number;
  baseHookKiBPerRun: number;
  historyEvents: number;
  baseHistoryEvents: number;
  historyBytes: number;
  baseHistoryBytes: number;
}

const round1 = (x: number) => Math.round(x * 10) / 10;

/** @throws Error when the two counts are not a subject and its baseline's. */
export function promiseRowOf(base: WorkloadCount, subject: WorkloadCount): PromiseRow {
  if (!isBaseline(base.workload) || isBaseline(subject.workload)) {
    throw new Error(`promises: ${subject.workload} is not a subject measured against ${base.workload}`);
  }
  return {
    workflow: subject.workload,
    baseline: base.workload,
    runs: subject.runs,
    promisesPerRun: round1(subject.promisesPerRun),
    basePromisesPerRun: round1(base.promisesPerRun),
    extraPromisesPerRun: round1(subject.promisesPerRun - base.promisesPerRun),
    allocatedKiBPerRun: Math.round(subject.allocatedKiBPerRun),
    baseAllocatedKiBPerRun: Math.round(base.allocatedKiBPerRun),
    hookKiBPerRun: Math.round(subject.hookKiBPerRun),
    baseHookKiBPerRun: Math.round(base.hookKiBPerRun),
    historyEvents: subject.history.events,
    baseHistoryEvents: base.history.events,
    historyBytes: subject.history.bytes,
    baseHistoryBytes: base.history.bytes,
  };
}

function isBaseline(w: string): w is Baseline {
  return (Object.values(BASELINE_OF) as string[]).includes(w);
}

export function formatPromises(rows: readonly PromiseRow[]): string {
  const head = [
    'workflow',
    'baseline',
    'promises/run (bare)',
    'extra',
    'KiB/run (bare)',
    'hook KiB/run (bare)',
    'history events (bare)',
    'history bytes (bare)',
  ];
  const body = rows.map((r) => [
    r.workflow,
    r.baseline,
    `${r.promisesPerRun} (${r.basePromisesPerRun})`,
    `+${r.extraPromisesPerRun}`,
    `${r.allocatedKiBPerRun} (${r.baseAllocatedKiBPerRun})`,
    `${r.hookKiBPerRun} (${r.baseHookKiBPerRun})`,
    `${r.historyEvents} (${r.baseHistoryEvents})`,
    `${r.historyBytes} (${r.baseHistoryBytes})`,
  ]);
  return alignedTable(
    'promises (debug-mode worker, runs one after another; per run: workflow-VM promises, KiB allocated by the process and by the promise hook; the last run’s history)',
    head,
    body,
  );
}
