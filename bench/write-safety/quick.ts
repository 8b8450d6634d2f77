/**
 * The matrix's quick form (`npm run bench -- --only write-safety --quick`, a regression gate of `.ci/run`): every
 * defect of issue 27 in at least one tool declaration, every wire kind of issue 35, every fault kind of our own, and
 * two controls — 58 cells, where the whole matrix takes 10 minutes. test/unit/write-safety-quick.test.ts checks that it covers
 * them; test/temporal/write-safety-defects.test.ts keeps one test per defect in `npm test`.
 */
import { columnById, type Column } from './columns';
import type { FaultRow } from './fault-kinds';

/** Row id → the columns it runs in. `_L_` is issue 27's declaration (no dedupe, a lookup, no verify). */
export const QUICK_CELLS: Readonly<Record<string, readonly string[]>> = {
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

/**
 * The quick cells of `rows`, in the table's order.
 * @throws Error naming a quick row that is not among `rows`.
 */
export function quickTasks(rows: readonly FaultRow[]): { row: FaultRow; column: Column }[] {
  return Object.entries(QUICK_CELLS).flatMap(([id, columns]) => {
    const row = rows.find((r) => r.id === id);
    if (!row) throw new Error(`write-safety quick: no row ${id}`);
    return columns.map((c) => ({ row, column: columnById(c) }));
  });
}
