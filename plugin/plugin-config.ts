/**
 * The parts of `RecoveryPlugin` that turn its options into what it runs with: the breakers, and the
 * Worker's and replay Worker's options with the plugin's sinks and workflow code (plugin/workflow-code.ts).
 * Node-side only.
 */
import type { ReplayWorkerOptions, WorkerOptions } from '@temporalio/worker';
import { BreakerRegistry, type Breakers } from '../activities/breaker';
import { WITH_CATALOG, type CatalogBindable } from '../activities/planners/planner-input';
import { SharedBreaker } from '../activities/shared-breaker';
import { checkWorkflowBundle } from './bundle-check';
import type { EntityWorkerOptions } from './entity-worker';
import type { RecoveryPluginOptions } from './recovery-plugin';
import { entityTaskQueueOf, ownWorkflowsOn, sharedBreakerOf } from './shared-mode';
import { withPluginCode, type PluginCode } from './workflow-code';

type Sinks = NonNullable<WorkerOptions['sinks']>;

/** The breakers of `options.breaker`: one per downstream for the namespace (shared), or per worker process. */
export function breakersFor(options: RecoveryPluginOptions, taskQueue: string): Breakers {
  const shared = sharedBreakerOf(options);
  if (shared) return new SharedBreaker({ ...shared, taskQueue: shared.taskQueue ?? entityTaskQueueOf(taskQueue) });
  const local = options.breaker;
  return new BreakerRegistry(local && { threshold: local.threshold, halfOpenAfterMs: local.halfOpenAfterMs });
}

/**
 * A Worker's options with the plugin's sinks (replacing sinks of the same names) and its workflow code; a prebuilt
 * `workflowBundle` is checked instead. Planner activities built without a catalog (`createPlannerActivities(planner)`)
 * get the plugin's, to expand the capability names `agentWorkflow` sends (activities/planners/planner-input.ts).
 * @throws WorkflowBundleError when the prebuilt bundle lacks a workflow the plugin starts, or has another catalog.
 */
export function workerOptionsWith(
  configured: WorkerOptions,
  sinks: Sinks,
  code: PluginCode,
  entityWorkers: EntityWorkerOptions | undefined,
): WorkerOptions {
  const activities = withCatalog(configured.activities, code.data.catalog);
  const withSinks = { ...configured, ...(activities ? { activities } : {}), sinks: { ...configured.sinks, ...sinks } };
  if (!withSinks.workflowBundle) return withPluginCode(withSinks, code);
  const required = ownWorkflowsOn(withSinks.taskQueue, code.shared, entityWorkers);
  checkWorkflowBundle(withSinks.workflowBundle, required, code.data.catalogDigest);
  return withSinks;
}

/** `activities` with each planner activity that has no catalog replaced by a copy with `catalog`. */
function withCatalog(activities: WorkerOptions['activities'], catalog: PluginCode['data']['catalog']) {
  if (!activities) return undefined;
  const bound = Object.entries(activities).map(([name, fn]) => {
    const bind = (fn as CatalogBindable)[WITH_CATALOG];
    return [name, bind ? bind(catalog) : fn] as const;
  });
  return Object.fromEntries(bound) as WorkerOptions['activities'];
}

/** A replay Worker's options with the same sinks, and the plugin's workflow code unless it has a prebuilt bundle. */
export function replayOptionsWith(
  configured: ReplayWorkerOptions,
  sinks: Sinks,
  code: PluginCode,
): ReplayWorkerOptions {
  const withSinks = { ...configured, sinks: { ...configured.sinks, ...sinks } };
  if (withSinks.workflowBundle) return withSinks;
  return withPluginCode(withSinks, code);
}
