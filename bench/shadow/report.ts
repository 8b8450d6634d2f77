/** The shadow bench's tables and totals. Pure. */
import { alignedTable } from '../table';
import { ARMS, type Arm } from './arms';
import type { PlainRunScore } from './eval-runs';
import type { TransferScore } from './transfer-runs';

export interface ArmTotals {
  arm: Arm;
  /** Eval scenario runs and money-transfer runs. */
  runs: number;
  correct: number;
  /** Tool executions (the eval's dispatches) and deposit attempts. */
  dispatches: number;
  retries: number;
  /** Retries that could not succeed when they were sent, and deposits retried after an unknown outcome. */
  wasted: number;
  identicalReexecutions: number;
  /** Σ over the eval runs of the time wasted retries took, ms. */
  wastedRetryMs: number;
  /** Side effects beyond the one a goal needs: the eval's rows, and deposits applied more than once. */
  duplicates: number;
}

const sum = <T>(xs: readonly T[], f: (x: T) => number) => xs.reduce((a, x) => a + f(x), 0);

export function armTotals(plain: readonly PlainRunScore[], transfers: readonly TransferScore[]): ArmTotals[] {
  return ARMS.map((arm) => {
    const p = plain.filter((x) => x.arm === arm);
    const t = transfers.filter((x) => x.arm === arm);
    return {
      arm,
      runs: p.length + t.length,
      correct: p.filter((x) => x.correct).length + t.filter((x) => x.correct).length,
      dispatches: sum(p, (x) => x.dispatches) + sum(t, (x) => x.depositAttempts),
      retries: sum(p, (x) => x.retries) + sum(t, (x) => Math.max(0, x.depositAttempts - 1)),
      wasted: sum(p, (x) => x.wasted) + sum(t, (x) => x.wasted),
      identicalReexecutions: sum(p, (x) => x.identicalReexecutions),
      wastedRetryMs: sum(p, (x) => x.wastedRetryMs),
      duplicates: sum(p, (x) => x.duplicateSideEffects) + sum(t, (x) => Math.max(0, x.depositsApplied - 1)),
    };
  });
}

/** One row per scenario and arm, then the totals per arm. */
export function runsTable(plain: readonly PlainRunScore[]): string {
  const scenarios = [...new Set(plain.map((x) => x.scenario))];
  const rows = scenarios.flatMap((s) =>
    ARMS.map((arm) => {
      const runs = plain.filter((x) => x.scenario === s && x.arm === arm);
      return [
        s,
        arm,
        `${runs.filter((x) => x.correct).length}/${runs.length}`,
        String(sum(runs, (x) => x.dispatches)),
        String(sum(runs, (x) => x.retries)),
        String(sum(runs, (x) => x.wasted)),
        String(sum(runs, (x) => x.identicalReexecutions)),
        `${(sum(runs, (x) => x.wastedRetryMs) / 1000).toFixed(1)} s`,
        String(sum(runs, (x) => x.duplicateSideEffects)),
      ];
    }),
  );
  const head = ['scenario', 'arm', 'correct', 'dispatches', 'retries', 'wasted', 'identical', 'wasted time', 'dup'];
  return alignedTable('eval scenarios as plain activities', head, rows);
}

/** One row per money-transfer case and arm. */
export function transferTable(transfers: readonly TransferScore[]): string {
  const cases = [...new Set(transfers.map((x) => x.case))];
  const rows = cases.flatMap((c) =>
    ARMS.map((arm) => {
      const runs = transfers.filter((x) => x.case === c && x.arm === arm);
      return [
        c,
        arm,
        `${runs.filter((x) => x.correct).length}/${runs.length}`,
        `${runs.filter((x) => x.completed).length}/${runs.length}`,
        String(sum(runs, (x) => x.depositAttempts)),
        String(sum(runs, (x) => x.depositsApplied)),
        String(sum(runs, (x) => x.wasted)),
        `${(sum(runs, (x) => x.durationMs) / runs.length / 1000).toFixed(1)} s`,
      ];
    }),
  );
  const head = ['case', 'arm', 'correct', 'completed', 'deposit attempts', 'deposits applied', 'wasted', 'mean time'];
  return alignedTable('money transfer (an equivalent of Temporal’s sample)', head, rows);
}

/** The totals per arm. */
export function totalsTable(totals: readonly ArmTotals[]): string {
  const head = ['arm', 'runs', 'correct', 'dispatches', 'retries', 'wasted', 'identical', 'wasted time', 'dup'];
  const rows = totals.map((t) => [
    t.arm,
    String(t.runs),
    String(t.correct),
    String(t.dispatches),
    String(t.retries),
    String(t.wasted),
    String(t.identicalReexecutions),
    `${(t.wastedRetryMs / 1000).toFixed(1)} s`,
    String(t.duplicates),
  ]);
  return alignedTable('totals (both sets)', head, rows);
}
