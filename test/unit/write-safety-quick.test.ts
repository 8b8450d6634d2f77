/**
 * The write-safety matrix's quick form (bench/write-safety/quick.ts), `.ci/run`'s regression gate: it covers every
 * defect of issue 27, every wire kind of issue 35 and every fault kind of our own, in columns that exist (the lifecycle rows have their own
 * test). Pure: no workers, no servers.
 */
import { ALL_ROWS } from '../../bench/write-safety';
import { COLUMNS } from '../../bench/write-safety/columns';
import { QUICK_CELLS, quickTasks } from '../../bench/write-safety/quick';

test('write-safety quick: covers issue 27 items 1 to 9 (8: every cell scans its histories), issue 35 and every fault kind of our own', () => {
  const tasks = quickTasks(ALL_ROWS);
  expect(tasks).toHaveLength(58);
  expect([...new Set(tasks.flatMap((t) => t.row.defects ?? []))].sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  // The lifecycle rows (issue 35's runs, resets, deploys) run in test/temporal/write-safety-lifecycle.test.ts.
  const wire = ALL_ROWS.filter((r) => !r.lifecycle);
  const own = wire.filter((r) => r.source === 'own').map((r) => r.id);
  expect(own.length).toBeGreaterThanOrEqual(6);
  expect(own.filter((id) => !(id in QUICK_CELLS))).toEqual([]);
  expect(wire.filter((r) => r.issue === 35 && !(r.id in QUICK_CELLS)).map((r) => r.id)).toEqual([]);
});

test('write-safety quick: every cell names a row and a column of the matrix, once', () => {
  const columns = COLUMNS.map((c) => c.id);
  for (const [id, cols] of Object.entries(QUICK_CELLS)) {
    expect([id, cols.filter((c) => !columns.includes(c))]).toEqual([id, []]);
    expect(new Set(cols).size).toBe(cols.length);
  }
  expect(() => quickTasks(ALL_ROWS.filter((r) => r.id !== 'late-commit'))).toThrow(
    'write-safety quick: no row late-commit',
  );
});
