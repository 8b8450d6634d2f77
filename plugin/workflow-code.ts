/**
 * The plugin's workflow code in a Worker: its workflows (`RECOVERY_WORKFLOWS_PATH`, used when the Worker brings none)
 * and the router's modules preloaded into the bundle (`RECOVERY_PRELOAD_MODULES`). Node-side only.
 */
/** `workflowsPath` defaults to the plugin's workflows; the bundle preloads the router's modules. */
export function withOwnWorkflows<T extends { workflowsPath?: string; bundlerOptions?: { preloadModules?: string[] } }>(
  options: T,
): T {
  return {
    ...options,
    workflowsPath: options.workflowsPath ?? RECOVERY_WORKFLOWS_PATH,
    bundlerOptions: withPreload(options.bundlerOptions),
  };
}

/**
 * The router's workflow modules, preloaded once into each reusable V8 context of a worker instead of evaluated
 * again for every workflow run (@temporalio/worker `bundlerOptions.preloadModules`; with `reuseV8Context`, Temporal's
 * default, a run otherwise gets a module cache of its own, so zod and every module of the router were evaluated —
 * and their schemas built — per run). These modules keep no per-run state at module level (docs/DESIGN.md,
 * "Performance"). Absolute paths: a bundle resolves them to the same modules the workflows import through
 * `recovery-router/workflow`.
 *
 * Temporal deep-freezes every module loaded while preloading. The router loads zod only on first use, inside a
 * workflow run (recovery/zod-runtime.ts), so zod stays out of the frozen set and your workflow code's zod schemas
 * (`z.email()` and the other string formats, which write `lastIndex` on zod's RegExps) keep working. If you preload
 * zod yourself, those formats throw "Cannot assign to read only property 'lastIndex'" in workflow code.
 * For a bundle you build yourself: `bundleWorkflowCode({ workflowsPath, plugins: [plugin] })`, or
 * `preloadModules: RECOVERY_PRELOAD_MODULES`.
 */
export const RECOVERY_PRELOAD_MODULES: readonly string[] = Object.freeze([
  require.resolve('../workflow'),
  require.resolve('../workflows'),
]);

export function withPreload<T extends { preloadModules?: string[] }>(
  options: T | undefined,
): T & { preloadModules: string[] } {
  const given = options?.preloadModules ?? [];
  return { ...(options ?? ({} as T)), preloadModules: [...new Set([...given, ...RECOVERY_PRELOAD_MODULES])] };
}

/** The plugin's workflows, used when the worker has neither `workflowsPath` nor `workflowBundle`. */
export const RECOVERY_WORKFLOWS_PATH = require.resolve('../workflows');
