/**
 * The lifecycle rows of the write-safety matrix (bench/write-safety/rows-lifecycle.ts, issue 35) on the real dev
 * server: a reused workflow id (start and signal-with-start), cron runs, a schedule's overlapping runs, a workflow
 * retry, resets, continue-as-new and terminate while a review waits, and the operator's activity commands on a write.
 * In a deduplicating receiver's column (`DL_`: a reused key is answered with the first payment, so a new intent that
 * reuses one is reported applied with no row of its own), in issue 27's (`_L_`) and in a bare write's (`___`). Each
 * intent must leave one row when it says applied and at most one otherwise, and no review decision may be accepted
 * where no run reads its result.
 */
import { LIFECYCLE_ROWS } from '../../bench/write-safety/rows-lifecycle';
import type { CellResult } from '../../bench/write-safety/cell';
import { columnById } from '../../bench/write-safety/columns';
import { runCells } from '../../bench/write-safety/matrix';
import { cellSummary, writeSafetyEnv, type WriteSafetyEnv } from './write-safety-env';

const COLUMNS = ['DL_', '_L_', '___'];
const TASKS = LIFECYCLE_ROWS.flatMap((row) => COLUMNS.map((c) => ({ row, column: columnById(c) })));

let ws: WriteSafetyEnv;
let cells: CellResult[];
beforeAll(async () => {
  ws = await writeSafetyEnv();
  cells = await runCells(TASKS, { concurrency: 6, env: ws.cellEnv });
}, 900_000);
afterAll(async () => {
  await ws?.teardown();
});

test('the lifecycle rows name every kind of issue 35 and at least three of our own', () => {
  const kinds = new Set(LIFECYCLE_ROWS.map((r) => r.lifecycle?.kind));
  expect([...kinds].sort()).toEqual([
    'activity',
    'continue_as_new_during_review',
    'cron',
    'reset',
    'reused_id',
    'schedule',
    'terminate_during_review',
    'workflow_retry',
  ]);
  expect(LIFECYCLE_ROWS.filter((r) => r.source === 'own').length).toBeGreaterThanOrEqual(3);
});

test.each(TASKS.map((t, i) => [t.row.id, t.column.id, i] as const))(
  '%s in %s: one row per applied intent',
  (_r, _c, i) => {
    const cell = cells[i]!;
    const summary = cellSummary(cell);
    const honest = {
      ...summary,
      verdict: 'ok',
      ops: summary.ops.map((o) => ({ ...o, rows: o.claim === 'applied' ? 1 : Math.min(o.rows, 1) })),
      problems: [],
    };
    expect(cellSummary(cell)).toEqual(honest);
    expect(cell.ops.length).toBeGreaterThanOrEqual(1);
  },
);
