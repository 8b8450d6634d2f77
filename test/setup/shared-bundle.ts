/**
 * The plugin's workflows bundled once per jest run (not once per test file): `globalSetup` writes the bundle and
 * its source map to a temporary directory and names it in `RECOVERY_TEST_BUNDLE`; test/temporal/harness.ts's
 * `workflowBundle()` reads it when set. Each bundle costs seconds of CPU, and the temporal, desk and dialects
 * projects hold dozens of test files that need the same one.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleWorkflowCode, DefaultLogger, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { RECOVERY_PRELOAD_MODULES, RECOVERY_WORKFLOWS_PATH } from '../../plugin/workflow-code';

const ENV = 'RECOVERY_TEST_BUNDLE';

/** Bundles the plugin's workflows, preloading the router's entry and the workflows module, as the plugin does. */
export function bundleRecoveryWorkflows(): Promise<WorkflowBundleWithSourceMap> {
  return bundleWorkflowCode({
    workflowsPath: RECOVERY_WORKFLOWS_PATH,
    preloadModules: [...RECOVERY_PRELOAD_MODULES, RECOVERY_WORKFLOWS_PATH],
    logger: new DefaultLogger('ERROR'),
  });
}

/** Writes the run's bundle once (a second project's setup finds it set) and names its path in the environment. */
export async function writeSharedBundle(): Promise<void> {
  if (process.env[ENV]) return;
  const dir = mkdtempSync(join(tmpdir(), 'recovery-bundle-'));
  const { code, sourceMap } = await bundleRecoveryWorkflows();
  writeFileSync(join(dir, 'workflows.js'), code);
  writeFileSync(join(dir, 'workflows.js.map'), sourceMap);
  process.env[ENV] = join(dir, 'workflows.js');
}

/** The run's bundle, when a global setup wrote one. */
export function sharedBundle(): WorkflowBundleWithSourceMap | undefined {
  const path = process.env[ENV];
  if (!path) return undefined;
  return { code: readFileSync(path, 'utf8'), sourceMap: readFileSync(`${path}.map`, 'utf8') };
}

/** Removes the run's bundle. */
export function removeSharedBundle(): void {
  const path = process.env[ENV];
  if (path) rmSync(join(path, '..'), { recursive: true, force: true });
  delete process.env[ENV];
}
