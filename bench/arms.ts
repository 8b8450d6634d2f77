/**
 * The two arms, each a worker on its own task queue of the same server, in this process:
 * - baseline: `bareActivityWorkflow` (bench/workflows.ts), one plain activity with a plain retry policy;
 * - subject: the plugin's `toolPlanWorkflow` with one call of the example `check_inventory` tool
 *   (examples/support-tools.ts), on a worker built with `RecoveryPlugin` and a pre-bundled workflow bundle.
 * The baseline's retry policy has the numbers the router derives for the tool (recovery/activity-options.ts), so
 * a retried call waits the same in both arms.
 */
import { randomUUID } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, Worker } from '@temporalio/worker';
import { supportTools } from '../examples/support-tools';
import { RecoveryPlugin, RECOVERY_WORKFLOWS_PATH } from '../plugin/recovery-plugin';
import { activityOptionsFor } from '../recovery/activity-options';
import type { BackoffPolicy } from '../recovery/backoff';
import type { ToolPlanInput, ToolPlanResult } from '../workflows/tool-plan';
import { createBaselineActivities } from './activities';
import type { BareActivityInput } from './workflows';

export const ArmName = { BASELINE: 'baseline', SUBJECT: 'subject' } as const;
export type ArmName = (typeof ArmName)[keyof typeof ArmName];

export interface Arm {
  name: ArmName;
  worker: Worker;
  /**
   * Starts one workflow and waits for its result.
   * @returns the workflow id and the tool's value.
   * @throws Error when the call did not succeed (the benchmark is then void).
   */
  execute(sku: string): Promise<{ workflowId: string; value: unknown }>;
}

/** 50 ms, doubling, capped at 1 s, no jitter: a retry waits exactly 50 ms in both arms. */
export const BENCH_BACKOFF: BackoffPolicy = {
  initialIntervalMs: 50,
  backoffCoefficient: 2,
  maximumIntervalMs: 1_000,
  jitterRatio: 0,
  maxRetryAfterMs: 60_000,
};

const quietLogger = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: (message: string, meta?: Record<string, unknown>) => console.error(message, meta),
};

/** Bundles both arms' workflows and creates their workers (not yet running). */
export async function createArms(
  env: TestWorkflowEnvironment,
  serviceUrl: string,
): Promise<{ baseline: Arm; subject: Arm }> {
  const { checkInventory } = supportTools(serviceUrl);
  const subjectQueue = `bench-subject-${randomUUID()}`;
  const baselineQueue = `bench-baseline-${randomUUID()}`;
  const plugin = new RecoveryPlugin({
    tools: [checkInventory],
    config: { taskQueue: subjectQueue, backoff: BENCH_BACKOFF },
  });
  const derived = activityOptionsFor(checkInventory.spec, plugin.config.budgets, plugin.config.backoff);
  const { nonRetryableErrorTypes: _classesOnly, ...plainRetry } = derived.retry;

  const [subjectBundle, baselineBundle] = await Promise.all([
    bundleWorkflowCode({ workflowsPath: RECOVERY_WORKFLOWS_PATH, logger: quietLogger }),
    bundleWorkflowCode({ workflowsPath: require.resolve('./workflows'), logger: quietLogger }),
  ]);
  const [subjectWorker, baselineWorker] = await Promise.all([
    Worker.create({
      connection: env.nativeConnection,
      taskQueue: subjectQueue,
      plugins: [plugin],
      workflowBundle: subjectBundle,
    }),
    Worker.create({
      connection: env.nativeConnection,
      taskQueue: baselineQueue,
      activities: createBaselineActivities(serviceUrl),
      workflowBundle: baselineBundle,
    }),
  ]);

  const subject: Arm = {
    name: ArmName.SUBJECT,
    worker: subjectWorker,
    async execute(sku) {
      const workflowId = `${subjectQueue}-${randomUUID()}`;
      const input: ToolPlanInput = {
        catalog: plugin.catalog,
        calls: [{ tool: checkInventory.name, args: { sku } }],
        backoff: BENCH_BACKOFF,
      };
      const handle = await env.client.workflow.start('toolPlanWorkflow', {
        taskQueue: subjectQueue,
        workflowId,
        args: [input],
      });
      const result = (await handle.result()) as ToolPlanResult;
      const outcome = result.outcomes[0];
      if (result.outcomes.length !== 1 || !outcome?.ok) {
        throw new Error(`subject run ${workflowId} did not succeed: ${JSON.stringify(result.outcomes)}`);
      }
      return { workflowId, value: outcome.value };
    },
  };
  const baseline: Arm = {
    name: ArmName.BASELINE,
    worker: baselineWorker,
    async execute(sku) {
      const workflowId = `${baselineQueue}-${randomUUID()}`;
      const input: BareActivityInput = { sku, startToCloseTimeoutMs: derived.startToCloseTimeout, retry: plainRetry };
      const handle = await env.client.workflow.start('bareActivityWorkflow', {
        taskQueue: baselineQueue,
        workflowId,
        args: [input],
      });
      return { workflowId, value: await handle.result() };
    },
  };
  return { baseline, subject };
}
