/**
 * Which parts of `RecoveryPluginOptions` are in shared mode (docs/operating.md, "Shared mode: several workers"):
 * `shared: true` is shared, `shared: false` or no option is local; where the entities run (their task queue, and
 * the Worker the plugin runs for them, plugin/entity-worker.ts). Node-side only.
 */
import type { SharedBreakerOptions } from '../activities/shared-breaker';
import type { SharedCredentialOptions } from '../activities/shared-credentials';
import type { EntityWorkerOptions } from './entity-worker';
import type { RecoveryPluginOptions } from './recovery-plugin';

/** The entities' task queue when the options name none: a queue of their own, beside the plugin's. */
export const entityTaskQueueOf = (taskQueue: string): string => `${taskQueue}-entities`;

/** The shared breaker's options; undefined in local mode (left out, or `shared: false`). */
export const sharedBreakerOf = (o: RecoveryPluginOptions): SharedBreakerOptions | undefined =>
  o.breaker && 'shared' in o.breaker && o.breaker.shared ? o.breaker : undefined;
/** The shared refresh's options; undefined in local mode (left out, or `shared: false`). */
export const sharedRefreshOf = (o: RecoveryPluginOptions): SharedCredentialOptions | undefined =>
  o.credentialRefresh?.shared ? o.credentialRefresh : undefined;

/** What the entities' Worker runs, in shared mode unless `entityWorker: false`. */
export function entityWorkersFor(
  options: RecoveryPluginOptions,
  taskQueue: string,
  activities: EntityWorkerOptions['activities'],
): EntityWorkerOptions | undefined {
  const shared = [sharedBreakerOf(options), sharedRefreshOf(options)].filter((o) => o !== undefined);
  if (shared.length === 0 || options.entityWorker === false) return undefined;
  const bundle = typeof options.entityWorker === 'object' ? options.entityWorker.workflowBundle : undefined;
  return {
    taskQueues: shared.map((o) => o.taskQueue ?? entityTaskQueueOf(taskQueue)),
    activities,
    ...(bundle ? { workflowBundle: bundle } : {}),
  };
}

/**
 * The plugin's workflows a Worker on `taskQueue` must export: the reconcile child, and in shared mode the entities
 * unless the plugin runs them on a queue of their own (`entities`, plugin/entity-worker.ts).
 */
export function ownWorkflowsOn(
  taskQueue: string,
  shared: boolean,
  entities: EntityWorkerOptions | undefined,
): string[] {
  const entitiesHere = shared && (entities === undefined || entities.taskQueues.includes(taskQueue));
  return ['reconcileOperationWorkflow', ...(entitiesHere ? ['breakerEntityWorkflow', 'credentialEntityWorkflow'] : [])];
}
