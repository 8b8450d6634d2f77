/**
 * The plugin's workflow code as a user's worker bundles it: from the package's compiled JavaScript, not from this
 * repository's TypeScript. A user's bundle takes `recovery-router`'s `dist/` (tsc, `tsconfig.build.json`: ES2022,
 * no comments); bundling the sources instead runs them through the bundler's own TypeScript loader (swc, ES2017),
 * which turns every object spread into a helper call, and keeps every comment in the bundle.
 *
 * `builtWorkflowSources()` compiles the package (`tsconfig.build.json`) into bench/results/package-build/ (inside the
 * repository, so the bundler resolves `@temporalio/*` and zod from its node_modules), once per process, about 20 s,
 * and answers the paths the built plugin bundles for a worker without a `workflowsPath`: `RECOVERY_WORKFLOWS_PATH`,
 * and `RECOVERY_PRELOAD_MODULES` with it as preloads, each mapped to its compiled file.
 * @throws Error when the compiler fails (its output in the message).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { RECOVERY_PRELOAD_MODULES, RECOVERY_WORKFLOWS_PATH } from '../plugin/recovery-plugin';

const ROOT = join(__dirname, '..');
const OUT_DIR = join(__dirname, 'results', 'package-build');

export interface WorkflowSources {
  /** The compiled `workflows/index.js`. */
  workflowsPath: string;
  /** The compiled modules the plugin preloads. */
  preloadModules: string[];
}

let built: WorkflowSources | undefined;

export function builtWorkflowSources(): WorkflowSources {
  if (built) return built;
  rmSync(OUT_DIR, { recursive: true, force: true });
  const tsc = require.resolve('typescript/bin/tsc');
  try {
    execFileSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json'), '--outDir', OUT_DIR], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    throw new Error(`bench: compiling the package failed:\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  }
  const compiled = (source: string): string => {
    const path = join(OUT_DIR, relative(ROOT, source)).replace(/\.ts$/, '.js');
    if (!existsSync(path)) throw new Error(`bench: the package build has no ${path}`);
    return path;
  };
  // What the plugin preloads for a worker without a workflowsPath of its own: the router's entry and its workflows.
  const preloads = [...RECOVERY_PRELOAD_MODULES, RECOVERY_WORKFLOWS_PATH];
  built = { workflowsPath: compiled(RECOVERY_WORKFLOWS_PATH), preloadModules: preloads.map(compiled) };
  return built;
}
