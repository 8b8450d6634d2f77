/**
 * The eval's baseline loop (bench/eval/baseline/workflow.ts) over plain activities named after the tools: each
 * step's call, then its fixed versions and alternatives after a call fails for good, under a plain retry policy.
 * What a user's workflow does without the router; shadow and enforce act on the activities only.
 * Sandbox-safe: imports only `@temporalio/workflow` and types.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { BaselineInput, BaselineResult } from '../eval/baseline/workflow';

type PlainActivities = Record<string, (args: unknown) => Promise<unknown>>;

export async function plainToolsWorkflow(input: BaselineInput): Promise<BaselineResult> {
  const results = new Map<string, unknown>();
  const calls: BaselineResult['calls'] = [];
  for (const step of input.steps) {
    let done = false;
    let reason = '';
    for (const [i, v] of step.variants.entries()) {
      const activities = proxyActivities<PlainActivities>({
        startToCloseTimeout: v.startToCloseMs,
        retry: input.options.retry,
        ...(input.options.scheduleToCloseTimeoutMs
          ? { scheduleToCloseTimeout: input.options.scheduleToCloseTimeoutMs }
          : {}),
      });
      try {
        results.set(step.id, await activities[v.tool]!(v.args));
        calls.push({ step: step.id, variant: i, tool: v.tool, ok: true });
        done = true;
        break;
      } catch (err) {
        calls.push({ step: step.id, variant: i, tool: v.tool, ok: false });
        reason = String((err as { cause?: { message?: unknown } }).cause?.message ?? (err as Error).message);
      }
    }
    if (!done) return { status: 'failed', reason, calls };
  }
  if ('result' in input.submit) return { status: 'submitted', result: input.submit.result, calls };
  return { status: 'submitted', result: results.get(input.submit.resultFrom), calls };
}
