/**
 * `npm run bench:package [-- --runs N]`: what the package costs a user, measured on the built `dist/` (run after
 * `npm run build`; the script builds if dist/ is missing):
 *   - the tarball: packed and unpacked bytes, files (`npm pack --dry-run --json`);
 *   - `require('recovery-router')` in a fresh `node` process: wall time (ms, median of N) and modules loaded, alone
 *     and after `@temporalio/worker` and `/client` (what a worker process loads anyway);
 *   - the workflow bundle (Temporal's `bundleWorkflowCode`, inline source map removed): a bare workflow, the
 *     README's workflow on `recovery-router/workflow`, and the plugin's own workflows; KB added over the bare one.
 *     Bundled from a project directory where the package sits in `node_modules/recovery-router`, as a user's worker
 *     does: webpack writes each module's path from the working directory into the bundle, so a shorter path would
 *     measure less than a user gets.
 * Prints a table and writes bench/results/package.json. Numbers, not gates: these machines are noisy.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { Command, InvalidArgumentError } from 'commander';
import { z } from 'zod';
import type * as Package from '../index';
import { summarize } from './stats';

const ROOT = join(__dirname, '..');
const OUT = join(__dirname, 'results', 'package');

/** Node code printing `{ ms, modules }` for requiring `targets` in order, after `warm` (not counted). */
function requireProbe(warm: string[], targets: string[]): string {
  return [
    `for (const m of ${JSON.stringify(warm)}) require(m);`,
    'const before = Object.keys(require.cache).length;',
    'const t0 = process.hrtime.bigint();',
    `for (const m of ${JSON.stringify(targets)}) require(m);`,
    'const ms = Number(process.hrtime.bigint() - t0) / 1e6;',
    'console.log(JSON.stringify({ ms, modules: Object.keys(require.cache).length - before }));',
  ].join('\n');
}

function requireCost(warm: string[], targets: string[], runs: number): { ms: number; modules: number } {
  const samples = Array.from({ length: runs }, () => {
    const out = execFileSync(process.execPath, ['-e', requireProbe(warm, targets)], { cwd: ROOT, encoding: 'utf8' });
    return JSON.parse(out) as { ms: number; modules: number };
  });
  return { ms: summarize(samples.map((s) => s.ms)).median, modules: samples[0]!.modules };
}

const WORKFLOWS: Record<string, string> = {
  bare: "exports.hello = async function hello(name) { return 'Hello, ' + name; };\n",
  // The README's quick start workflow, bundled with the plugin (which adds reconcileOperationWorkflow and its data).
  readme: [
    "const { createToolRouter } = require('recovery-router/workflow');",
    'exports.bookingAgent = async function bookingAgent() {',
    '  const router = createToolRouter();',
    '  router.startTurn();',
    "  return router.callTool('check_inventory', { sku: 'desk-1' });",
    '};',
    '',
  ].join('\n'),
  plugin: "module.exports = require('recovery-router/workflows');\n",
};

/**
 * `OUT` as a user's project: `node_modules/recovery-router` holds a copy of the package (package.json and dist/), so
 * the bundle names its modules as it does for a user (webpack writes each module's path into the bundle, so the path
 * is part of the size); every other package links to this repository's node_modules.
 */
function installAsUser(): void {
  const modules = join(OUT, 'node_modules');
  rmSync(modules, { recursive: true, force: true });
  mkdirSync(join(modules, 'recovery-router'), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(modules, 'recovery-router', 'package.json'));
  cpSync(join(ROOT, 'dist'), join(modules, 'recovery-router', 'dist'), { recursive: true });
  for (const name of readdirSync(join(ROOT, 'node_modules'))) {
    if (name === 'recovery-router' || name.startsWith('.')) continue;
    symlinkSync(join(ROOT, 'node_modules', name), join(modules, name));
  }
}

interface BundleSize {
  /** The bundle without its inline source map, KB (1024 B). */
  kb: number;
  /** KB per package (`recovery-router` for this package's own modules), from webpack's module markers. */
  byPackage: Record<string, number>;
}

/** A plugin of the built package with one tool, as the README's worker has (its bundler options add its code). */
function builtPlugin(): NonNullable<Parameters<typeof bundleWorkflowCode>[0]['plugins']>[number] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the built package, not the sources
  const { RecoveryPlugin, defineTool } = require(join(OUT, 'node_modules', 'recovery-router')) as typeof Package;
  const tool = defineTool({
    name: 'check_inventory',
    description: 'Units in stock for a SKU.',
    input: z.object({ sku: z.string() }),
    output: z.object({ units: z.number() }),
    effect: 'read',
    execute: async () => ({ units: 1 }),
  });
  return new RecoveryPlugin({ tools: [tool], config: {} });
}

async function bundleSize(name: string): Promise<BundleSize> {
  const file = join(OUT, `${name}.js`);
  writeFileSync(file, WORKFLOWS[name]!);
  const silent = () => undefined;
  const logger = { log: silent, trace: silent, debug: silent, info: silent, warn: silent, error: console.error };
  const plugins = name === 'readme' ? [builtPlugin()] : [];
  const { code } = await bundleWorkflowCode({ workflowsPath: file, logger, plugins });
  const stripped = code.replace(/\n\/\/# sourceMappingURL=data:[^\n]*/g, '');
  const byPackage: Record<string, number> = {};
  // Development-mode webpack writes each module as `/***/ "<path>":`.
  for (const part of stripped.split('\n/***/ "').slice(1)) {
    const path = part.slice(0, part.indexOf('"'));
    const key = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1] ?? 'other';
    byPackage[key] = (byPackage[key] ?? 0) + part.length / 1024;
  }
  return { kb: stripped.length / 1024, byPackage };
}

/** What `subject` adds over `base`, per package, largest first, in KB. */
function addedByPackage(subject: BundleSize, base: BundleSize): [string, number][] {
  return Object.entries(subject.byPackage)
    .map(([k, v]): [string, number] => [k, v - (base.byPackage[k] ?? 0)])
    .filter(([, v]) => v > 0.05)
    .sort((a, b) => b[1] - a[1]);
}

async function main(): Promise<void> {
  const { runs } = new Command('bench:package')
    .option(
      '--runs <n>',
      'fresh node processes per require measurement',
      (v) => {
        const n = Number(v);
        if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be an integer ≥ 1');
        return n;
      },
      7,
    )
    .parse(process.argv)
    .opts<{ runs: number }>();
  if (!existsSync(join(ROOT, 'dist', 'index.js')))
    execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  mkdirSync(OUT, { recursive: true });
  installAsUser();

  const [pack] = JSON.parse(
    execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' }),
  ) as { size: number; unpackedSize: number; entryCount: number }[];
  const temporal = ['@temporalio/worker', '@temporalio/client'];
  const entry = join(ROOT, 'dist', 'index.js');
  const requireAlone = requireCost([], [entry], runs);
  const requireAfterTemporal = requireCost(temporal, [entry], runs);
  const temporalAlone = requireCost([], temporal, runs);
  const workflowEntry = requireCost([], [join(ROOT, 'dist', 'workflow.js')], runs);
  // From the project's directory, as a user's worker runs: webpack names each module by its path from there.
  process.chdir(OUT);
  const bareBundle = await bundleSize('bare');
  const readmeBundle = await bundleSize('readme');
  const pluginBundle = await bundleSize('plugin');
  process.chdir(ROOT);
  const [bare, readme, plugin] = [bareBundle.kb, readmeBundle.kb, pluginBundle.kb];
  const added = addedByPackage(readmeBundle, bareBundle);

  const report = {
    tarball: { packedBytes: pack!.size, unpackedBytes: pack!.unpackedSize, files: pack!.entryCount },
    require: {
      runs,
      recoveryRouter: requireAlone,
      afterTemporalWorkerAndClient: requireAfterTemporal,
      temporalWorkerAndClient: temporalAlone,
      workflowEntryInNode: workflowEntry,
    },
    bundleKb: {
      bare,
      readmeWorkflow: readme,
      pluginWorkflows: plugin,
      addedByReadmeWorkflow: readme - bare,
      addedByPluginWorkflows: plugin - bare,
    },
  };
  const kb = (n: number) => `${n.toFixed(1)} KB`;
  console.log(
    [
      `tarball                          ${(pack!.size / 1000).toFixed(1)} kB packed, ${(pack!.unpackedSize / 1e6).toFixed(2)} MB unpacked, ${pack!.entryCount} files`,
      `require('recovery-router')       ${requireAlone.ms.toFixed(0)} ms, ${requireAlone.modules} modules (median of ${runs} fresh processes)`,
      `  after @temporalio/worker+client ${requireAfterTemporal.ms.toFixed(0)} ms, ${requireAfterTemporal.modules} more modules (those two alone: ${temporalAlone.ms.toFixed(0)} ms, ${temporalAlone.modules} modules)`,
      `require('recovery-router/workflow') in Node ${workflowEntry.ms.toFixed(0)} ms, ${workflowEntry.modules} modules`,
      `workflow bundle, no source map   bare ${kb(bare)}; README workflow ${kb(readme)} (+${kb(readme - bare)}); plugin's workflows ${kb(plugin)} (+${kb(plugin - bare)})`,
      `  added by the README workflow    ${added.map(([k, v]) => `${k} ${kb(v)}`).join(', ')}`,
    ].join('\n'),
  );
  writeFileSync(join(__dirname, 'results', 'package.json'), `${JSON.stringify(report, null, 2)}\n`);
}

main().catch((err) => {
  console.error(err);
  process.exit(2);
});
