/**
 * Shared setup of the write-safety tests (write-safety.test.ts, write-safety-defects.test.ts): the cells of
 * bench/write-safety run on this jest run's dev server, with the plugin's workflows bundled once into a file (worker
 * processes load it), and the honest outcome of a cell stated as exact rows and allowed claims.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { CellResult } from '../../bench/write-safety/cell';
import type { CellEnv } from '../../bench/write-safety/drivers';
import type { FaultRow, PostFault } from '../../bench/write-safety/fault-kinds';
import type { Claim, OpFacts } from '../../bench/write-safety/verdict';
import { ALL_ROWS } from '../../bench/write-safety';
import { testEnv } from '../setup/env';
import { workflowBundle } from './harness';

export interface WriteSafetyEnv {
  env: TestWorkflowEnvironment;
  cellEnv: CellEnv;
  teardown(): Promise<void>;
}

export async function writeSafetyEnv(): Promise<WriteSafetyEnv> {
  const env = await testEnv();
  const dir = mkdtempSync(join(tmpdir(), 'rr-write-safety-'));
  const bundlePath = join(dir, 'workflows.js');
  writeFileSync(bundlePath, (await workflowBundle()).code);
  return {
    env,
    cellEnv: {
      client: env.client,
      connection: env.nativeConnection,
      address: process.env.TEMPORAL_TEST_ADDRESS!,
      bundlePath,
      dir,
    },
    async teardown() {
      await env.teardown();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

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

/** Each operation's rows, claim and the cell's verdict, in one value a failing test prints whole. */
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

/** A row of the matrix by id. @throws Error naming an unknown id. */
export function rowById(id: string): FaultRow {
  const row = ALL_ROWS.find((r) => r.id === id);
  if (!row) throw new Error(`no write-safety row ${id}`);
  return row;
}
