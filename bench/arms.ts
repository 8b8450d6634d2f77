/**
 * The arms, each a worker on its own task queue of the same server, in this process:
 * - baseline: `bareActivityWorkflow` (bench/workflows.ts), one plain activity with a plain retry policy;
 * - imports: the same workflow in a bundle that also imports the router's modules, not preloaded
 *   (bench/workflows-imports.ts): the cost of evaluating them per run;
 * - unpreloaded: the plugin's `toolPlanWorkflow` with one call of the example `check_inventory` tool
 *   (examples/support-tools.ts), bundled without preloading its modules (the router before preloading);
 * - subject: the same, bundled as the plugin bundles it, with `RECOVERY_PRELOAD_MODULES` (what users get).
 * The plugin's two arms bundle the compiled package, as a user's worker does (bench/built-package.ts).
 * The baseline's retry policy has the numbers the router derives for the tool (recovery/activity-options.ts), so
 * a retried call waits the same in every arm.
 */
import { randomUUID } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, DefaultLogger, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { supportTools } from '../examples/support-tools';
import { RecoveryPlugin } from '../plugin/recovery-plugin';
import { activityOptionsFor } from '../recovery/activity-options';
import type { BackoffPolicy } from '../recovery/backoff';
import type { ToolPlanInput, ToolPlanResult } from '../workflows/tool-plan';
import { createBaselineActivities } from './activities';
import { builtWorkflowSources } from './built-package';
import type { BareActivityInput } from './workflows';

export const ArmName = {
  BASELINE: 'baseline',
  IMPORTS: 'imports',
  UNPRELOADED: 'unpreloaded',
  SUBJECT: 'subject',
} as const;
/** Every arm, in the order runs interleave. */
export const ARM_NAMES = Object.values(ArmName);
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

/** Bundler output at ERROR level only. */
const quietLogger = new DefaultLogger('ERROR');

/** Bundles the arms' workflows and creates their workers (not yet running). */
export async function createArms(env: TestWorkflowEnvironment, serviceUrl: string): Promise<Record<ArmName, Arm>> {
  const { checkInventory } = supportTools(serviceUrl);
  const queue = (name: ArmName) => `bench-${name}-${randomUUID()}`;
  const plugin = new RecoveryPlugin({ tools: [checkInventory], config: { backoff: BENCH_BACKOFF } });
  const derived = activityOptionsFor(checkInventory.spec, plugin.config.budgets, plugin.config.backoff);
  const { nonRetryableErrorTypes: _classesOnly, ...plainRetry } = derived.retry;
  const built = builtWorkflowSources();
  const bundle = (workflowsPath: string, preloadModules: readonly string[] = []) =>
    bundleWorkflowCode({ workflowsPath, preloadModules: [...preloadModules], logger: quietLogger });
  const [subjectBundle, unpreloadedBundle, bareBundle, importsBundle] = await Promise.all([
    bundle(built.workflowsPath, built.preloadModules),
    bundle(built.workflowsPath),
    bundle(require.resolve('./workflows')),
    bundle(require.resolve('./workflows-imports')),
  ]);

  const pluginArm = async (name: ArmName, workflowBundle: WorkflowBundleWithSourceMap): Promise<Arm> => {
    const taskQueue = queue(name);
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      plugins: [plugin],
      workflowBundle,
    });
    return {
      name,
      worker,
      async execute(sku) {
        const workflowId = `${taskQueue}-${randomUUID()}`;
        const input: ToolPlanInput = {
          catalog: plugin.catalog,
          calls: [{ tool: checkInventory.name, args: { sku } }],
          backoff: BENCH_BACKOFF,
        };
        const handle = await env.client.workflow.start('toolPlanWorkflow', { taskQueue, workflowId, args: [input] });
        const result = (await handle.result()) as ToolPlanResult;
        const outcome = result.outcomes[0];
        if (result.outcomes.length !== 1 || !outcome?.ok) {
          throw new Error(`${name} run ${workflowId} did not succeed: ${JSON.stringify(result.outcomes)}`);
        }
        return { workflowId, value: outcome.value };
      },
    };
  };
  const bareArm = async (name: ArmName, workflowBundle: WorkflowBundleWithSourceMap): Promise<Arm> => {
    const taskQueue = queue(name);
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      activities: createBaselineActivities(serviceUrl),
      workflowBundle,
    });
    return {
      name,
      worker,
      async execute(sku) {
        const workflowId = `${taskQueue}-${randomUUID()}`;
        const input: BareActivityInput = { sku, startToCloseTimeoutMs: derived.startToCloseTimeout, retry: plainRetry };
        const handle = await env.client.workflow.start('bareActivityWorkflow', {
          taskQueue,
          workflowId,
          args: [input],
        });
        return { workflowId, value: await handle.result() };
      },
    };
  };
  const [baseline, imports, unpreloaded, subject] = await Promise.all([
    bareArm(ArmName.BASELINE, bareBundle),
    bareArm(ArmName.IMPORTS, importsBundle),
    pluginArm(ArmName.UNPRELOADED, unpreloadedBundle),
    pluginArm(ArmName.SUBJECT, subjectBundle),
  ]);
  return { baseline, imports, unpreloaded, subject };
}
