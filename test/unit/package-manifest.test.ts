/**
 * package.json, tsconfig.build.json and the README's Install section agree: what the README tells a user to
 * install is the package and its required peers; every entry point is built; every peer is tested at the version
 * the repository pins. No build, no install (test/temporal/consumer.test.ts does those).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  exports: Record<string, string | { types: string; default: string }>;
  bin: Record<string, string>;
  files: string[];
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
  devDependencies: Record<string, string>;
};
/** tsconfig.build.json is JSONC: its comment lines start with `//`. */
const build = JSON.parse(
  readFileSync(join(ROOT, 'tsconfig.build.json'), 'utf8')
    .split('\n')
    .filter((l) => !l.trim().startsWith('//'))
    .join('\n'),
) as { files: string[] };

/** `a` ≥ `b` for plain `x.y.z` versions, compared part by part as numbers. */
function atLeast(a: string, b: string): boolean {
  const [x, y] = [a, b].map((v) => v.split('.').map(Number));
  const i = x!.findIndex((n, k) => n !== y![k]);
  return i === -1 || x![i]! > y![i]!;
}

test("engines names the Node lines the consumer test runs (this machine's 20, and 22 and 24 from the registry), as the README's table does", () => {
  const { engines } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
  expect(engines.node).toBe('^20 || ^22 || ^24');
  const consumer = readFileSync(join(ROOT, 'test', 'temporal', 'consumer.test.ts'), 'utf8');
  expect(consumer).toContain("test.each([22, 24])('the quick start compiles once and runs on Node %i'");
  expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain('| Node.js | 20, 22, 24 ');
});

const optional = Object.keys(pkg.peerDependenciesMeta).filter((n) => pkg.peerDependenciesMeta[n]?.optional);
const required = Object.keys(pkg.peerDependencies).filter((n) => !optional.includes(n));

test('the README’s Install command installs the package and exactly its required peers', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = /## Install\n\n```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
  const names = block
    .replace(/\\\n/g, ' ')
    .split(/\s+/)
    .filter((w) => w && !['npm', 'install'].includes(w));
  expect(names.sort()).toEqual(['recovery-router', ...required].sort());
});

test('the optional peers are the integrations and OpenTelemetry’s API; the entry points are ., ./workflow (the router), ./workflows (the plugin’s workflows), ./types (types only), one per integration (two for the agent frameworks: Node side and workflow side), ./operator, ./testing, ./server, and the scripted policy’s JSON Schema', () => {
  expect(optional.sort()).toEqual([
    '@modelcontextprotocol/sdk',
    '@openai/agents-core',
    '@opentelemetry/api',
    'ai',
    'openai',
    'prom-client',
  ]);
  expect(Object.keys(pkg.exports)).toEqual([
    '.',
    './workflow',
    './workflows',
    './types',
    './openai',
    './mcp',
    './metrics',
    './ai-sdk',
    './ai-sdk/workflow',
    './openai-agents',
    './openai-agents/workflow',
    './operator',
    './testing',
    './server',
    './schemas/scripted-policy.schema.json',
    './package.json',
  ]);
});

test('every entry point and the bin are built by tsconfig.build.json, with types next to the JavaScript', () => {
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    if (typeof target === 'string') continue; // package.json and the JSON Schema: files, not modules
    const { types, default: js } = target as { types: string; default: string };
    expect([subpath, types]).toEqual([subpath, js.replace(/\.js$/, '.d.ts')]);
    expect(build.files).toContain(js.replace(/^\.\/dist\//, '').replace(/\.js$/, '.ts'));
  }
  expect(build.files).toContain(pkg.bin['recovery-router']!.replace(/^\.\/dist\//, '').replace(/\.js$/, '.ts'));
  expect(pkg.files.filter((f) => !f.startsWith('dist/'))).toEqual(['schemas/*.json']);
});

test('every module library code names by require.resolve (a workflowsPath, a preload) is built too', () => {
  // Such a module is not imported, so tsc does not follow it from the entry points: it must be listed.
  const files = execFileSync('git', ['ls-files', '*.ts'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f !== '' && !/^(test|bench|notes|examples|scripts)\//.test(f));
  const resolved = files.flatMap((f) =>
    [...readFileSync(join(ROOT, f), 'utf8').matchAll(/require\.resolve\('(\.{1,2}\/[^']+)'\)/g)].map((m) =>
      relative(ROOT, join(ROOT, dirname(f), m[1]!)),
    ),
  );
  expect(resolved.length).toBeGreaterThanOrEqual(3);
  for (const target of new Set(resolved)) {
    const candidates = [`${target}.ts`, `${target}/index.ts`];
    expect([target, candidates.some((c) => build.files.includes(c))]).toEqual([target, true]);
  }
});

test('@temporalio peers share one range; every peer is pinned in devDependencies at a version of its range', () => {
  const temporal = Object.entries(pkg.peerDependencies).filter(([n]) => n.startsWith('@temporalio/'));
  expect(new Set(temporal.map(([, range]) => range))).toEqual(new Set(['^1.23.0']));
  for (const [name, range] of Object.entries(pkg.peerDependencies)) {
    const pinned = pkg.devDependencies[name] ?? '';
    const floor = range.replace(/^\^/, '');
    expect([name, pinned.split('.')[0], atLeast(pinned, floor)]).toEqual([name, floor.split('.')[0], true]);
  }
  expect(Object.keys(pkg.dependencies).sort()).toEqual(['cockatiel', 'commander']);
});
