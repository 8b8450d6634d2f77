/**
 * The router's options as a workflow run gets them (docs/DESIGN.md, "Workflow code and the worker"): from the worker
 * (its catalog and the policy of temporal.config.json, in the bundle: workflows/worker-data.ts), with the run's own
 * options over them. An input that carries a catalog (`plugin.workflowDefaults()`, and every history recorded before
 * the worker supplied it) is taken as it is, so such a run routes as it did. Sandbox-safe.
 */
import { ApplicationFailure } from '@temporalio/workflow';
import { ApplicationFailureType } from '../recovery/failure-types';
import type { ToolSpec } from '../recovery/tool-spec';
import { WORKER_DATA } from './worker-data';
import type { WorkerData } from './worker-data-types';

/** The fields the worker supplies. */
interface Supplied {
  catalog?: readonly ToolSpec[] | undefined;
  budgets?: object | undefined;
  backoff?: object | undefined;
  toolOverrides?: object | undefined;
  searchAttributes?: boolean | undefined;
}

/** The worker's data in this bundle, or undefined in a bundle built without the plugin. */
export function workerData(): WorkerData | undefined {
  return WORKER_DATA;
}

/**
 * `given` with the worker's catalog and policy under it, when `given` has no catalog.
 * @param who the workflow or function, for the message (`createToolRouter options`).
 * @throws ApplicationFailure `invalid_input` (non-retryable) when neither `given` nor the bundle has a catalog.
 */
export function withWorkerDefaults<T extends Supplied>(given: T, who: string): T & { catalog: readonly ToolSpec[] } {
  if (given.catalog !== undefined) return given as T & { catalog: readonly ToolSpec[] };
  const data = WORKER_DATA;
  if (data === undefined) {
    throw ApplicationFailure.nonRetryable(
      `${who}: no catalog. The worker supplies it when its workflow bundle is built with the plugin (a Worker with ` +
        'plugins: [plugin], or bundleWorkflowCode({ workflowsPath, plugins: [plugin] })); this bundle was built ' +
        'without it. Build it with the plugin, or pass plugin.workflowDefaults() in the input.',
      ApplicationFailureType.INVALID_INPUT,
    );
  }
  return {
    ...given,
    catalog: data.catalog,
    budgets: { ...data.budgets, ...given.budgets },
    backoff: { ...data.backoff, ...given.backoff },
    toolOverrides: { ...data.toolOverrides, ...given.toolOverrides },
    ...(given.searchAttributes === undefined && data.searchAttributes === false ? { searchAttributes: false } : {}),
  };
}
