/** A harness like test/temporal/harness.ts, with the attack workflows and a "stuck workflow task" detector. */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { temporal } from '@temporalio/proto';
import type { AnyTool } from '../../../activities/define-tool';
import { RecoveryPlugin, type RecoveryPluginOptions } from '../../../plugin/recovery-plugin';
import { uniqueTaskQueue } from '../../setup/env';
import { FAST_BACKOFF } from '../harness';

let bundle: Promise<WorkflowBundleWithSourceMap> | undefined;
function attackBundle() {
  const quiet = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };
  bundle ??= bundleWorkflowCode({ workflowsPath: require.resolve('./attack-workflows'), logger: quiet });
  return bundle;
}

export type Observed =
  | { kind: 'completed'; result: unknown }
  | { kind: 'failed'; message: string; type?: string }
  | { kind: 'stuck'; attempt: number; taskFailure: string };

export async function probeHarness(env: TestWorkflowEnvironment, tools: AnyTool[], options: Omit<RecoveryPluginOptions, 'tools'> = {}) {
  const taskQueue = uniqueTaskQueue('atk');
  const { config, ...rest } = options;
  const plugin = new RecoveryPlugin({ tools, ...rest, config: { backoff: FAST_BACKOFF, ...(config as object), taskQueue } });
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    plugins: [plugin],
    workflowBundle: await attackBundle(),
  });
  const client = env.client;
  async function start(workflow: string, arg: unknown, workflowId = uniqueTaskQueue('wf')) {
    await client.workflow.start(workflow, { taskQueue, workflowId, args: [arg] });
    return workflowId;
  }
  /** Waits up to `ms` for the run to close; if it is still open with a failing workflow task, reports it stuck. */
  async function observe(workflowId: string, ms = 8_000): Promise<Observed> {
    const handle = client.workflow.getHandle(workflowId);
    const deadline = Date.now() + ms;
    for (;;) {
      const d = await handle.describe();
      if (d.status.name === 'COMPLETED') return { kind: 'completed', result: await handle.result() };
      if (d.status.name === 'FAILED') {
        try {
          await handle.result();
        } catch (e) {
          const cause = (e as { cause?: { message?: string; type?: string } }).cause;
          return { kind: 'failed', message: cause?.message ?? String(e), type: cause?.type };
        }
      }
      const attempt = d.raw.pendingWorkflowTask?.attempt ?? 0;
      if (Date.now() > deadline || attempt >= 3) {
        if (attempt >= 2) {
          const events = (await handle.fetchHistory()).events ?? [];
          const failedTask = events.find((e) => e.workflowTaskFailedEventAttributes);
          const msg = failedTask?.workflowTaskFailedEventAttributes?.failure?.message ?? '?';
          await handle.terminate('attack probe: stuck workflow task').catch(() => undefined);
          return { kind: 'stuck', attempt, taskFailure: msg };
        }
        if (Date.now() > deadline) {
          await handle.terminate('attack probe: timeout').catch(() => undefined);
          return { kind: 'stuck', attempt, taskFailure: `still ${d.status.name} after ${ms} ms` };
        }
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  async function history(workflowId: string) {
    return (await client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
  }
  return { plugin, worker, client, taskQueue, start, observe, history, run: <T>(fn: () => Promise<T>) => worker.runUntil(fn) };
}

export function eventTypes(events: temporal.api.history.v1.IHistoryEvent[]): string[] {
  return events.map((e) => (temporal.api.enums.v1.EventType[e.eventType ?? 0] ?? 'UNKNOWN').replace(/^EVENT_TYPE_/, ''));
}
