/**
 * The lifecycle rows of the write-safety matrix (issue 35): what Temporal and its operators do to a run around a
 * write — a second start under the same workflow id, cron and schedule runs, a workflow retry, a reset, continue-as-new
 * or terminate while a review waits, and the operator's activity commands (reset, pause, update-options) on the write's
 * activity. A cell counts per intent (one business payment each): the rows its runs left in the store (sequential
 * intents: the rows that appeared while it ran; concurrent ones: the rows of its own keys) and what its last run
 * said. A review decision that a reconciliation accepts whose result no run reads (the run was terminated, or moved
 * on without it) is `LOST`.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Client, WorkflowExecutionDescription, WorkflowHandle } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { toolCatalog } from '../../activities/define-tool';
import { RECOVERY_PRELOAD_MODULES } from '../../plugin/recovery-plugin';
import { temporalBinaries } from '../../scripts/temporal-binaries';
import { decideReviewUpdate, reconcileWorkflowId, reviewCaseQuery } from '../../workflows/definitions';
import type { ToolPlanResult } from '../../workflows/tool-plan';
import type { CellResult } from './cell';
import type { Column } from './columns';
import { inProcessWorker, type CellEnv } from './drivers';
import type { FaultRow } from './fault-kinds';
import { describeLeaks, scanHistory } from './leaks';
import { toolsOf } from './pay-tools';
import { startPaymentsService, type PaymentsService } from './payments-service';
import { planOf } from './runs';
import { pause } from './time';
import { byKey, type Intent, type Watched } from './intents';
import { cellVerdict, type OpFacts } from './verdict';

/** What happens to the run around its write. */
export type Lifecycle =
  /** The workflow id is started again once the first run completed (`start`, or `signalWithStart`). */
  | { kind: 'reused_id'; via: 'start' | 'signal_with_start' }
  /** A cron workflow (`cronSchedule: '@every 4s'`); `runs` of its runs are watched. */
  | { kind: 'cron'; runs: number }
  /** A schedule every 2 s, overlap ALLOW_ALL; `runs` of its actions are watched. */
  | { kind: 'schedule'; runs: number }
  /** The run fails once after its payment; its retry policy (2 attempts) runs it again. */
  | { kind: 'workflow_retry' }
  /** The run is reset (`temporal workflow reset --type`) after it completed, or while its write awaits review. */
  | { kind: 'reset'; at: 'completed' | 'review'; type: 'FirstWorkflowTask' | 'LastWorkflowTask' }
  /** While its write awaits review the run continues as new (carrying the router's state) and calls again. */
  | { kind: 'continue_as_new_during_review' }
  /** The run is terminated while its write awaits review. */
  | { kind: 'terminate_during_review' }
  /** An operator command on the write's running activity once its POST arrived. */
  | { kind: 'activity'; op: 'reset' | 'pause_unpause' | 'update_attempts' };

const DEFAULT_BUDGET_MS = 60_000;
/**
 * `pay`'s StartToClose in the activity rows: their POST hangs until the operator's command was answered (the
 * service then resets it), so the attempt must outlive a CLI start on a loaded machine; this only bounds a harness
 * that never releases it.
 */
const HELD_START_TO_CLOSE_MS = 120_000;
/** A run that showed progress is wedged only after this many times its longest gap between progress so far. */
const PACE_FACTOR = 3;
/** CLI answers that name a transient state of the server (asked again, at most `CLI_TRIES` times). */
const TRANSIENT = /Workflow is busy|resource exhausted|Unavailable|deadline exceeded/i;
const CLI_TRIES = 10;
const LIFECYCLE_WORKFLOWS = require.resolve('./lifecycle-workflows');
let bundled: Promise<string> | undefined;

/** The lifecycle rows' bundle (the plugin's workflows and ./lifecycle-workflows.ts), built once per process. */
function lifecycleBundle(dir: string): Promise<string> {
  bundled ??= bundleWorkflowCode({
    workflowsPath: LIFECYCLE_WORKFLOWS,
    preloadModules: [...RECOVERY_PRELOAD_MODULES, LIFECYCLE_WORKFLOWS],
    logger: new DefaultLogger('ERROR'),
  }).then((b) => {
    const path = join(dir, 'lifecycle-workflows.js');
    writeFileSync(path, b.code);
    return path;
  });
  return bundled;
}

/** What a cell's flow reports: its intents, the runs whose histories are scanned, and problems of its own. */
interface Flow {
  intents: Intent[];
  workflowIds: string[];
  problems: string[];
}

interface Ctx {
  client: Client;
  service: PaymentsService;
  taskQueue: string;
  tag: string;
  address: string;
  /** Bounds the harness's own waits (a cron's next run, a schedule's actions, a continue-as-new). */
  deadline: number;
  /** A run with no progress (history events, activity attempts, its reconciliations' events) this long is wedged. */
  stallMs: number;
  plan: ReturnType<typeof planOf>;
}

export async function runLifecycleCell(row: FaultRow, column: Column, env: CellEnv): Promise<CellResult> {
  const started = Date.now();
  const base = { row: row.id, column: column.id };
  const lifecycle = row.lifecycle!;
  const tag = `${row.id}.${column.id}.${Math.random().toString(36).slice(2, 8)}`;
  const service = await startPaymentsService({
    dedupe: column.dedup,
    post: row.post,
    read: row.read ?? { kind: 'none' },
    tmpDir: env.dir,
  });
  const recipe = {
    url: service.url,
    column,
    quirk: row.quirk ?? { kind: 'none' as const },
    ...(lifecycle.kind === 'activity' ? { startToCloseMs: HELD_START_TO_CLOSE_MS } : {}),
  };
  const taskQueue = `ws-${tag}`;
  const worker = await inProcessWorker(env.connection, taskQueue, recipe, await lifecycleBundle(env.dir));
  try {
    const workflowId = `ws-${tag}`;
    const ctx: Ctx = {
      client: env.client,
      service,
      taskQueue,
      tag: workflowId,
      address: env.address,
      deadline: Date.now() + (row.budgetMs ?? DEFAULT_BUDGET_MS) * (env.budgetScale ?? 1),
      stallMs: row.budgetMs ?? DEFAULT_BUDGET_MS,
      plan: planOf(toolCatalog(toolsOf(recipe)), workflowId, 1),
    };
    const flow = await FLOWS[lifecycle.kind](ctx, lifecycle as never);
    const opIds = flow.intents.flatMap((i) => i.opIds);
    const ids = [...flow.workflowIds, ...new Set(opIds.map(reconcileWorkflowId))];
    await Promise.all(ids.map((id) => terminateOpen(env.client, id)));
    const events = await Promise.all(ids.slice(0, 10).map((id) => historyOf(env.client, id)));
    const leaks = describeLeaks(events.flatMap((e) => scanHistory(e, row.secrets ?? [])));
    const { shutdownHung, shutdownMs } = await worker.stop();
    await service.drain(20_000);
    const ops: OpFacts[] = flow.intents.map((i) => ({
      operationId: `${i.label} (${i.opIds.join(', ') || 'no operation id seen'})`,
      rows: i.rows,
      posts: i.posts,
      claim: i.claim,
      said: i.said,
    }));
    const { verdict, problems } = cellVerdict({ ops, leaks, shutdownHung, extra: flow.problems });
    return { ...base, verdict, problems, ops, ms: Date.now() - started, notes: { posts: service.posts(), shutdownMs } };
  } catch (err) {
    await worker.stop();
    const message = err instanceof Error ? err.message : String(err);
    return { ...base, verdict: 'ERR', problems: [`ERR: ${message}`], ops: [], ms: Date.now() - started, notes: {} };
  } finally {
    await service.close();
  }
}

/** The claim of a plan result's first outcome. */
function claimOf(result: ToolPlanResult): Watched {
  const o = result.outcomes[0];
  if (!o) return { claim: 'not_reached', said: 'no outcome', opIds: [] };
  if (o.ok) return { claim: 'applied', said: `ok${o.reconciled ? ` (${o.reconciled})` : ''}`, opIds: [o.operationId] };
  const claim = o.failure.class === 'outcome_unknown' ? 'unknown' : 'failed';
  return { claim, said: `${o.failure.class}/${o.failure.reason} → ${o.action}`, opIds: [o.operationId] };
}

/** A completed run's own result, read from its history (a cron run's `result()` follows its chain). */
async function resultOf(h: WorkflowHandle): Promise<ToolPlanResult> {
  const events = (await h.fetchHistory()).events ?? [];
  const done = events.at(-1)?.workflowExecutionCompletedEventAttributes;
  return defaultPayloadConverter.fromPayload<ToolPlanResult>(done!.result!.payloads![0]!);
}

/** The reconciliations a run has open (its pending children named `reconcile:<operationId>`). */
async function openReconciliations(h: WorkflowHandle): Promise<string[]> {
  const d = await h.describe();
  const prefix = reconcileWorkflowId('');
  return (d.raw.pendingChildren ?? [])
    .map((c) => c.workflowId ?? '')
    .filter((id) => id.startsWith(prefix))
    .map((id) => id.slice(prefix.length));
}

/** Whether `opId`'s reconciliation awaits a person now. */
async function awaitsReview(client: Client, opId: string): Promise<boolean> {
  try {
    const c = await client.workflow.getHandle(reconcileWorkflowId(opId)).query(reviewCaseQuery);
    return c.status === 'awaiting_review';
  } catch {
    return false;
  }
}

/**
 * What shows a run moving, as one string: its run id and history length, its pending activities' attempts and
 * states, and the history lengths of its open reconciliations (a run that waits on one adds no events of its own).
 */
async function progressMark(client: Client, d: WorkflowExecutionDescription, open: string[]): Promise<string> {
  const acts = (d.raw.pendingActivities ?? []).map((a) => `${a.activityId}:${a.attempt}:${a.state}`);
  const kids = await Promise.all(
    open.map((id) =>
      client.workflow
        .getHandle(reconcileWorkflowId(id))
        .describe()
        .then(
          (c) => c.historyLength,
          () => -1,
        ),
    ),
  );
  return [d.runId, d.historyLength, ...acts, ...kids].join('|');
}

/**
 * Watches a run (`runId`), or the newest run of `workflowId` (a reset or continue-as-new moves to it), until it ended
 * or awaited review for 2 s. `onReview` acts once, at the first review; watching goes on. A run is `open` (wedged)
 * only on evidence: no progress (`progressMark`) for `ctx.stallMs`, or for `PACE_FACTOR` times the longest gap
 * between its progress seen so far when that is longer (a loaded machine slows every step alike).
 */
async function watch(
  ctx: Ctx,
  workflowId: string,
  runId?: string,
  onReview?: (opId: string) => Promise<void>,
): Promise<Watched> {
  let reviewSince: number | undefined;
  let acted = onReview === undefined;
  let opIds: string[] = [];
  let mark = '';
  let markAt = Date.now();
  let longestGap = 0;
  for (;;) {
    // A given run's result, not its chain's: a cron run's chain never ends.
    const h = ctx.client.workflow.getHandle(workflowId, runId, { followRuns: runId === undefined });
    const d = await h.describe().catch(() => undefined); // not visible yet
    const status = d?.status.name ?? 'RUNNING';
    if (status === 'COMPLETED') {
      const w = claimOf(await resultOf(h));
      return { ...w, opIds: [...new Set([...opIds, ...w.opIds])] };
    }
    if (status !== 'RUNNING' && status !== 'CONTINUED_AS_NEW') return { claim: 'failed', said: `run ${status}`, opIds };
    if (status === 'CONTINUED_AS_NEW') runId = undefined;
    const open = status === 'RUNNING' ? await openReconciliations(h).catch(() => []) : [];
    opIds = [...new Set([...opIds, ...open])];
    const inReview = (await Promise.all(open.map((id) => awaitsReview(ctx.client, id)))).some(Boolean);
    if (inReview && !acted) {
      acted = true;
      await onReview!(open[0]!);
      reviewSince = undefined;
      markAt = Date.now(); // the harness's own action is no gap of the run's
      continue;
    }
    if (inReview) {
      reviewSince ??= Date.now();
      if (Date.now() - reviewSince > 2_000) return { claim: 'review', said: 'awaits review', opIds };
    } else reviewSince = undefined;
    const now = Date.now();
    const seen = d ? await progressMark(ctx.client, d, open) : mark;
    if (seen !== mark) {
      if (mark !== '') longestGap = Math.max(longestGap, now - markAt);
      [mark, markAt] = [seen, now];
    }
    const stall = Math.max(ctx.stallMs, PACE_FACTOR * longestGap);
    if (now - markAt > stall)
      return { claim: 'open', said: `still running, nobody asked (no progress for ${stall} ms)`, opIds };
    await pause(300);
  }
}

/**
 * Runs `fn` and counts the rows and POSTs that appeared meanwhile as one intent's: for intents the harness starts
 * itself, one at a time (runs that start by themselves are counted `byKey`).
 */
async function intent(ctx: Ctx, label: string, fn: () => Promise<Watched>): Promise<Intent> {
  const rows = ctx.service.rows();
  const posts = ctx.service.posts();
  const w = await fn();
  await ctx.service.drain(10_000);
  return { label, ...w, rows: ctx.service.rows() - rows, posts: ctx.service.posts() - posts };
}

const startPlan = (ctx: Ctx, workflowId = ctx.tag, more: object = {}) =>
  ctx.client.workflow.start('toolPlanWorkflow', {
    taskQueue: ctx.taskQueue,
    workflowId,
    args: [ctx.plan],
    ...more,
  });

/**
 * `temporal <args>` against the cell's server. An answer naming a transient state (`Workflow is busy`: the run's
 * workflow task is in flight) is asked again once the previous answer came, at most `CLI_TRIES` times.
 */
async function cli(ctx: Ctx, args: string[]): Promise<void> {
  for (let tries = 1; ; tries++) {
    try {
      await promisify(execFile)(temporalBinaries().cli, [...args, '--address', ctx.address], { timeout: 60_000 });
      return;
    } catch (err) {
      if (tries >= CLI_TRIES || !TRANSIENT.test(String(err))) throw err;
      await pause(200);
    }
  }
}

/** Resolves once `pred` holds for the run's pending activity `1` (absent: `undefined`), or the deadline passed. */
async function untilActivity(
  ctx: Ctx,
  pred: (a: { attempt?: number | null; lastFailure?: unknown } | undefined) => boolean,
): Promise<boolean> {
  const h = ctx.client.workflow.getHandle(ctx.tag);
  while (Date.now() < ctx.deadline) {
    const d = await h.describe().catch(() => undefined);
    if (d && pred((d.raw.pendingActivities ?? []).find((a) => a.activityId === '1'))) return true;
    await pause(100);
  }
  return false;
}

/** A `replay` decision for `opId`, sent as an update: whether the reconciliation accepted it. */
async function decideReplay(ctx: Ctx, opId: string): Promise<boolean> {
  const child = ctx.client.workflow.getHandle(reconcileWorkflowId(opId));
  const decision = { operationId: opId, decision: 'replay' as const, by: 'ops@example', reason: 'lifecycle row' };
  return child.executeUpdate(decideReviewUpdate, { args: [decision] }).then(
    () => true,
    () => false,
  );
}

/**
 * A replay decision a reconciliation accepted must reach the run that owns the intent: its outcome says
 * `review_replay`. Otherwise the replay's result reached no run (`LOST`).
 */
function decisionReached(accepted: boolean, w: Watched): string[] {
  return accepted && !w.said.includes('review_replay')
    ? [`LOST: a reconciliation accepted a replay decision whose result no run read (the run said ${w.said})`]
    : [];
}

type FlowOf<K extends Lifecycle['kind']> = (ctx: Ctx, l: Extract<Lifecycle, { kind: K }>) => Promise<Flow>;

const reusedId: FlowOf<'reused_id'> = async (ctx, l) => {
  const first = await intent(ctx, 'first start', async () =>
    watch(ctx, ctx.tag, (await startPlan(ctx)).firstExecutionRunId),
  );
  const second = await intent(ctx, `second start (${l.via})`, async () => {
    const runId =
      l.via === 'start'
        ? (await startPlan(ctx)).firstExecutionRunId
        : (
            await ctx.client.workflow.signalWithStart('toolPlanWorkflow', {
              taskQueue: ctx.taskQueue,
              workflowId: ctx.tag,
              args: [ctx.plan],
              signal: 'lifecycle.nudge',
              signalArgs: [],
            })
          ).signaledRunId;
    return watch(ctx, ctx.tag, runId);
  });
  return { intents: [first, second], workflowIds: [ctx.tag], problems: [] };
};

const cron: FlowOf<'cron'> = async (ctx, l) => {
  const h = await startPlan(ctx, ctx.tag, { cronSchedule: '@every 4s' });
  const watched: [string, Watched][] = [];
  const problems: string[] = [];
  let runId = h.firstExecutionRunId;
  for (let i = 0; i < l.runs; i++) {
    const ran = runId;
    watched.push([`cron run ${i + 1}`, await watch(ctx, ctx.tag, ran)]);
    if (i + 1 === l.runs) break;
    while (Date.now() < ctx.deadline && runId === ran) {
      runId = (await ctx.client.workflow.getHandle(ctx.tag).describe()).runId;
      await pause(200);
    }
    if (runId === ran) {
      problems.push(`cron run ${i + 2} did not start within the cell's budget`);
      break;
    }
  }
  await ctx.service.drain(10_000);
  return { intents: byKey(ctx.service, watched), workflowIds: [ctx.tag], problems };
};

const schedule: FlowOf<'schedule'> = async (ctx, l) => {
  const s = await ctx.client.schedule.create({
    scheduleId: ctx.tag,
    spec: { intervals: [{ every: '2s' }] },
    action: {
      type: 'startWorkflow',
      workflowType: 'toolPlanWorkflow',
      taskQueue: ctx.taskQueue,
      args: [ctx.plan],
      workflowId: ctx.tag,
    },
    policies: { overlap: 'ALLOW_ALL' },
  });
  let started: { workflowId: string; firstExecutionRunId: string }[] = [];
  while (started.length < l.runs && Date.now() < ctx.deadline) {
    started = (await s.describe()).info.recentActions.map((a) => a.action.workflow);
    await pause(200);
  }
  await s.delete();
  const runs = started.slice(0, l.runs);
  const watched = await Promise.all(runs.map((r) => watch(ctx, r.workflowId, r.firstExecutionRunId)));
  await ctx.service.drain(10_000);
  const intents = byKey(
    ctx.service,
    watched.map((w, i) => [`schedule run ${i + 1}`, w]),
  );
  return { intents, workflowIds: runs.map((r) => r.workflowId), problems: [] };
};

const workflowRetry: FlowOf<'workflow_retry'> = async (ctx) => {
  const only = await intent(ctx, 'paid, failed, retried', async () => {
    await ctx.client.workflow.start('payThenFailOnce', {
      taskQueue: ctx.taskQueue,
      workflowId: ctx.tag,
      args: [ctx.plan],
      retry: { maximumAttempts: 2, initialInterval: '1s' },
    });
    return watch(ctx, ctx.tag);
  });
  return { intents: [only], workflowIds: [ctx.tag], problems: [] };
};

const reset: FlowOf<'reset'> = async (ctx, l) => {
  let accepted = false;
  const resetRun = () => cli(ctx, ['workflow', 'reset', '-w', ctx.tag, '--type', l.type, '--reason', 'lifecycle row']);
  const only = await intent(
    ctx,
    `reset (${l.type}) ${l.at === 'completed' ? 'after it completed' : 'during review'}`,
    async () => {
      const h = await startPlan(ctx);
      if (l.at === 'completed') {
        await watch(ctx, ctx.tag, h.firstExecutionRunId);
        await resetRun();
        return watch(ctx, ctx.tag);
      }
      return watch(ctx, ctx.tag, undefined, async (opId) => {
        await resetRun();
        await pause(3_000);
        accepted = await decideReplay(ctx, opId);
      });
    },
  );
  return { intents: [only], workflowIds: [ctx.tag], problems: decisionReached(accepted, only) };
};

const continueAsNewDuringReview: FlowOf<'continue_as_new_during_review'> = async (ctx) => {
  let accepted = false;
  const only = await intent(ctx, 'continued as new during review', async () => {
    const h = await ctx.client.workflow.start('payRotating', {
      taskQueue: ctx.taskQueue,
      workflowId: ctx.tag,
      args: [ctx.plan, 8_000],
    });
    return watch(ctx, ctx.tag, undefined, async (opId) => {
      const latest = ctx.client.workflow.getHandle(ctx.tag);
      while (Date.now() < ctx.deadline && (await latest.describe()).runId === h.firstExecutionRunId) await pause(300);
      await pause(1_000);
      accepted = await decideReplay(ctx, opId);
    });
  });
  return { intents: [only], workflowIds: [ctx.tag], problems: decisionReached(accepted, only) };
};

const terminateDuringReview: FlowOf<'terminate_during_review'> = async (ctx) => {
  let accepted = false;
  const only = await intent(ctx, 'terminated during review', async () => {
    const h = await startPlan(ctx);
    let terminated: string | undefined;
    const w = await watch(ctx, ctx.tag, h.firstExecutionRunId, async (opId) => {
      terminated = opId;
      await h.terminate('lifecycle row');
      await pause(1_000);
      accepted = await decideReplay(ctx, opId);
      await pause(3_000);
    });
    return terminated === undefined ? w : { claim: 'failed' as const, said: 'run TERMINATED', opIds: [terminated] };
  });
  return { intents: [only], workflowIds: [ctx.tag], problems: decisionReached(accepted, only) };
};

const activity: FlowOf<'activity'> = async (ctx, l) => {
  const problems: string[] = [];
  const only = await intent(ctx, `activity ${l.op}`, async () => {
    const posted = ctx.service.nextPost();
    const h = await startPlan(ctx);
    await posted;
    // The POST committed and hangs, held by the service until the command below was answered: the command always
    // finds the write's attempt running, however slow the CLI starts.
    if (!(await untilActivity(ctx, (a) => a !== undefined))) problems.push('ERR: the write never showed as pending');
    const target = ['--workflow-id', ctx.tag, '--activity-id', '1'];
    try {
      if (l.op === 'reset') await cli(ctx, ['activity', 'reset', ...target]);
      if (l.op === 'update_attempts')
        await cli(ctx, ['activity', 'update-options', ...target, '--retry-maximum-attempts', '3']);
      if (l.op === 'pause_unpause') await cli(ctx, ['activity', 'pause', ...target]);
    } finally {
      ctx.service.releaseHung();
    }
    if (l.op === 'pause_unpause') {
      // Unpaused once the held attempt ended (the activity is gone, or carries its failure), and 4 s after the pause.
      await Promise.all([
        pause(4_000),
        untilActivity(ctx, (a) => a === undefined || (a.lastFailure ?? undefined) !== undefined),
      ]);
      await cli(ctx, ['activity', 'unpause', ...target]).catch(() => undefined);
    }
    return watch(ctx, ctx.tag, h.firstExecutionRunId);
  });
  return { intents: [only], workflowIds: [ctx.tag], problems };
};

const FLOWS: { [K in Lifecycle['kind']]: FlowOf<K> } = {
  reused_id: reusedId,
  cron,
  schedule,
  workflow_retry: workflowRetry,
  reset,
  continue_as_new_during_review: continueAsNewDuringReview,
  terminate_during_review: terminateDuringReview,
  activity,
};

async function historyOf(client: Client, workflowId: string): Promise<object[]> {
  try {
    return (await client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
  } catch {
    return [];
  }
}

async function terminateOpen(client: Client, workflowId: string): Promise<void> {
  try {
    const h = client.workflow.getHandle(workflowId);
    if ((await h.describe()).status.name === 'RUNNING') await h.terminate('write-safety cell ended');
  } catch {
    /* gone already */
  }
}
