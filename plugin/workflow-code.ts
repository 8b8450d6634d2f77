/**
 * The plugin's workflow code in a Worker's bundle (docs/DESIGN.md, "Workflow code and the worker"):
 * - its own workflows beside the user's: with a `workflowsPath` of the Worker's own, the bundle's workflows module
 *   is workflows/with-plugin.ts, which exports the user's module and the plugin's (the reconcile child, and the
 *   entities in shared mode); without one, the plugin's workflows (`RECOVERY_WORKFLOWS_PATH`);
 * - the worker's data (catalog and policy, workflows/worker-data-types.ts) as a module the bundler resolves in place
 *   of workflows/worker-data.ts, written once per content to the OS's temporary directory;
 * - the router's modules preloaded (`RECOVERY_PRELOAD_MODULES`).
 * Node-side only.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BundleOptions } from '@temporalio/worker';
import type { WorkerData } from '../workflows/worker-data-types';

/** What the plugin adds to a bundle: its data and whether its shared-mode entity workflows go in. */
export interface PluginCode {
  readonly data: WorkerData;
  readonly shared: boolean;
}

type WebpackHook = NonNullable<BundleOptions['webpackConfigHook']>;

/** Worker, replay worker and bundler options alike: the parts of them the plugin sets. */
type CodeOptions = Partial<Pick<BundleOptions, 'workflowsPath' | 'preloadModules' | 'webpackConfigHook'>>;

/**
 * The router's workflow entry (`recovery-router/workflow`), preloaded once into each reusable V8 context of a worker
 * instead of evaluated again for every workflow run (@temporalio/worker `bundlerOptions.preloadModules`; with
 * `reuseV8Context`, Temporal's default, a run otherwise gets a module cache of its own, so every module of the
 * router was evaluated per run). The plugin also preloads the module of its own workflows it bundles (the reconcile
 * child; the entities in shared mode; all of them without a `workflowsPath`). These modules keep no per-run state at
 * module level (docs/DESIGN.md, "Performance"). Absolute paths: a bundle resolves them to the same modules the
 * workflows import through `recovery-router/workflow`.
 *
 * Temporal deep-freezes every module loaded while preloading. The router's modules import no zod (their checks are
 * shapes, recovery/shape.ts, which keep no state), so zod stays out of the frozen set and your workflow code's zod
 * schemas (`z.email()` and the other string formats, which write `lastIndex` on zod's RegExps) keep working. If you
 * preload zod yourself, those formats throw "Cannot assign to read only property 'lastIndex'" in workflow code.
 * For a bundle you build yourself: `bundleWorkflowCode({ workflowsPath, plugins: [plugin] })`.
 */
export const RECOVERY_PRELOAD_MODULES: readonly string[] = Object.freeze([require.resolve('../workflow')]);

/** The plugin's workflows, used when the worker has neither `workflowsPath` nor `workflowBundle`. */
export const RECOVERY_WORKFLOWS_PATH = require.resolve('../workflows');
const WITH_PLUGIN_PATH = require.resolve('../workflows/with-plugin');
const OWN_WORKFLOWS_PATH = require.resolve('../workflows/own-workflows');
const OWN_SHARED_WORKFLOWS_PATH = require.resolve('../workflows/own-workflows-shared');
/** workflows/worker-data without its extension: the request the bundler sees for `import … from './worker-data'`. */
const WORKER_DATA_REQUEST = require.resolve('../workflows/worker-data').replace(/\.[cm]?[jt]s$/, '');

/** The text that marks the worker's data in a bundle, followed by the catalog digest. */
export const WORKER_DATA_MARK = 'recovery-router worker data, catalog ';

/**
 * Worker or replay-worker options with the plugin's code: the workflows module, the worker's data and the preloads
 * in `bundlerOptions`. A Worker with a `workflowBundle` is left as it is (plugin/bundle-check.ts checks it).
 */
export function withPluginCode<T extends { workflowsPath?: string; bundlerOptions?: Partial<CodeOptions> }>(
  options: T,
  code: PluginCode,
): T {
  const { workflowsPath, preloadModules, webpackConfigHook } = withCode(
    { workflowsPath: options.workflowsPath, ...options.bundlerOptions },
    code,
  );
  return {
    ...options,
    workflowsPath,
    bundlerOptions: { ...options.bundlerOptions, preloadModules, webpackConfigHook },
  };
}

/** `bundleWorkflowCode`'s options with the plugin's code (see `withPluginCode`). */
export function bundlerWithPluginCode(options: BundleOptions, code: PluginCode): BundleOptions {
  return { ...options, ...withCode(options, code) };
}

/** The plugin's own workflows beside a user's: the reconcile child, and the entities too in shared mode. */
const ownWorkflowsPath = (code: PluginCode) => (code.shared ? OWN_SHARED_WORKFLOWS_PATH : OWN_WORKFLOWS_PATH);

function withCode(options: CodeOptions, code: PluginCode): Required<CodeOptions> {
  const user = options.workflowsPath;
  const alias: Record<string, string> = { [`${WORKER_DATA_REQUEST}$`]: workerDataModule(code.data) };
  if (user !== undefined) {
    alias.__recovery_router_user_workflows__$ = user;
    alias.__recovery_router_own_workflows__$ = ownWorkflowsPath(code);
  }
  const theirs = options.webpackConfigHook;
  const hook: WebpackHook = (config) => {
    const resolve = config.resolve ?? {};
    const theirAlias = Array.isArray(resolve.alias) ? {} : resolve.alias;
    const withAlias = { ...config, resolve: { ...resolve, alias: { ...theirAlias, ...alias } } };
    return theirs ? theirs(withAlias) : withAlias;
  };
  const own = user === undefined ? RECOVERY_WORKFLOWS_PATH : ownWorkflowsPath(code);
  return {
    workflowsPath: user === undefined ? RECOVERY_WORKFLOWS_PATH : WITH_PLUGIN_PATH,
    preloadModules: [...new Set([...(options.preloadModules ?? []), ...RECOVERY_PRELOAD_MODULES, own])],
    webpackConfigHook: hook,
  };
}

/**
 * The module that stands for workflows/worker-data.ts in the bundle: written once per content (its name is the
 * content's sha256) under the OS's temporary directory, so workers of one machine share it.
 * @throws the file system's error when the directory cannot be written.
 */
export function workerDataModule(data: WorkerData): string {
  const text =
    `/* ${WORKER_DATA_MARK}${data.catalogDigest} */\n` +
    `"use strict";\nObject.defineProperty(exports, "__esModule", { value: true });\n` +
    `exports.WORKER_DATA = ${JSON.stringify(data)};\n`;
  const dir = join(tmpdir(), 'recovery-router');
  const file = join(dir, `worker-data-${createHash('sha256').update(text).digest('hex').slice(0, 24)}.js`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, text);
  return file;
}
