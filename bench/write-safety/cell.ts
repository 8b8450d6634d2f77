/**
 * One cell of the write-safety matrix: a fault kind (row) against a tool declaration (column). A payments service of
 * its own (and a partition proxy when the row needs one), workers per the row's driver, the runs started and watched
 * within the row's budget; then every open run is terminated, held commits drain, the store's rows are counted per
 * operation and the histories scanned. The verdict: verdict.ts.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import { toolCatalog } from '../../activities/define-tool';
import { reconcileWorkflowId } from '../../workflows/definitions';
import type { Column } from './columns';
import { setUp, type CellEnv } from './drivers';
import type { FaultRow } from './fault-kinds';
import { describeLeaks, scanHistory } from './leaks';
import { runLifecycleCell } from './lifecycle';
import { startPartitionProxy, type PartitionProxy } from './partition-proxy';
import { PAY_API_KEY, toolsOf, type PayRecipe } from './pay-tools';
import { LOCATION_PASSWORD, startPaymentsService, type PaymentsService } from './payments-service';
import { startRuns, terminateRun, watchRun, type OpClaim, type RunSpec } from './runs';
import { within } from './time';
import { cellVerdict, type OpFacts, type Verdict } from './verdict';

export interface CellResult {
  row: string;
  column: string;
  verdict: Verdict;
  problems: string[];
  ops: OpFacts[];
  /** Wall time of the cell, ms. */
  ms: number;
  notes: Record<string, number | boolean | string>;
}

/** How long held commits may take to land after the runs were watched, ms. */
const DRAIN_MS = 20_000;
const DEFAULT_BUDGET_MS = 45_000;
/** How long a driver may still act once the runs were watched, ms. */
const DRIVER_GRACE_MS = 20_000;

/** Whether the row's fault can reach the column: a read-path fault needs a lookup or a verify. */
export function applies(row: FaultRow, column: Column): boolean {
  return !row.readPath || column.lookup || column.verify;
}

export async function runCell(row: FaultRow, column: Column, env: CellEnv): Promise<CellResult> {
  const started = Date.now();
  const base = { row: row.id, column: column.id };
  if (!applies(row, column)) return { ...base, verdict: 'n/a', problems: [], ops: [], ms: 0, notes: {} };
  if (row.lifecycle) return runLifecycleCell(row, column, env);
  const tag = `${row.id}.${column.id}.${Math.random().toString(36).slice(2, 8)}`;
  const dir = join(env.dir, tag);
  mkdirSync(dir, { recursive: true });
  const service = await startPaymentsService({
    dedupe: column.dedup,
    post: row.post,
    read: row.read ?? { kind: 'none' },
    tmpDir: dir,
  });
  const driver = row.driver ?? { kind: 'plain' };
  let proxy: PartitionProxy | undefined;
  if (driver.kind === 'partition') proxy = await startPartitionProxy(service.port, 'POST /payments');
  const recipe: PayRecipe = {
    url: proxy?.url ?? service.url,
    column,
    quirk: row.quirk ?? { kind: 'none' },
    ...(row.commit ? { commit: row.commit } : {}),
  };
  const taskQueue = `ws-${tag}`;
  try {
    const setup = await setUp(driver, { ...env, dir }, taskQueue, recipe, service, proxy);
    const deadline = Date.now() + (row.budgetMs ?? DEFAULT_BUDGET_MS) * (env.budgetScale ?? 1);
    const runs = await startRuns(setup.client, taskQueue, toolCatalog(toolsOf(recipe)), `ws-${tag}`, {
      runs: row.runs ?? 1,
      calls: row.calls ?? 1,
    });
    const during = setup.during().catch((err: unknown) => `driver failed: ${String(err)}`);
    const watchOptions = {
      deadline,
      everyMs: runs.length > 8 ? 1_000 : 250,
      ...(setup.onReview ? { onReview: setup.onReview } : {}),
    };
    const claims = await Promise.all(runs.map((r) => watchRun(setup.client, r, watchOptions)));
    // A driver still acting (a second worker starting, a partition healing) finishes before the workers stop.
    const driverError = await within(during, DRIVER_GRACE_MS, undefined);
    await Promise.all(runs.map((r) => terminateRun(setup.client, r)));
    const secrets = [...(row.secrets ?? []), PAY_API_KEY, LOCATION_PASSWORD];
    // Anything the tool's requests carried to another origin is a leak too (docs/tools.md, "ctx.http").
    const leaks = [
      ...(await historyLeaks(setup.client, runs, secrets)),
      ...service.foreign().map((f) => `another origin received ${f}`),
    ];
    const workflowTaskFailures = await countTaskFailures(setup.client, runs);
    const { shutdownHung, shutdownMs } = await setup.stop();
    await setup.close();
    const drained = await service.drain(DRAIN_MS);
    const ops = opFacts(runs, claims, service);
    const { verdict, problems } = cellVerdict({
      ops,
      leaks,
      shutdownHung,
      ...(typeof driverError === 'string' ? { harnessError: driverError } : {}),
    });
    const notes = {
      posts: service.posts(),
      reads: service.reads(),
      foreign: service.foreign().length,
      shutdownMs,
      workflowTaskFailures,
      drained,
    };
    return { ...base, verdict, problems, ops, ms: Date.now() - started, notes };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { ...base, verdict: 'ERR', problems: [`ERR: ${message}`], ops: [], ms: Date.now() - started, notes: {} };
  } finally {
    await proxy?.close();
    await service.close();
  }
}

function opFacts(runs: RunSpec[], claims: Map<string, OpClaim>[], service: PaymentsService): OpFacts[] {
  return runs.flatMap((run, i) =>
    run.opIds.map((operationId) => {
      const c = claims[i]?.get(operationId) ?? { claim: 'open' as const, said: 'not watched' };
      return { operationId, rows: service.rows(operationId), posts: service.posts(operationId), ...c };
    }),
  );
}

/** The events of a workflow's history, or none when it does not exist. */
async function events(client: Client, workflowId: string): Promise<object[]> {
  try {
    return (await client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
  } catch {
    return [];
  }
}

/** Leaks in the histories of the runs and their reconciliations (at most the first 10 runs: same shape). */
async function historyLeaks(client: Client, runs: RunSpec[], secrets: readonly string[]): Promise<string[]> {
  const ids = runs.slice(0, 10).flatMap((r) => [r.workflowId, ...r.opIds.map(reconcileWorkflowId)]);
  const all = await Promise.all(ids.map((id) => events(client, id)));
  return describeLeaks(all.flatMap((e) => scanHistory(e, secrets)));
}

/** Failed workflow tasks in the runs' histories (a run whose task fails again and again is wedged). */
async function countTaskFailures(client: Client, runs: RunSpec[]): Promise<number> {
  const all = await Promise.all(runs.slice(0, 10).map((r) => events(client, r.workflowId)));
  return all.flat().filter((e) => 'workflowTaskFailedEventAttributes' in e && e.workflowTaskFailedEventAttributes)
    .length;
}
