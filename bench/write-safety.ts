/**
 * `npm run bench -- --only write-safety [--rows a,b] [--columns _L_,DL_] [--concurrency N] [--quick]`: the
 * write-safety matrix of issues 27 and 35 — fault kinds (rows: bench/write-safety/rows-*.ts) against `pay` tool declarations
 * (columns: bench/write-safety/columns.ts), each cell on a real payments service over SQLite and a real dev server
 * of its own (bench/dev-server.ts). Prints the table and writes bench/results/write-safety.json: every cell's
 * verdict, the rows per operation, what the run said, and why a cell failed. `--quick` runs the 58 cells of
 * bench/write-safety/quick.ts (every defect of issue 27, every wire kind of issue 35, every fault kind of our own, two
 * controls; `.ci/run`'s
 * regression gate), and also fails on a cell that is not honest to the row (bench/write-safety/honest.ts).
 *
 * Labels (bench/write-safety/verdict.ts): `ok`, `DUP` (a second row for one operation), `LOST` (a committed write
 * reported failed, or an applied write without a row), `WEDGED` (neither ended nor awaited review within the row's
 * budget; or a worker's shutdown outlived its grace), `LEAK` (a secret, stack, path or host in a history), `ERR`
 * (the harness broke), `n/a` (a read-path fault in a column without reads).
 *
 * Gate (exit 1): any cell other than `ok` or `n/a`; with `--quick`, also a cell that is not honest to its row.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { bundleWorkflowCode, DefaultLogger, NativeConnection } from '@temporalio/worker';
import { RECOVERY_PRELOAD_MODULES, RECOVERY_WORKFLOWS_PATH } from '../plugin/recovery-plugin';
import { startBenchServer } from './dev-server';
import { machineFacts } from './report';
import { alignedTable } from './table';
import type { CellResult } from './write-safety/cell';
import { COLUMNS, ISSUE_COLUMN, type Column } from './write-safety/columns';
import type { FaultRow } from './write-safety/fault-kinds';
import { dishonesty } from './write-safety/honest';
import { runCells, runMatrix } from './write-safety/matrix';
import { quickTasks } from './write-safety/quick';
import { CONTROL_ROWS, DEFECT_ROWS } from './write-safety/rows-defects';
import { LIFECYCLE_ROWS } from './write-safety/rows-lifecycle';
import { OWN_ROWS } from './write-safety/rows-own';
import { WIRE_ROWS } from './write-safety/rows-wire';

const RESULTS_FILE = join(__dirname, 'results', 'write-safety.json');
export const ALL_ROWS: readonly FaultRow[] = [
  ...DEFECT_ROWS,
  ...OWN_ROWS,
  ...WIRE_ROWS,
  ...CONTROL_ROWS,
  ...LIFECYCLE_ROWS,
];

export interface WriteSafetyOptions {
  quick: boolean;
  rows: string[];
  columns: string[];
  concurrency: number;
}

function pick<T extends { id: string }>(all: readonly T[], ids: string[], what: string): T[] {
  if (ids.length === 0) return [...all];
  const unknown = ids.find((id) => !all.some((x) => x.id === id));
  if (unknown !== undefined) throw new Error(`unknown ${what} ${unknown} (known: ${all.map((x) => x.id).join(', ')})`);
  return all.filter((x) => ids.includes(x.id));
}

/** `late-commit [1]`, `network-partition [own]`, `reset-after-commit [control]`, `post-302-login [35]`, `post-303 [own 35]`. */
function rowLabel(row: FaultRow): string {
  if (row.issue !== undefined) return `${row.id} [${row.source === 'defect' ? '' : `${row.source} `}${row.issue}]`;
  return `${row.id} [${row.defects ? row.defects.join(',') : row.source}]`;
}

export function matrixTable(rows: readonly FaultRow[], columns: readonly Column[], cells: CellResult[]): string {
  const at = (r: string, c: string) => cells.find((x) => x.row === r && x.column === c)?.verdict ?? '';
  return alignedTable(
    'Write-safety matrix (columns: D = deduplicates, L = lookup, V = verify; _ = without)',
    ['fault kind [issue 27 item | issue]', ...columns.map((c) => c.id)],
    rows.map((r) => [rowLabel(r), ...columns.map((c) => at(r.id, c.id))]),
  );
}

/** Verdict → cells with it. */
export function verdictCounts(cells: readonly CellResult[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const c of cells) counts[c.verdict] = (counts[c.verdict] ?? 0) + 1;
  return counts;
}

export async function writeSafety(o: WriteSafetyOptions): Promise<number> {
  const quick = o.quick && o.rows.length === 0 && o.columns.length === 0;
  const tasks = quick ? quickTasks(ALL_ROWS) : undefined;
  const rows = tasks ? ALL_ROWS.filter((r) => tasks.some((t) => t.row === r)) : pick(ALL_ROWS, o.rows, 'row');
  const columns = tasks
    ? COLUMNS.filter((c) => tasks.some((t) => t.column.id === c.id))
    : pick(COLUMNS, o.quick && o.columns.length === 0 ? [ISSUE_COLUMN] : o.columns, 'column');
  const dir = mkdtempSync(join(tmpdir(), 'rr-bench-write-safety-'));
  const env = await startBenchServer();
  const connection = await NativeConnection.connect({ address: env.address });
  try {
    const bundlePath = join(dir, 'workflows.js');
    const bundle = await bundleWorkflowCode({
      workflowsPath: RECOVERY_WORKFLOWS_PATH,
      preloadModules: [...RECOVERY_PRELOAD_MODULES, RECOVERY_WORKFLOWS_PATH],
      logger: new DefaultLogger('ERROR'),
    });
    writeFileSync(bundlePath, bundle.code);
    const started = Date.now();
    const run = {
      concurrency: o.concurrency,
      // The gate runs on a shared CI machine: a run is wedged after 3× its row's budget (bench/write-safety/drivers.ts).
      env: {
        client: env.client,
        connection,
        address: env.address,
        bundlePath,
        dir,
        ...(tasks ? { budgetScale: 3 } : {}),
      },
      onCell: (c: CellResult) => process.stderr.write(`write-safety: ${c.row} ${c.column} ${c.verdict} (${c.ms} ms)\n`),
    };
    const cells = tasks ? await runCells(tasks, run) : await runMatrix({ rows, columns, ...run });
    const counts = verdictCounts(cells);
    console.log(matrixTable(rows, columns, cells));
    console.log(`\ncells: ${JSON.stringify(counts)}; ${Math.round((Date.now() - started) / 1000)} s`);
    for (const c of cells.filter((x) => x.problems.length > 0))
      console.log(`  ${c.row} ${c.column}: ${c.problems.slice(0, 3).join('; ')}`);
    // The quick gate also holds each cell to the honest outcome of its row, operation by operation.
    const dishonest = tasks
      ? cells.flatMap((c, i) => dishonesty(tasks[i]!.row, c).map((d) => `${c.row} ${c.column}: ${d}`))
      : [];
    for (const d of dishonest) console.log(`  ${d}`);
    mkdirSync(dirname(RESULTS_FILE), { recursive: true });
    writeFileSync(
      RESULTS_FILE,
      `${JSON.stringify(
        {
          benchmark: 'write-safety',
          date: new Date().toISOString(),
          machine: machineFacts(),
          columns,
          rows: rows.map(({ id, title, source, defects }) => ({ id, title, source, defects })),
          counts,
          ...(tasks ? { dishonest } : {}),
          cells,
        },
        null,
        2,
      )}\n`,
    );
    console.log(`wrote ${RESULTS_FILE}`);
    return cells.every((c) => c.verdict === 'ok' || c.verdict === 'n/a') && dishonest.length === 0 ? 0 : 1;
  } finally {
    await connection.close();
    await env.teardown();
    rmSync(dir, { recursive: true, force: true });
  }
}
