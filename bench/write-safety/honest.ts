/**
 * What an honest cell looks like, operation by operation, stated as exact rows and allowed claims: the quick gate
 * (bench/write-safety.ts) and test/temporal/write-safety-defects.test.ts compare each cell with it. Pure.
 */
import type { CellResult } from './cell';
import type { FaultRow, PostFault } from './fault-kinds';
import type { Claim, OpFacts } from './verdict';

/** Whether the service commits the first POST under `post` (a fault that drops, refuses or redirects it does not). */
export function commitsFirst(post: PostFault): boolean {
  if (post.kind === 'redirect' || post.kind === 'big_answer') return post.commit;
  return post.kind !== 'drop_before_commit' && post.kind !== 'answer';
}

/**
 * The rows an honest run leaves for `op`: one when the first POST committed (it reached the service and the fault
 * commits it), or when the run says applied (a replay landed); none otherwise.
 */
export function honestRows(row: FaultRow, op: OpFacts): number {
  return (commitsFirst(row.post) && op.posts > 0) || op.claim === 'applied' ? 1 : 0;
}

/**
 * What an honest run may say of an operation: applied, unknown or awaiting review once its first POST reached the
 * service and the fault committed it; a failure too when nothing committed (or the POST was never sent).
 */
export function honestClaims(row: FaultRow, op: OpFacts): Claim[] {
  return commitsFirst(row.post) && op.posts > 0
    ? ['applied', 'unknown', 'review']
    : ['applied', 'unknown', 'review', 'failed', 'not_reached'];
}

/** Each operation's rows, claim and the cell's verdict, in one value a failing check prints whole. */
export function cellSummary(cell: CellResult) {
  return {
    cell: `${cell.row} ${cell.column}`,
    verdict: cell.verdict,
    ops: cell.ops.map((o) => ({ rows: o.rows, posts: o.posts, claim: o.claim, said: o.said })),
    problems: cell.problems,
  };
}

/** The summary an honest cell has: verdict ok, exact rows per operation, each claim among the honest ones. */
export function honestSummary(row: FaultRow, cell: CellResult) {
  return {
    cell: `${cell.row} ${cell.column}`,
    verdict: 'ok',
    ops: cell.ops.map((o) => {
      const claims = honestClaims(row, o);
      return {
        rows: honestRows(row, o),
        posts: o.posts,
        claim: claims.includes(o.claim) ? o.claim : `one of ${claims.join('|')}`,
        said: o.said,
      };
    }),
    problems: [],
  };
}

/**
 * Where `cell` differs from an honest one (empty when it is honest): `n/a` cells are honest; every other cell must
 * match `honestSummary` exactly and hold `(row.runs ?? 1) × (row.calls ?? 1)` operations.
 */
export function dishonesty(row: FaultRow, cell: CellResult): string[] {
  if (cell.verdict === 'n/a') return [];
  const out: string[] = [];
  const ops = (row.runs ?? 1) * (row.calls ?? 1);
  if (cell.ops.length !== ops) out.push(`${cell.ops.length} operations, expected ${ops}`);
  const got = JSON.stringify(cellSummary(cell));
  const honest = JSON.stringify(honestSummary(row, cell));
  if (got !== honest) out.push(`not honest: ${got} (honest: ${honest})`);
  return out;
}
