/**
 * Shared setup of the write-safety tests (write-safety-defects.test.ts): the cells of bench/write-safety run on this
 * jest run's dev server, with the plugin's workflows bundled once into a file (worker processes load it). The
 * honest outcome of a cell, as exact rows and allowed claims, is bench/write-safety/honest.ts (the quick gate's).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { CellEnv } from '../../bench/write-safety/drivers';
import type { FaultRow } from '../../bench/write-safety/fault-kinds';
import { ALL_ROWS } from '../../bench/write-safety';
export { cellSummary, honestSummary } from '../../bench/write-safety/honest';
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
      budgetScale: 3, // as the quick gate: a run is wedged after 3× its row's budget on a loaded machine
    },
    async teardown() {
      await env.teardown();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A row of the matrix by id. @throws Error naming an unknown id. */
export function rowById(id: string): FaultRow {
  const row = ALL_ROWS.find((r) => r.id === id);
  if (!row) throw new Error(`no write-safety row ${id}`);
  return row;
}
