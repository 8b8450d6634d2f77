/**
 * What the desk's pages show: visibility lists the runs that wait (`RecoveryStatus`, operator/waiting.ts), so they
 * show with no worker; a query per run (`recovery.pendingApprovals`, `recovery.reviewCase`, with their arguments)
 * gives its calls or case and the person's rendering (./human-view.ts); unanswered within QUERY_DEADLINE_MS, the run
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
import { historyOfCase, historyOfLedger, type HistoryItem } from './history';
import { HttpError } from './http';
import { rendered, type HumanView } from './human-view';

type Viewed<T, Raw extends keyof T> = Omit<T, Raw | 'args'> & { view: HumanView | null };
type Waiting = {
  approvals: ApprovalListing & { calls: Array<Viewed<PendingApproval, 'argsPreview'>> };
  reviews: ReviewListing & { case?: Viewed<ReviewCase, 'argsSummary'> };
};
/** What the feed sends: the server's clock (ms), each waiting run with its details (the person's view) or `blind`. */
export type Snapshot = { nowMs: number } & { [K in keyof Waiting]: Array<Waiting[K] & { blind?: string }> };

/** How long one workflow's query may take, ms (the server's own query timeout is about 30 s). */
export const QUERY_DEADLINE_MS = 3_000;
export const WITH_ARGUMENTS = { arguments: true }; // the query option that asks for the arguments in full

/** Runs `fn` over `items`, `width` at a time, keeping the answers that did not throw, in order. */
async function settled<T, R>(items: readonly T[], fn: (item: T) => Promise<R>, width = 32): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += width) {
    const answers = await Promise.allSettled(items.slice(i, i + width).map(fn));
    for (const a of answers) if (a.status === 'fulfilled') out.push(a.value);
  }
  return out;
}

/** Reads runs by query within QUERY_DEADLINE_MS, else says why; a queue past one deadline is not queried again. */
export class RunReader {
  private readonly blind = new Map<string, Promise<string>>();

  constructor(private readonly client: Client) {}

  /** `query`'s answer, `{ blind }`, or undefined when the workflow is gone. `taskQueue`: the run's, if known. */
  async read<R>(
    workflowId: string,
    taskQueue: string | undefined,
    query: (handle: WorkflowHandle) => Promise<R>,
  ): Promise<{ value: R } | { blind: string } | undefined> {
    const handle = this.client.workflow.getHandle(workflowId);
    const known = taskQueue === undefined ? undefined : this.blind.get(taskQueue);
    if (known) return { blind: await known };
    try {
      return { value: await this.client.withDeadline(Date.now() + QUERY_DEADLINE_MS, () => query(handle)) };
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return undefined;
      const queue = taskQueue ?? (await handle.describe()).taskQueue;
      const line = this.blind.get(queue) ?? this.lineFor(queue);
      // Only "nobody answered" (gRPC DEADLINE_EXCEEDED, 4) speaks for the whole queue.
      if ((err as { cause?: { code?: unknown } }).cause?.code === 4) this.blind.set(queue, line);
      return { blind: await line };
    }
  }

  /** `read`'s answer. @throws HttpError 404 when the workflow is gone, 409 (the line) when no worker answers */
  async must<R>(workflowId: string, query: (handle: WorkflowHandle) => Promise<R>): Promise<R> {
    const read = await this.read(workflowId, undefined, query);
    if (read === undefined) throw new HttpError(404, `workflow ${workflowId.slice(0, 200)} was not found`);
    if ('blind' in read) throw new HttpError(409, read.blind);
    return read.value;
  }

  private async lineFor(queue: string): Promise<string> {
    const described = await this.client.workflowService
      .describeTaskQueue({
        namespace: this.client.options.namespace,
        taskQueue: { name: queue, kind: 1 as temporal.api.enums.v1.TaskQueueKind }, // NORMAL
        taskQueueType: 1 as temporal.api.enums.v1.TaskQueueType, // WORKFLOW
      })
      .catch(() => undefined);
    const last = Math.max(0, ...(described?.pollers ?? []).map((p) => Number(p.lastAccessTime?.seconds ?? 0) * 1000));
    return `details cannot be read: no worker polls ${queue}${last ? ` since ${new Date(last).toISOString()}` : ''}`;
  }
}

/** With a cache, a run's answer is kept this long, ms, while its history does not grow: a worker gone shows then. */
const CACHED_MS = 10_000;
export type SnapshotCache = Map<string, { length: number; entry: object; atMs: number }>;

/**
 * Every waiting run, with its details or why they are missing. With `cache`, a run is queried again when its history
 * grew (describe's `historyLength`: a query's answer changes only with new events), was blind, or after CACHED_MS.
 */
export async function snapshot(client: Client, cache?: SnapshotCache): Promise<Snapshot> {
  const [listedApprovals, listedReviews] = await Promise.all([listApprovals(client), listReviews(client)]);
  const reader = new RunReader(client);
  const once = async <E extends object>(id: string, read: () => Promise<E | undefined>) => {
    if (!cache) return read();
    const { historyLength: length } = await client.workflow.getHandle(id).describe();
    const hit = cache.get(id);
    if (hit?.length === length && Date.now() - hit.atMs < CACHED_MS) return hit.entry as E;
    const entry = await read();
    if (entry && !('blind' in entry)) cache.set(id, { length, entry, atMs: Date.now() });
    return entry;
  };
  const approvals = await settled(listedApprovals, (a) =>
    once(a.workflowId, async (): Promise<Snapshot['approvals'][number] | undefined> => {
      const read = await reader.read(a.workflowId, a.taskQueue, (h) => h.query(pendingApprovalsQuery, WITH_ARGUMENTS));
      if (read === undefined || 'blind' in read) return read && { ...a, calls: [], blind: read.blind };
      const calls = read.value.map(({ argsPreview: _p, args, ...c }) => ({
        ...c,
        view: rendered(args, c.argsDigest)?.view ?? null,
      }));
      return { ...a, calls };
    }),
  );
  const reviews = await settled(listedReviews, (r) =>
    once(r.workflowId, async (): Promise<Snapshot['reviews'][number] | undefined> => {
      const read = await reader.read(r.workflowId, r.taskQueue, (h) => h.query(reviewCaseQuery, WITH_ARGUMENTS));
      if (read === undefined || 'blind' in read) return read && { ...r, blind: read.blind };
      const { argsSummary: _summary, args, ...shown } = read.value;
      return { ...r, case: { ...shown, view: rendered(args)?.view ?? null } };
    }),
  );
  const listed = new Set([...listedApprovals, ...listedReviews].map((l) => l.workflowId));
  for (const id of cache?.keys() ?? []) if (!listed.has(id)) cache!.delete(id);
  return {
    nowMs: Date.now(),
    approvals: approvals
      .flatMap((w) => (w && (w.blind || w.calls.length) ? [w] : []))
      .sort((a, b) => a.startedAtMs - b.startedAtMs),
    reviews: reviews
      .flatMap((r) => (r && (r.blind || r.case?.status === 'awaiting_review') ? [r] : []))
      .sort((a, b) => a.sinceMs - b.sinceMs),
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
