/**
 * What a Worker with the plugin and a prebuilt `workflowBundle` checks before it polls (docs/DESIGN.md, "Workflow
 * code and the worker"): that the bundle exports the plugin's workflows, and that the worker's data it carries, if
 * any, is this plugin's. A bundle built with the plugin (`bundleWorkflowCode({ workflowsPath, plugins: [plugin] })`)
 * has both. Without the check, a missing `reconcileOperationWorkflow` shows only at the first lost answer, as a
 * workflow task failing every 10 s ("no such function is exported by the workflow bundle") for ever.
 *
 * The exports are read by evaluating the bundle in a V8 context of its own (`node:vm`), as Temporal's worker does, and
 * calling its `importWorkflows()`; this runs the workflows' module-level code, not a workflow (≈ 60 ms for the
 * plugin's own workflows). A bundle that cannot be evaluated so is not judged: a warning, and the Worker runs.
 * Node-side only.
 */
import { readFileSync } from 'node:fs';
import * as vm from 'node:vm';
import { Runtime, type WorkflowBundleOption } from '@temporalio/worker';
import { RecoveryError } from '../recovery/recovery-error';
import { WORKER_DATA_MARK } from './workflow-code';

/** The longest the bundle's evaluation may take, in ms. */
const EVALUATION_TIMEOUT_MS = 5_000;

/** The Worker's prebuilt bundle lacks a workflow the plugin starts, or carries another plugin's data. */
export class WorkflowBundleError extends RecoveryError<'workflow_bundle_incomplete' | 'workflow_bundle_foreign'> {
  override readonly name = 'WorkflowBundleError';
  static override readonly codes: readonly string[] = ['workflow_bundle_incomplete', 'workflow_bundle_foreign'];
}

/**
 * @param required the workflows the plugin starts on this Worker's task queue.
 * @param digest the plugin's catalog digest.
 * @throws WorkflowBundleError `workflow_bundle_incomplete` naming each missing export, or `workflow_bundle_foreign`
 *   naming both digests when the bundle was built with a plugin of another catalog.
 */
export function checkWorkflowBundle(bundle: WorkflowBundleOption, required: readonly string[], digest: string): void {
  const code = 'code' in bundle ? bundle.code : readFileSync(bundle.codePath, 'utf8');
  const at = code.indexOf(WORKER_DATA_MARK);
  if (at >= 0) {
    const theirs = code.slice(at + WORKER_DATA_MARK.length, at + WORKER_DATA_MARK.length + digest.length);
    if (theirs !== digest) {
      throw new WorkflowBundleError(
        'workflow_bundle_foreign',
        `recovery-router: the Worker's workflowBundle was built with a plugin whose catalog differs (digest ${theirs}, ` +
          `this plugin's ${digest}); rebuild it with this plugin: bundleWorkflowCode({ workflowsPath, plugins: [plugin] }).`,
      );
    }
  }
  const exported = bundleExports(code);
  if (exported === undefined) return;
  const missing = required.filter((name) => !exported.has(name));
  if (missing.length === 0) return;
  throw new WorkflowBundleError(
    'workflow_bundle_incomplete',
    `recovery-router: the Worker's workflowBundle does not export ${missing.join(', ')}, which the plugin starts (a ` +
      'write whose outcome is unknown is reconciled by reconcileOperationWorkflow; shared mode runs the entity ' +
      'workflows). Build the bundle with the plugin, which adds them: bundleWorkflowCode({ workflowsPath, plugins: ' +
      "[plugin] }); or export them from your workflows module: export { … } from 'recovery-router/workflows'.",
  );
}

/** The names the bundle's workflows module exports, or undefined when it cannot be evaluated (logged). */
export function bundleExports(code: string): Set<string> | undefined {
  try {
    const context = vm.createContext({});
    Object.defineProperty(context, '__webpack_module_cache__', { value: {} });
    new vm.Script(code).runInContext(context, { timeout: EVALUATION_TIMEOUT_MS });
    const names = vm.runInContext('Object.keys(__TEMPORAL__.importWorkflows())', context, {
      timeout: EVALUATION_TIMEOUT_MS,
    }) as string[];
    return new Set(names);
  } catch (err) {
    Runtime.instance().logger.warn("recovery-router: could not read the workflowBundle's exports; not checked", {
      error: err instanceof Error ? err.message : String(err),
    });
    return undefined;
  }
}
