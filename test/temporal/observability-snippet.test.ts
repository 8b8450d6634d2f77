/**
 * docs/observability.md's tracing snippet runs as written (issue 36: a new user had to guess the OpenTelemetry
 * packages and versions). The block after `<!-- snippet:traced-worker -->` is written to a folder of this repository
 * (its imports resolve to the installed packages; only `recovery-router` names this checkout) with a
 * temporal.config.json giving it a task queue of its own, type-checked and run by ts-node against the test server;
 * its printed spans are read back. The install line above it names every package the snippet imports from
 * OpenTelemetry, at the version installed here.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { uniqueTaskQueue } from '../setup/env';
import { SCRATCH_PATHS } from '../setup/scratch-paths';

jest.setTimeout(240_000);

const REPO = join(__dirname, '..', '..');
const DOC = readFileSync(join(REPO, 'docs', 'observability.md'), 'utf8');
const SNIPPET = /<!-- snippet:traced-worker -->\s*```ts\n([\s\S]*?)```/.exec(DOC)?.[1] ?? '';
const INSTALL = /```sh\n(npm install [\s\S]*?)```/.exec(DOC)?.[1]?.replace(/\\\n\s*/g, '') ?? '';
const imported = [...SNIPPET.matchAll(/from '([^']+)'/g)].map((m) => m[1]!);

test('the install line names each OpenTelemetry package the snippet imports, at the installed version', () => {
  const otel = imported.filter((p) => p.startsWith('@opentelemetry/') || p.endsWith('-opentelemetry'));
  expect(otel.sort()).toEqual([
    '@opentelemetry/context-async-hooks',
    '@opentelemetry/resources',
    '@opentelemetry/sdk-trace-base',
    '@temporalio/interceptors-opentelemetry',
  ]);
  const named = Object.fromEntries(
    INSTALL.trim()
      .split(/\s+/)
      .slice(2)
      .map((spec) => [spec.slice(0, spec.lastIndexOf('@')), spec.slice(spec.lastIndexOf('@') + 1)]),
  );
  const installed = (p: string) =>
    (JSON.parse(readFileSync(join(REPO, 'node_modules', p, 'package.json'), 'utf8')) as { version: string }).version;
  for (const p of [...otel, '@opentelemetry/api']) expect([p, named[p]]).toEqual([p, installed(p)]);
});

test('the snippet type-checks and runs as written: Temporal’s spans and the router’s, no operation id', async () => {
  const dir = join(REPO, SCRATCH_PATHS.snippet(process.pid));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  try {
    writeFileSync(join(dir, 'traced-worker.ts'), SNIPPET.replace("from 'recovery-router'", "from '../index'"));
    writeFileSync(join(dir, 'temporal.config.json'), JSON.stringify({ taskQueue: uniqueTaskQueue('snippet') }));
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [require.resolve('ts-node/dist/bin.js'), '--project', join(REPO, 'tsconfig.json'), 'traced-worker.ts'],
      {
        cwd: dir,
        env: { ...process.env, TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS },
        maxBuffer: 1 << 26,
        timeout: 200_000,
      },
    );
    const names = [...stdout.matchAll(/^\s*name: '([^']+)'/gm)].map((m) => m[1]!);
    expect(names.filter((n) => /flaky_read/.test(n)).sort()).toEqual([
      'execute_tool flaky_read',
      'execute_tool flaky_read',
      'recover flaky_read',
    ]);
    expect(names).toContain('RunWorkflow:toolPlanWorkflow');
    expect(stdout).not.toMatch(/operation_id/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
