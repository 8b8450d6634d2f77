/**
 * What the desk's pages show, read from the namespace the way the CLI reads it: visibility lists the workflows
 * that wait (`RecoveryStatus`, operator/waiting.ts), a query per workflow gives their calls and cases
 * (`recovery.pendingApprovals`, `recovery.reviewCase`), and `recovery.approvalLedger` / `recovery.reviewCase` of
 * recent workflows give the decisions taken. A workflow that closes between the listing and its query, or whose query is not answered within QUERY_DEADLINE_MS
 * (no worker runs it), is left out of that refresh.
 * Visibility is eventually consistent: a call may appear a moment after it began to wait. Node side.
 */
import type { Client, WorkflowExecutionInfo } from '@temporalio/client';
import {
  approvalLedgerQuery,
  pendingApprovalsQuery,
  reconcileWorkflowId,
  reviewCaseQuery,
  type PendingApproval,
  type ReviewCase,
} from '../../workflows/definitions';
import { listApprovals } from '../approvals';
import { listReviews, type ReviewListing } from '../reviews';
import { historyOfCase, historyOfLedger, type HistoryItem } from './history';

export interface WaitingWorkflow {
  workflowId: string;
  startedAtMs: number;
  calls: PendingApproval[];
}

export interface WaitingReview extends ReviewListing {
  case: ReviewCase;
}

/** What the live feed sends: the server's clock (ms since the epoch), the calls and the cases that wait. */
export interface Snapshot {
  nowMs: number;
  approvals: WaitingWorkflow[];
  reviews: WaitingReview[];
}

/**
 * How long one workflow's query may take, ms. A query is answered by a worker: a workflow whose workers are gone
 * would hold the page until the server's own query timeout (about 30 s); it is left out of this refresh instead.
 */
export const QUERY_DEADLINE_MS = 3_000;

/** `handle.query(...)` within QUERY_DEADLINE_MS (Temporal's `Client.withDeadline`). */
function bounded<R>(client: Client, query: () => Promise<R>): Promise<R> {
  return client.withDeadline(Date.now() + QUERY_DEADLINE_MS, query);
}

/** Runs `fn` over `items`, `width` at a time, keeping the answers that did not throw, in order. */
async function settled<T, R>(items: readonly T[], fn: (item: T) => Promise<R>, width = 8): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += width) {
    const answers = await Promise.allSettled(items.slice(i, i + width).map(fn));
    for (const a of answers) if (a.status === 'fulfilled') out.push(a.value);
  }
  return out;
}

/** The waiting calls and review cases of the namespace. */
export async function snapshot(client: Client): Promise<Snapshot> {
  const [listedApprovals, listedReviews] = await Promise.all([listApprovals(client), listReviews(client)]);
  const approvals = await settled(listedApprovals, async (a) => ({
    workflowId: a.workflowId,
    startedAtMs: a.startedAtMs,
    calls: await bounded(client, () => client.workflow.getHandle(a.workflowId).query(pendingApprovalsQuery)),
  }));
  const reviews = await settled(listedReviews, async (r) => ({
    ...r,
    case: await bounded(client, () => client.workflow.getHandle(r.workflowId).query(reviewCaseQuery)),
  }));
  return {
    nowMs: Date.now(),
    approvals: approvals.filter((w) => w.calls.length > 0).sort((a, b) => a.startedAtMs - b.startedAtMs),
    reviews: reviews.filter((r) => r.case.status === 'awaiting_review').sort((a, b) => a.sinceMs - b.sinceMs),
  };
}

/** Workflows that ever waited for a person: their RecoveryStatus is set. */
const DECIDED_QUERY = 'RecoveryStatus IS NOT NULL';

/** Reads recent decisions; a closed workflow's answer is kept (it cannot change). */
export class HistoryReader {
  private readonly closed = new Map<string, HistoryItem[]>();

  constructor(
    private readonly client: Client,
    private readonly limit: number,
  ) {}

  /** The decisions of the `limit` most recent workflows that waited for a person, newest first. */
  async read(): Promise<HistoryItem[]> {
    const infos: WorkflowExecutionInfo[] = [];
    for await (const info of this.client.workflow.list({ query: DECIDED_QUERY, pageSize: this.limit })) {
      infos.push(info);
      if (infos.length >= this.limit) break;
    }
    const lists = await settled(infos, (info) => this.itemsOf(info));
    return lists.flat().sort((a, b) => b.atMs - a.atMs);
  }

  private async itemsOf(info: WorkflowExecutionInfo): Promise<HistoryItem[]> {
    const key = `${info.workflowId}/${info.runId}`;
    const cached = this.closed.get(key);
    if (cached) return cached;
    const handle = this.client.workflow.getHandle(info.workflowId, info.runId);
    const isReview = info.workflowId.startsWith(reconcileWorkflowId(''));
    const items = isReview
      ? historyOfCase(info.workflowId, await bounded(this.client, () => handle.query(reviewCaseQuery)))
      : historyOfLedger(info.workflowId, await bounded(this.client, () => handle.query(approvalLedgerQuery)));
    if (info.status.name !== 'RUNNING') {
      if (this.closed.size >= 1_000) this.closed.clear();
      this.closed.set(key, items);
    }
    return items;
  }
}
