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
import { approvalListing, type ApprovalListing } from '../approvals';
import { reviewListing, type ReviewListing } from '../reviews';
import { listWaiting } from '../waiting';
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

  /** Whether a read of this snapshot found no worker answering on `queue`. */
  isBlind(queue: string): boolean {
    return this.blind.has(queue);
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

/**
 * The feed's kept answers, by workflow id: each run's details, kept while its history length as visibility lists it
 * stays the same and the desk did not decide on it (`LiveFeed.forget`). The dev server's visibility lists a running
 * run's length as 0 (checked on Temporal CLI 1.9.1), so what bounds a kept answer's age there is the re-read: each
 * snapshot reads again the kept answers CACHED_MS old, oldest first, at least REFRESH_PER_READ and a 1/REFRESH_ROUNDS
 * share of them, and the oldest of each task queue. That read finds a worker gone (then every run of its queue shows
 * blind), a call that began to wait or a decision taken elsewhere, without a call per run per poll.
 */
export type SnapshotCache = Map<string, { length: number; queue: string; entry: object; atMs: number }>;
const CACHED_MS = 10_000;
const REFRESH_PER_READ = 8;
const REFRESH_ROUNDS = 30;

/** The kept answers `snapshot` may send as they are; forgets runs not listed, grown, or due to be read again. */
function keptAnswers(cache: SnapshotCache, runs: readonly WorkflowExecutionInfo[]): Map<string, object> {
  const listed = new Map(runs.map((r) => [r.workflowId, r.historyLength]));
  for (const [id, c] of cache) if (listed.get(id) !== c.length) cache.delete(id);
  const due = [...cache].filter(([, c]) => Date.now() - c.atMs >= CACHED_MS).sort(([, a], [, b]) => a.atMs - b.atMs);
  const [probed, share] = [new Set<string>(), Math.max(REFRESH_PER_READ, Math.ceil(cache.size / REFRESH_ROUNDS))];
  for (const [i, [id, c]] of due.entries()) {
    if (i < share || !probed.has(c.queue)) cache.delete(id);
    probed.add(c.queue);
  }
  return new Map([...cache].map(([id, c]) => [id, c.entry]));
}

/**
 * Every waiting run (two visibility List calls), with its details or why they are missing: a query per run, or with
 * `cache` only for the runs it does not keep (a queue found blind turns its kept runs blind too).
 */
export async function snapshot(client: Client, cache?: SnapshotCache): Promise<Snapshot> {
  const [approvalRuns, reviewRuns] = await Promise.all([
    listWaiting(client, 'AwaitingApproval'),
    listWaiting(client, 'AwaitingReview'),
  ]);
  const reader = new RunReader(client);
  const kept = cache ? keptAnswers(cache, [...approvalRuns, ...reviewRuns]) : new Map<string, object>();
  const details = async <E extends object>(
    runs: WorkflowExecutionInfo[],
    read: (i: WorkflowExecutionInfo) => Promise<E | undefined>,
  ) => {
    const answers = await settled(
      runs.filter((r) => !kept.has(r.workflowId)),
      async (info) => {
        const entry = await read(info);
        if (entry && !('blind' in entry)) {
          const atMs = Date.now();
          cache?.set(info.workflowId, { length: info.historyLength, queue: info.taskQueue, entry, atMs });
        }
        return entry;
      },
    );
    const hits = runs.filter((r) => kept.has(r.workflowId));
    return [
      ...answers,
      ...(await Promise.all(
        hits.map(async (r) => (reader.isBlind(r.taskQueue) ? read(r) : (kept.get(r.workflowId) as E))),
      )),
    ];
  };
  const approvals = await details(approvalRuns, async (info): Promise<Snapshot['approvals'][number] | undefined> => {
    const a = approvalListing(info);
    const read = await reader.read(a.workflowId, a.taskQueue, (h) => h.query(pendingApprovalsQuery, WITH_ARGUMENTS));
    if (read === undefined || 'blind' in read) return read && { ...a, calls: [], blind: read.blind };
    const calls = read.value.map(({ argsPreview: _p, args, ...c }) => ({
      ...c,
      view: rendered(args, c.argsDigest)?.view ?? null,
    }));
    return { ...a, calls };
  });
  const reviews = await details(reviewRuns, async (info): Promise<Snapshot['reviews'][number] | undefined> => {
    const r = reviewListing(info);
    const read = await reader.read(r.workflowId, r.taskQueue, (h) => h.query(reviewCaseQuery, WITH_ARGUMENTS));
    if (read === undefined || 'blind' in read) return read && { ...r, blind: read.blind };
    const { argsSummary: _summary, args, ...shown } = read.value;
    return { ...r, case: { ...shown, view: rendered(args)?.view ?? null } };
  });
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
