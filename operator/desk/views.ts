/**
 * What the desk's pages show: visibility lists the runs that wait (`RecoveryStatus`, operator/waiting.ts), so they
 * show with no worker; a query of one run when a page asks (`recovery.pendingApprovals`, `recovery.reviewCase`, with
 * their arguments) gives its calls or case and the person's rendering (./human-view.ts); unanswered within QUERY_DEADLINE_MS, the run
 * shows "details cannot be read: no worker polls <queue> since <the last poll DescribeTaskQueue saw>". Node side.
 */
import {
  WorkflowNotFoundError,
  type Client,
  type WorkflowExecutionInfo,
  type WorkflowHandle,
} from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import {
  approvalLedgerQuery,
  pendingApprovalsQuery,
  reconcileWorkflowId,
  reviewCaseQuery,
  type PendingApproval,
  type ReviewCase,
} from '../../workflows/definitions';
import { listApprovals, type ApprovalListing } from '../approvals';
import { listReviews, type ReviewListing } from '../reviews';
import { historyOfCase, historyOfLedger, unreadableRun, type HistoryItem } from './history';
import { HttpError } from './http';
import { rendered, type HumanView, type Rendered } from './human-view';

type Viewed<T, Raw extends keyof T> = Omit<T, Raw | 'args'> & { view: HumanView | null };
type ViewedCall = Viewed<PendingApproval, 'argsPreview'>;
/** The waiting runs as visibility lists them, and the server's clock (ms): what the live feed sends. */
export type Listing = { nowMs: number; approvals: ApprovalListing[]; reviews: ReviewListing[] };
/** A run's details (`/api/details`): its waiting calls or its case with the person's view, or why they are missing. */
export type Details =
  | { calls: ViewedCall[]; blind?: string }
  | { case: Viewed<ReviewCase, 'argsSummary'> }
  | { blind: string };
/** How long one workflow's query may take, ms (the server's own query timeout is about 30 s). */
export const QUERY_DEADLINE_MS = 3_000;
export const WITH_ARGUMENTS = { arguments: true }; // the query option that asks for the arguments in full

/** A reconciliation's run (`reconcile:<operation id>`): its details are a review case, not waiting calls. */
const isReviewRun = (workflowId: string) => workflowId.startsWith(reconcileWorkflowId(''));

/** Runs `fn` over `items`, `width` at a time (each `fn` answers, never throws), the answers in order. */
async function inBatches<T, R>(items: readonly T[], fn: (item: T) => Promise<R>, width = 32): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += width) out.push(...(await Promise.all(items.slice(i, i + width).map(fn))));
  return out;
}

/**
 * `query`'s answer on `workflowId` within QUERY_DEADLINE_MS, `{ blind }` (why not: no worker polls the run's task
 * queue, described then), or undefined when the workflow is gone.
 */
async function readRun<R>(
  client: Client,
  workflowId: string,
  query: (handle: WorkflowHandle) => Promise<R>,
): Promise<{ value: R } | { blind: string } | undefined> {
  const handle = client.workflow.getHandle(workflowId);
  try {
    return { value: await client.withDeadline(Date.now() + QUERY_DEADLINE_MS, () => query(handle)) };
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return undefined;
    return { blind: await blindLine(client, (await handle.describe()).taskQueue) };
  }
}

/** `readRun`'s answer. @throws HttpError 404 when the workflow is gone, 409 (the line) when no worker answers */
export async function mustRead<R>(
  client: Client,
  workflowId: string,
  query: (handle: WorkflowHandle) => Promise<R>,
): Promise<R> {
  const read = await readRun(client, workflowId, query);
  if (read === undefined) throw new HttpError(404, `workflow ${workflowId.slice(0, 200)} was not found`);
  if ('blind' in read) throw new HttpError(409, read.blind);
  return read.value;
}

async function blindLine(client: Client, queue: string): Promise<string> {
  const described = await client.workflowService
    .describeTaskQueue({
      namespace: client.options.namespace,
      taskQueue: { name: queue, kind: 1 as temporal.api.enums.v1.TaskQueueKind }, // NORMAL
      taskQueueType: 1 as temporal.api.enums.v1.TaskQueueType, // WORKFLOW
    })
    .catch(() => undefined);
  const last = Math.max(0, ...(described?.pollers ?? []).map((p) => Number(p.lastAccessTime?.seconds ?? 0) * 1000));
  return `details cannot be read: no worker polls ${queue}${last ? ` since ${new Date(last).toISOString()}` : ''}`;
}

/** The waiting runs as visibility lists them (two List calls, no query): what the feed sends, with the server's clock. */
export async function listing(client: Client): Promise<Listing> {
  const [approvals, reviews] = await Promise.all([listApprovals(client), listReviews(client)]);
  return {
    nowMs: Date.now(),
    approvals: approvals.sort((a, b) => a.startedAtMs - b.startedAtMs),
    reviews: reviews.sort((a, b) => a.sinceMs - b.sinceMs),
  };
}

/**
 * A run's details, read now by query: its waiting calls (`recovery.pendingApprovals`) or, for `reconcile:<id>`, its
 * case (`recovery.reviewCase`), each with the person's view; `{ blind }` when no worker answers; undefined when the
 * workflow is gone. `keep` sees each call's rendering (the desk keeps it for the decision).
 */
export async function readDetails(
  client: Client,
  workflowId: string,
  keep: (call: PendingApproval, shown: Rendered | null) => void = () => {},
): Promise<Details | undefined> {
  if (isReviewRun(workflowId)) {
    const read = await readRun(client, workflowId, (h) => h.query(reviewCaseQuery, WITH_ARGUMENTS));
    if (read === undefined || 'blind' in read) return read;
    const { argsSummary: _summary, args, ...shown } = read.value;
    return { case: { ...shown, view: rendered(args)?.view ?? null } };
  }
  const read = await readRun(client, workflowId, (h) => h.query(pendingApprovalsQuery, WITH_ARGUMENTS));
  if (read === undefined || 'blind' in read) return read && { calls: [], blind: read.blind };
  const calls = read.value.map(({ argsPreview: _p, args, ...c }) => {
    const shown = rendered(args, c.argsDigest);
    keep({ ...c, argsPreview: undefined }, shown);
    return { ...c, view: shown?.view ?? null };
  });
  return { calls };
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
    const lists = await inBatches(infos, (info) => this.itemsOrWhy(info));
    return lists.flat().sort((a, b) => b.atMs - a.atMs);
  }

  /** A run's rows; one `unreadable` row when its query goes unanswered; none when the workflow is gone. */
  private async itemsOrWhy(info: WorkflowExecutionInfo): Promise<HistoryItem[]> {
    try {
      return await this.itemsOf(info);
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return [];
      const why = await blindLine(this.client, info.taskQueue);
      return [unreadableRun(info.workflowId, isReviewRun(info.workflowId), why, info.startTime.getTime())];
    }
  }

  private async itemsOf(info: WorkflowExecutionInfo): Promise<HistoryItem[]> {
    const key = `${info.workflowId}/${info.runId}`;
    const cached = this.closed.get(key);
    if (cached) return cached;
    const handle = this.client.workflow.getHandle(info.workflowId, info.runId);
    const isReview = isReviewRun(info.workflowId);
    const bounded = <R>(query: () => Promise<R>) => this.client.withDeadline(Date.now() + QUERY_DEADLINE_MS, query);
    const items = isReview
      ? historyOfCase(info.workflowId, await bounded(() => handle.query(reviewCaseQuery)))
      : historyOfLedger(info.workflowId, await bounded(() => handle.query(approvalLedgerQuery)));
    if (info.status.name !== 'RUNNING') {
      if (this.closed.size >= 1_000) this.closed.clear();
      this.closed.set(key, items);
    }
    return items;
  }
}
