/**
 * Shared setup for workflow tests on the real dev server: the plugin's workflows bundled once per jest run, a
 * worker with the RecoveryPlugin on a unique task queue per test, and helpers to run `toolPlanWorkflow` and read
 * its history.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker, type WorkerOptions, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { temporal } from '@temporalio/proto';
import type { AnyTool } from '../../activities/define-tool';
import { RecoveryPlugin, type RecoveryPluginOptions } from '../../plugin/recovery-plugin';
import type { ToolPlanInput, ToolPlanResult } from '../../workflows/tool-plan';
import type { ToolOutcome } from '../../workflows/tool-router';
import { uniqueTaskQueue } from '../setup/env';
import { bundleRecoveryWorkflows, sharedBundle } from '../setup/shared-bundle';

/** Fast backoff for tests that do not measure it: 50 ms, doubling, +20 % jitter at most. */
export const FAST_BACKOFF = {
  initialIntervalMs: 50,
  backoffCoefficient: 2,
  maximumIntervalMs: 1_000,
  jitterRatio: 0.2,
  maxRetryAfterMs: 60_000,
};

let bundle: Promise<WorkflowBundleWithSourceMap> | undefined;
/** The plugin's workflows: the jest run's shared bundle (test/setup/shared-bundle.ts), else bundled once per file. */
export function workflowBundle(): Promise<WorkflowBundleWithSourceMap> {
  const shared = sharedBundle();
  bundle ??= shared ? Promise.resolve(shared) : bundleRecoveryWorkflows();
  return bundle;
}

export interface Harness {
  plugin: RecoveryPlugin;
  worker: Worker;
  taskQueue: string;
  /** Starts a plan; returns its workflow id. */
  startPlan(plan: Omit<ToolPlanInput, 'catalog'>, workflowId?: string): Promise<string>;
  /** Starts a plan and waits for its result (call inside `run`). */
  runPlan(plan: Omit<ToolPlanInput, 'catalog'>, workflowId?: string): Promise<ToolPlanResult & { workflowId: string }>;
  history(workflowId: string): Promise<temporal.api.history.v1.IHistoryEvent[]>;
  /** Runs `fn` while the worker polls, then shuts the worker down. A harness runs once. */
  run<T>(fn: () => Promise<T>): Promise<T>;
}

export async function harness(
  env: TestWorkflowEnvironment,
  tools: AnyTool[],
  options: Omit<RecoveryPluginOptions, 'tools'> & {
    maxConcurrentActivityTaskExecutions?: number;
    /** More activities for the worker, e.g. `createPlannerActivities(planner)`. */
    activities?: object;
    /** Worker sinks, e.g. `defaultWorkerLogger` to capture the workflow logger's lines. */
    sinks?: WorkerOptions['sinks'];
    /** Worker interceptors, e.g. an activity interceptor that makes one activity fail or wait. */
    interceptors?: WorkerOptions['interceptors'];
  } = {},
): Promise<Harness> {
  const taskQueue = uniqueTaskQueue('rr');
  const { maxConcurrentActivityTaskExecutions, config, activities, sinks, interceptors, ...pluginOptions } = options;
  if (typeof config === 'string') throw new Error('harness: pass config as an object');
  const plugin = new RecoveryPlugin({
    tools,
    ...pluginOptions,
    config: { backoff: FAST_BACKOFF, ...config, taskQueue },
  });
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    plugins: [plugin],
    workflowBundle: await workflowBundle(),
    ...(activities ? { activities } : {}),
    ...(sinks ? { sinks } : {}),
    ...(interceptors ? { interceptors } : {}),
    ...(maxConcurrentActivityTaskExecutions ? { maxConcurrentActivityTaskExecutions } : {}),
  });
  const startPlan = async (plan: Omit<ToolPlanInput, 'catalog'>, workflowId = uniqueTaskQueue('plan')) => {
    await env.client.workflow.start('toolPlanWorkflow', {
      taskQueue,
      workflowId,
      args: [{ ...plugin.workflowDefaults(), ...plan }],
    });
    return workflowId;
  };
  return {
    plugin,
    worker,
    taskQueue,
    startPlan,
    async runPlan(plan, workflowId) {
      const id = await startPlan(plan, workflowId);
      const result = (await env.client.workflow.getHandle(id).result()) as ToolPlanResult;
      return { ...result, workflowId: id };
    },
    async history(workflowId) {
      return (await env.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
    },
    run: (fn) => worker.runUntil(fn),
  };
}

/** Names of the history's event types, e.g. `ACTIVITY_TASK_SCHEDULED`. */
export function eventTypes(events: temporal.api.history.v1.IHistoryEvent[]): string[] {
  return events.map((e) =>
    (temporal.api.enums.v1.EventType[e.eventType ?? 0] ?? 'UNKNOWN').replace(/^EVENT_TYPE_/, ''),
  );
}

/** The outcome, asserted to be a routed failure (throws with the outcome otherwise). */
export function failedOutcome(o: ToolOutcome | undefined): Extract<ToolOutcome, { ok: false }> {
  if (!o || o.ok) throw new Error(`expected a failed outcome, got ${JSON.stringify(o)}`);
  return o;
}

/** The outcome, asserted to be a success (throws with the outcome otherwise). */
export function okOutcome(o: ToolOutcome | undefined): Extract<ToolOutcome, { ok: true }> {
  if (!o?.ok) throw new Error(`expected success, got ${JSON.stringify(o)}`);
  return o;
}

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/** A history event's time, ms since the epoch (the server's clock: the time-skipping server's where it runs). */
export function eventMs(e: HistoryEvent): number {
  return Number(e.eventTime?.seconds ?? 0) * 1_000 + Math.floor((e.eventTime?.nanos ?? 0) / 1_000_000);
}

/**
 * Server time from the first `ACTIVITY_TASK_SCHEDULED` of an activity to its `ACTIVITY_TASK_STARTED` (written once,
 * for the attempt that ended it), ms: every retry delay its attempts scheduled elapsed in between.
 */
export function scheduledToLastStartMs(events: HistoryEvent[], activityType = 'invokeTool'): number {
  const scheduled = events.find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === activityType);
  if (!scheduled) throw new Error(`no ${activityType} activity in the history`);
  const started = events.find(
    (e) => e.activityTaskStartedEventAttributes?.scheduledEventId?.toString() === String(scheduled.eventId),
  );
  if (!started) throw new Error(`${activityType} never started`);
  return eventMs(started) - eventMs(scheduled);
}

/** The timers a history started, in order: their `startToFireTimeout`, ms. */
export function timerDurationsMs(events: HistoryEvent[]): number[] {
  return events
    .filter((e) => e.timerStartedEventAttributes)
    .map((e) => {
      const t = e.timerStartedEventAttributes!.startToFireTimeout;
      return Number(t?.seconds ?? 0) * 1_000 + Math.floor((t?.nanos ?? 0) / 1_000_000);
    });
}

/**
 * One harness for the tests of a `describe` that need the same tools and nothing of their own in the plugin (its
 * breakers and credentials carry over from test to test): its worker runs from the first test that asks until the
 * describe ends, and `run(fn)` only runs `fn`. A `Worker.create` with the shared bundle costs about 0.45 s of CPU.
 * Call it at the describe's top level (it registers the describe's `afterAll`).
 */
export function describeHarness(env: () => TestWorkflowEnvironment, tools: () => AnyTool[]): () => Promise<Harness> {
  let started: Promise<{ h: Harness; running: Promise<void> }> | undefined;
  afterAll(async () => {
    if (!started) return;
    const { h, running } = await started;
    h.worker.shutdown();
    await running;
  });
  return async () => {
    started ??= harness(env(), tools()).then((h) => ({ h, running: h.worker.run() }));
    const { h } = await started;
    return { ...h, run: (fn) => fn() };
  };
}
