/**
 * The worker's data in a workflow bundle: `undefined` here, and the plugin's data in a bundle built with the plugin
 * (a Worker with `plugins: [plugin]`, or `bundleWorkflowCode({ …, plugins: [plugin] })`), whose bundler resolves
 * this module to one it writes (plugin/workflow-code.ts). Read it through workflows/worker-supplied.ts.
 * Sandbox-safe.
 */
import type { WorkerData } from './worker-data-types';

export const WORKER_DATA: WorkerData | undefined = undefined;
