/**
 * A CI-sized subset of the write-safety matrix (bench/write-safety; the whole matrix is `npm run bench -- --only
 * write-safety`): every defect of issue 27 in at least one tool declaration, every wire kind of issue 35, every fault
 * kind of our own, and two controls, on the real dev server with a real SQLite payments store per cell. Each cell must leave exactly the rows
 * an honest run leaves (one for a committed write, none for one that never landed unless a replay did) and say
 * something honest of each operation (applied, outcome unknown, or awaiting a person; a write that never landed may
 * also fail), within the row's budget, with no secret, stack, path or host in its histories.
 */
import { ALL_ROWS } from '../../bench/write-safety';
import type { CellResult } from '../../bench/write-safety/cell';
import { columnById } from '../../bench/write-safety/columns';
import { runCells } from '../../bench/write-safety/matrix';
import { cellSummary, honestSummary, rowById, writeSafetyEnv, type WriteSafetyEnv } from './write-safety-env';

/** Row id → the columns it runs in here. `_L_` is issue 27's declaration (no dedupe, a lookup, no verify). */
const SUBSET: Record<string, string[]> = {
  'late-commit': ['_L_', 'DL_', '_LV'],
  'lagging-replica': ['_L_'],
  'not-found-once': ['_LV'],
  'worker-shutdown': ['_L_', 'DL_'],
  'server-kill': ['_L_'],
  'result-5mb': ['_L_'],
  'result-bigint': ['_L_'],
  'result-circular': ['___'],
  'throw-null': ['_L_'],
  'throw-symbol': ['DL_'],
  'throw-revoked-proxy': ['_L_'],
  'throw-getters': ['__V'],
  'cause-loop-self': ['_L_'],
  'cause-loop-pair': ['DLV'],
  'outcomes-over-2mb': ['_L_'],
  'never-settling-2-slots': ['_L_'],
  'secrets-5xx': ['_L_'],
  'secrets-409': ['_L_'],
  'burst-100-lost': ['_L_'],
  'commit-after-lookup-timeout': ['_L_'],
  'replica-restored-from-backup': ['_L_'],
  'worker-sigkill-during-lookup': ['_L_'],
  'network-partition': ['_L_', 'DL_'],
  'review-decision-storm': ['_L_'],
  'headers-then-stalled-body': ['_L_'],
  'lookup-200-html': ['_L_'],
  'lookup-200-empty': ['_L_'],
  'gateway-504-late-commit': ['_L_'],
  'reset-then-async-commit': ['_L_'],
  'lookup-result-unsendable': ['_L_'],
  'reset-after-commit': ['_L_'],
  'reads-down': ['___'],
  // Issue 35's wire kinds and our own of them (bench/write-safety/rows-wire.ts).
  'post-201-truncated-json': ['_L_', '___'],
  'post-201-corrupt-json': ['_L_'],
  'post-201-json-as-html': ['D__'],
  'post-204-empty': ['_L_'],
  'post-201-empty': ['__V'],
  'post-302-login': ['_L_', 'DL_'],
  'post-308-other-origin': ['_L_'],
  'post-307-loop': ['_L_'],
  'async-202-failed-then-succeeded': ['_L_', '_LV'],
  'post-303-see-other': ['_L_'],
  'post-307-other-port': ['___'],
  'post-307-credentials-in-location': ['_L_'],
  'post-201-gzip-bomb': ['_L_'],
  'post-201-endless-chunked': ['_L_'],
  'post-201-content-length-over': ['_L_'],
  'post-201-location-no-body': ['_L_'],
  'post-503-50mb-body': ['_L_'],
  'lookup-302-other-origin': ['_L_'],
  'lookup-302-same-origin': ['_L_'],
};

const TASKS = Object.entries(SUBSET).flatMap(([id, cols]) =>
  cols.map((c) => ({ row: rowById(id), column: columnById(c) })),
);

let ws: WriteSafetyEnv;
let cells: CellResult[];
beforeAll(async () => {
  ws = await writeSafetyEnv();
  cells = await runCells(TASKS, { concurrency: 6, env: ws.cellEnv });
}, 600_000);
afterAll(async () => {
  await ws?.teardown();
});

test('the subset covers issue 27 items 1 to 9 (8: every cell scans its histories) and every fault kind of our own', () => {
  const items = new Set(TASKS.flatMap((t) => t.row.defects ?? []));
  expect([...items].sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  // The lifecycle rows run in test/temporal/write-safety-lifecycle.test.ts.
  const own = ALL_ROWS.filter((r) => r.source === 'own' && !r.lifecycle).map((r) => r.id);
  expect(own.length).toBeGreaterThanOrEqual(6);
  expect(own.filter((id) => !(id in SUBSET))).toEqual([]);
  expect(ALL_ROWS.filter((r) => r.issue === 35 && !(r.id in SUBSET)).map((r) => r.id)).toEqual([]);
});

test.each(TASKS.map((t, i) => [t.row.id, t.column.id, i] as const))(
  '%s in %s: honest rows and outcome',
  (_r, _c, i) => {
    const task = TASKS[i]!;
    const cell = cells[i]!;
    expect(cell.ops.length).toBe((task.row.runs ?? 1) * (task.row.calls ?? 1));
    expect(cellSummary(cell)).toEqual(honestSummary(task.row, cell));
  },
);
