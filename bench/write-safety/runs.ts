/**
 * A cell's runs: `toolPlanWorkflow` runs of `pay` calls, started at once, then watched until each ended or waits
 * visibly for a person (its reconciliation's `recovery.reviewCase` says `awaiting_review`), or the row's budget ran
 * out. What each run says about each of its operations becomes a `Claim` (verdict.ts).
 */
import type { Client } from '@temporalio/client';
import { reconcileWorkflowId, reviewCaseQuery } from '../../workflows/definitions';
import type { ToolPlanInput, ToolPlanResult } from '../../workflows/tool-plan';
import type { ToolSpec } from '../../recovery/tool-spec';
import { LOOKUP_TIMEOUT_MS } from './columns';
import { pause } from './time';
import type { Claim } from './verdict';

export interface RunSpec {
  workflowId: string;
  /** `<workflowId>:pay-<i>`, in call order. */
  opIds: string[];
}

export interface OpClaim {
  claim: Claim;
  said: string;
}

/** The plan of one run: `calls` payments, each its own step (and so its own operation id and invoice). */
export function planOf(catalog: ToolSpec[], workflowId: string, calls: number): ToolPlanInput {
  return {
    catalog,
    calls: Array.from({ length: calls }, (_, i) => ({
      tool: 'pay',
      args: { invoice: `INV-${workflowId.replace(/[^A-Za-z0-9-]/g, '')}-${i}`, amountCents: 1_250 },
      stepId: `pay-${i}`,
    })),
    reconcile: { lookupTimeoutMs: LOOKUP_TIMEOUT_MS },
  };
}

export async function startRuns(
  client: Client,
  taskQueue: string,
  catalog: ToolSpec[],
  prefix: string,
  o: { runs: number; calls: number },
): Promise<RunSpec[]> {
  return Promise.all(
    Array.from({ length: o.runs }, async (_, r) => {
      const workflowId = `${prefix}-${r}`;
      const h = await client.workflow.start('toolPlanWorkflow', {
        taskQueue,
        workflowId,
        args: [planOf(catalog, workflowId, o.calls)],
      });
      // A write's key names its intent, the run that began it (docs/tools.md, "One intent, one key").
      const opIds = Array.from({ length: o.calls }, (_, i) => `${workflowId}@${h.firstExecutionRunId}:pay-${i}`);
      return { workflowId, opIds };
    }),
  );
}

/** The first of `opIds` whose reconciliation awaits review, if any (a missing or silent child is not). */
export async function awaitingReview(client: Client, opIds: readonly string[]): Promise<string | undefined> {
  for (const opId of opIds) {
    try {
      const c = await client.workflow.getHandle(reconcileWorkflowId(opId)).query(reviewCaseQuery);
      if (c.status === 'awaiting_review') return opId;
    } catch {
      /* no reconciliation, or it cannot answer now */
    }
  }
  return undefined;
}

/** Claims from a run that ended: its outcomes when it completed; `failed` for every operation otherwise. */
async function endedClaims(client: Client, run: RunSpec, status: string): Promise<Map<string, OpClaim>> {
  const claims = new Map<string, OpClaim>();
  if (status !== 'COMPLETED') {
    for (const id of run.opIds) claims.set(id, { claim: 'failed', said: `run ${status}` });
    return claims;
  }
  const result = (await client.workflow.getHandle(run.workflowId).result()) as ToolPlanResult;
  for (const id of run.opIds) {
    const o = result.outcomes.find((x) => x.operationId === id);
    if (!o) claims.set(id, { claim: 'not_reached', said: 'no outcome' });
    else if (o.ok) claims.set(id, { claim: 'applied', said: `ok${o.reconciled ? ` (${o.reconciled})` : ''}` });
    else
      claims.set(id, {
        claim: o.failure.class === 'outcome_unknown' ? 'unknown' : 'failed',
        said: `${o.failure.class}/${o.failure.reason} → ${o.action}`,
      });
  }
  return claims;
}

export interface WatchOptions {
  deadline: number;
  /** Called once when a run first awaits review (the review storm); the run is then watched 2 s more at least. */
  onReview?: (opId: string) => Promise<void>;
  /** Poll interval, ms. */
  everyMs: number;
}

/** Watches one run until it ended, awaits review, or the deadline passed. */
export async function watchRun(client: Client, run: RunSpec, o: WatchOptions): Promise<Map<string, OpClaim>> {
  let reviewedAt: number | undefined;
  for (;;) {
    let status = 'RUNNING';
    try {
      status = (await client.workflow.getHandle(run.workflowId).describe()).status.name;
    } catch {
      /* the server is away (a restart): ask again */
    }
    if (status !== 'RUNNING') return endedClaims(client, run, status);
    const inReview = await awaitingReview(client, run.opIds);
    if (inReview && o.onReview && reviewedAt === undefined) {
      reviewedAt = Date.now();
      await o.onReview(inReview);
    } else if (inReview && (reviewedAt === undefined || Date.now() - reviewedAt > 2_000)) {
      // The run waits visibly for a person: each operation not ended yet is in that wait.
      return new Map(
        run.opIds.map((id) => [
          id,
          { claim: 'review', said: `awaits review (${id === inReview ? 'this call' : 'the run'})` },
        ]),
      );
    }
    if (Date.now() > o.deadline)
      return new Map(run.opIds.map((id) => [id, { claim: 'open', said: 'still running, nobody asked' }]));
    await pause(o.everyMs);
  }
}

/** Terminates a run and its reconciliations (started with parent-close policy ABANDON) that are still open. */
export async function terminateRun(client: Client, run: RunSpec): Promise<void> {
  await Promise.all([run.workflowId, ...run.opIds.map(reconcileWorkflowId)].map((id) => terminateIfOpen(client, id)));
}

async function terminateIfOpen(client: Client, workflowId: string): Promise<void> {
  try {
    const h = client.workflow.getHandle(workflowId);
    if ((await h.describe()).status.name === 'RUNNING') await h.terminate('write-safety cell ended');
  } catch {
    /* gone already */
  }
}
