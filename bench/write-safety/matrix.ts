/**
 * Runs the cells of the write-safety matrix on a pool: cells wait on timers far more than they compute, so several
 * run at once; a cell of a heavy row (many runs, or a dev server of its own) takes more of the pool, and a row of
 * more than 10 runs takes all of it.
 */
import { applies, runCell, type CellResult } from './cell';
import type { Column } from './columns';
import type { CellEnv } from './drivers';
import type { FaultRow } from './fault-kinds';

export interface MatrixOptions {
  rows: readonly FaultRow[];
  columns: readonly Column[];
  /** Pool size: light cells at once. */
  concurrency: number;
  env: CellEnv;
  /** Called as each cell ends. */
  onCell?: (r: CellResult) => void;
}

/** How much of the pool a cell of `row` takes. */
export function weightOf(row: FaultRow, concurrency: number): number {
  if ((row.runs ?? 1) > 10) return concurrency;
  const driver = row.driver?.kind ?? 'plain';
  if (driver === 'server_stop' || driver === 'slots' || driver === 'worker_sigkill_during_lookup')
    return Math.min(concurrency, 2);
  return 1;
}

/** Every cell, in row-major order. Cells that do not apply are `n/a` without running. */
export function runMatrix(o: MatrixOptions): Promise<CellResult[]> {
  const tasks = o.rows.flatMap((row) => o.columns.map((column) => ({ row, column })));
  return runCells(tasks, o);
}

/** The given cells, in the given order. */
export async function runCells(
  tasks: readonly { row: FaultRow; column: Column }[],
  o: Pick<MatrixOptions, 'concurrency' | 'env' | 'onCell'>,
): Promise<CellResult[]> {
  const results = new Map<number, CellResult>();
  let free = o.concurrency;
  const waiters: (() => void)[] = [];
  const acquire = async (w: number) => {
    while (free < w) await new Promise<void>((ok) => waiters.push(ok));
    free -= w;
  };
  const release = (w: number) => {
    free += w;
    for (const ok of waiters.splice(0)) ok();
  };
  const weights = tasks.map(({ row, column }) => (applies(row, column) ? weightOf(row, o.concurrency) : 0));
  // The heaviest cells queue first: a cell that needs the whole pool would otherwise wait for every light one.
  const order = tasks.map((_, i) => i).sort((a, b) => weights[b]! - weights[a]! || a - b);
  await Promise.all(
    order.map(async (i) => {
      const { row, column } = tasks[i]!;
      const w = weights[i]!;
      await acquire(w);
      try {
        const r = await runCell(row, column, o.env);
        results.set(i, r);
        o.onCell?.(r);
      } finally {
        release(w);
      }
    }),
  );
  return tasks.map((_, i) => results.get(i)!);
}
