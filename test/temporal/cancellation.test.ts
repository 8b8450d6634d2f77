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

test('a long tool heartbeats on its own; cancelling the workflow aborts its signal within a heartbeat interval', async () => {
  const seen = { started: 0, abortedAfterMs: -1 };
  const slowTool = defineTool({
    name: 'slow_report',
    description: 'Builds a report slowly.',
    input: z.object({ id: z.string() }),
    output: z.object({ done: z.boolean() }),
    effect: 'read',
    timeouts: { startToCloseMs: 60_000, heartbeatMs: 1_500 },
    async execute(_args, ctx) {
      seen.started = Date.now();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 30_000);
        ctx.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          seen.abortedAfterMs = Date.now() - seen.started;
          resolve();
        });
      });
      return { done: !ctx.signal.aborted };
    },
  });
  const h = await harness(env, [slowTool]);
  const error = await h.run(async () => {
    const id = await h.startPlan({ calls: [{ tool: 'slow_report', args: { id: 'r1' } }] });
    while (seen.started === 0) await new Promise((ok) => setTimeout(ok, 50));
    await new Promise((ok) => setTimeout(ok, 1_000)); // let it heartbeat at least once
    const handle = env.client.workflow.getHandle(id);
    await handle.cancel();
    return handle.result().then(
      () => undefined,
      (err: unknown) => err,
    );
  });
  expect(error).toBeInstanceOf(WorkflowFailedError);
  expect((error as WorkflowFailedError).cause).toBeInstanceOf(CancelledFailure);
  expect(seen.abortedAfterMs).toBeGreaterThanOrEqual(1_000);
  expect(seen.abortedAfterMs).toBeLessThan(1_000 + 2 * 1_500); // the cancel lands with the next heartbeat
});
