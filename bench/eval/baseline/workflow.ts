/**
 * The baselines' agent loop, with no router: the same scripted steps the router's planner follows, each call one
 * plain activity (`runToolPlain`) under a plain retry policy (bench/eval/policies.ts). When a call fails for good —
 * its retries spent or its cap reached — the loop tries the step's next variant (its fixed arguments first, then
 * its alternatives, in the script's order), as the scripted planner does after the router's feedback; with none
 * left the run ends `failed`. It cannot tell a 503 from a 409: every failure is retried the same way.
 * The idempotency key of a variant is `<workflowId>:<stepId>#v<n>`, stable across its attempts (Temporal docs,
 * "Idempotency": a key from the workflow and a stable step, never the attempt).
 * Sandbox-safe: imports only `@temporalio/workflow` and types.
 */
import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { PlainRetryOptions } from '../policies';
import type { BaselineActivities } from './activities';

export interface BaselineCall {
  tool: string;
  args: unknown;
  /** The tool's StartToClose timeout, ms. */
  startToCloseMs: number;
}

export interface BaselineStep {
  id: string;
  /** The step's call, then its fixed versions, then its alternatives (and theirs), in order. */
  variants: BaselineCall[];
}

export interface BaselineInput {
  steps: BaselineStep[];
  submit: { resultFrom: string } | { result: unknown };
  options: PlainRetryOptions;
}

export interface BaselineResult {
  status: 'submitted' | 'failed';
  result?: unknown;
  /** The last error's message, when the run failed. */
  reason?: string;
  /** Every call the loop made: which variant, and whether it returned. */
  calls: { step: string; variant: number; tool: string; ok: boolean }[];
}

export async function baselineAgentWorkflow(input: BaselineInput): Promise<BaselineResult> {
  const results = new Map<string, unknown>();
  const calls: BaselineResult['calls'] = [];
  for (const step of input.steps) {
    let done = false;
    let reason = '';
    for (const [i, v] of step.variants.entries()) {
      const { runToolPlain } = proxyActivities<BaselineActivities>({
        startToCloseTimeout: v.startToCloseMs,
        retry: input.options.retry,
        ...(input.options.scheduleToCloseTimeoutMs
          ? { scheduleToCloseTimeout: input.options.scheduleToCloseTimeoutMs }
          : {}),
      });
      try {
        const value = await runToolPlain({
          tool: v.tool,
          args: v.args,
          operationId: `${workflowInfo().workflowId}:${step.id}#v${i}`,
          ...(input.options.inProcessDelaysMs ? { inProcessDelaysMs: input.options.inProcessDelaysMs } : {}),
        });
        results.set(step.id, value);
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
