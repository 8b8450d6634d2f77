/**
 * Long tools heartbeat, and cancellation reaches them: cancelling the workflow aborts the tool's signal, and the
 * cancellation is not mistaken for a tool failure.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { WorkflowFailedError } from '@temporalio/client';
import { CancelledFailure } from '@temporalio/common';
import { z } from 'zod';
import { defineTool } from '../../activities/define-tool';
import { testEnv } from '../setup/env';
import { harness } from './harness';

let env: TestWorkflowEnvironment;
beforeAll(async () => {
  env = await testEnv();
});
afterAll(async () => {
  await env?.teardown();
});

test('a long tool heartbeats on its own; cancelling the workflow aborts its signal through a heartbeat', async () => {
  // Events, not measured times: the test cancels once the server holds a heartbeat of the tool, and the tool's
  // signal must abort before the worker shuts down (a shutdown would abort it too). The interval is the scheduled
  // value: a third of the 1.5 s heartbeat timeout the history carries (activities/heartbeat.ts).
  let started: () => void = () => undefined;
  const running = new Promise<void>((r) => (started = r));
  let aborted: () => void = () => undefined;
  const abortedSignal = new Promise<void>((r) => (aborted = r));
  const slowTool = defineTool({
    name: 'slow_report',
    description: 'Builds a report slowly.',
    input: z.object({ id: z.string() }),
    output: z.object({ done: z.boolean() }),
    effect: 'read',
    timeouts: { startToCloseMs: 60_000, heartbeatMs: 1_500 },
    async execute(_args, ctx) {
      started();
      await new Promise<void>((resolve) =>
        ctx.signal.addEventListener('abort', () => {
          aborted();
          resolve();
        }),
      );
      return { done: !ctx.signal.aborted };
    },
  });
  const h = await harness(env, [slowTool]);
  const { error, workflowId } = await h.run(async () => {
    const id = await h.startPlan({ calls: [{ tool: 'slow_report', args: { id: 'r1' } }] });
    const handle = env.client.workflow.getHandle(id);
    await running;
    for (;;) {
      const pending = (await handle.describe()).raw.pendingActivities ?? [];
      if (pending.some((a) => a.lastHeartbeatTime)) break; // the tool code never heartbeats: the plugin did
      await new Promise((ok) => setTimeout(ok, 50));
    }
    await handle.cancel();
    const err = await handle.result().then(
      () => undefined,
      (e: unknown) => e,
    );
    await abortedSignal; // before h.run shuts the worker down
    return { error: err, workflowId: id };
  });
  expect(error).toBeInstanceOf(WorkflowFailedError);
  expect((error as WorkflowFailedError).cause).toBeInstanceOf(CancelledFailure);
  const scheduled = (await h.history(workflowId)).find((e) => e.activityTaskScheduledEventAttributes)!;
  const timeout = scheduled.activityTaskScheduledEventAttributes!.heartbeatTimeout!;
  expect(Number(timeout.seconds) * 1_000 + Math.floor((timeout.nanos ?? 0) / 1e6)).toBe(1_500);
});
