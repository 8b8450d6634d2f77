/**
 * The package as a new user gets it: `npm pack`, then fresh projects in the OS temp folder (test/temporal/fixtures/
 * consumer-project.ts) install the tarball and its peers, compile the README's quick start verbatim with tsc under
 * strict settings, and run it with plain `node` against the run's dev server. The worker bundles the workflows with
 * Temporal's bundler (no loader hooks). One tool answers 503 then 200 (Temporal retries: 2 attempts), one 409
 * (replan, with the observed state). Variants: the newest peers we claim (@temporalio 1.24.0, zod 4.6.7) in a
 * CommonJS project and an ESM one sharing its install, and the oldest (1.23.0, zod 4.1.0); the newest on Node 22 and
 * 24 too (the npm registry's `node` package: the newest project's install checked with `--engine-strict` on each, its
 * compiled quick start run on each), beside this process's Node. The guides' files that belong to the quick start's
 * project (docs/tools.md, docs/testing.md, docs/agents.md) compile with it, and the testing guide's replay program
 * replays the quick start's run.
 *
 * Each project writes a `temporal.config.json` (own task queue, a 1 s fixed backoff) that the plugin reads from the
 * working directory: the 1 s gap between the two inventory requests (the default would be 0.5–0.6 s) shows it did.
 *
 * The tests run in order and share the installs. Installs prefer npm's cache; the first run on a machine fetches
 * what the repository's own `npm ci` did not cache.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { delimiter, dirname, join } from 'node:path';
import { startPaymentsMcpServer } from '../../examples/mcp-payments-server';
import { startScriptedService, type ScriptedService } from '../../examples/scripted-service';
import { INSTALL_HINT } from '../../server/temporal-cli';
import { testEnv } from '../setup/env';
import {
  asEsm,
  childEnv,
  copiesOf,
  compile,
  guideFiles,
  install,
  onNode,
  installSpecs,
  packRepository,
  withPackLock,
  quickStartFiles,
  quickStartOutput,
  REPO,
  sectionFiles,
  sectionOutput,
  sh,
  writeProject,
  TEMPORAL_PEERS,
  type PackedPackage,
} from './fixtures/consumer-project';

jest.setTimeout(300_000);

const README = readFileSync(join(REPO, 'README.md'), 'utf8');
const MCP_GUIDE = readFileSync(join(REPO, 'docs', 'mcp.md'), 'utf8');
const MCP_EXAMPLE = '## Example: a remote payments server';
const NEWEST = { temporal: '1.24.0', zod: '4.6.7' };
const OLDEST = { temporal: '1.23.0', zod: '4.1.0' };
const SLOT_TAKEN = { code: 'slot_taken', message: 'slot 10:00 is taken', freeSlots: ['11:00', '14:30'] };
const BACKOFF_MS = 1_000;

let root: string;
let service: ScriptedService;
let packed: PackedPackage;
let env: TestWorkflowEnvironment;

beforeAll(async () => {
  env = await testEnv();
  root = mkdtempSync(join(tmpdir(), 'rr-consumer-'));
  service = await startScriptedService({});
  packed = await packRepository(root);
});
afterAll(async () => {
  await service?.close();
  await env?.teardown();
  if (root) rmSync(root, { recursive: true, force: true });
});

/** A loopback port nothing listens on (bound, then released). */
function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
    server.once('error', fail);
  });
}

/**
 * A project's `temporal.config.json`: a task queue of its own, a fixed 1 s backoff, and an embedded server port no
 * server answers at.
 */
async function configFor(name: string) {
  return {
    taskQueue: `consumer-${name}-${process.pid}`,
    backoff: { initialIntervalMs: BACKOFF_MS, maximumIntervalMs: BACKOFF_MS, jitterRatio: 0 },
    embeddedServer: { port: await freePort() },
  };
}

/**
 * A CommonJS project `<root>/<name>` with the README's quick start, the tarball and the peers at `versions`
 * installed; checks there is one copy of zod and of each @temporalio package, at those versions.
 */
async function installedProject(name: string, versions: { temporal: string; zod: string }): Promise<string> {
  const dir = join(root, name);
  writeProject(dir, { src: { ...quickStartFiles(README), ...guideFiles() }, config: await configFor(name) });
  const installed = await install(dir, installSpecs(packed.file, versions.temporal, versions.zod));
  console.log(`install (${name}): ${installed.ms} ms, ${installed.packages} packages`);
  const version = (p: string) =>
    (JSON.parse(readFileSync(join(dir, 'node_modules', p, 'package.json'), 'utf8')) as { version: string }).version;
  for (const p of ['zod', ...TEMPORAL_PEERS]) expect([p, copiesOf(dir, p)]).toEqual([p, [`node_modules/${p}`]]);
  expect(['zod', ...TEMPORAL_PEERS].map(version)).toEqual([
    versions.zod,
    ...TEMPORAL_PEERS.map(() => versions.temporal),
  ]);
  return dir;
}

/**
 * Runs the compiled quick start in `dir` against the test server and the scripted service (on Node `major` from the
 * registry, else this process's Node); returns what it printed.
 */
async function runQuickStart(dir: string, major?: number): Promise<unknown> {
  service.reset({
    'GET /inventory/desk-1': [
      { status: 503, body: { error: 'busy' } },
      { status: 200, body: { sku: 'desk-1', units: 4 } },
    ],
    'POST /book': [{ status: 409, body: SLOT_TAKEN }],
  });
  const vars = { TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS!, SERVICE_URL: service.url };
  const stdout =
    major === undefined
      ? await sh(process.execPath, ['lib/main.js'], dir, childEnv(vars), 120_000)
      : await sh('node', ['lib/main.js'], dir, await onNode(major, vars), 120_000);
  return JSON.parse(stdout);
}

/**
 * The files tsc reported errors in, but those in @temporalio's own declarations: @temporalio/client's fail
 * `exactOptionalPropertyTypes` and @temporalio/common's need `@types/ms`, with or without this package. The same
 * for @modelcontextprotocol/sdk's, in the MCP project: its `shared/transport.d.ts` names the DOM type
 * `HeadersInit`, which `lib: es2021` does not have. A project inside another reports them as `../node_modules/…`.
 */
function outsideTemporal(files: string[]): string[] {
  return files
    .map((f) => f.replace(/^(?:\.\.\/)+/, ''))
    .filter((f) => !f.startsWith('node_modules/@temporalio/') && !f.startsWith('node_modules/@modelcontextprotocol/'));
}

/**
 * What every variant must show: the README's output, two inventory requests, the retry scheduled exactly 1 s out
 * (the project's fixed backoff, no jitter: read from the run's history, never measured), one booking request.
 */
async function expectQuickStartRan(printed: unknown): Promise<void> {
  expect(printed).toEqual(quickStartOutput(README));
  const inventory = service.received.filter((r) => r.route === 'GET /inventory/desk-1');
  expect(inventory).toHaveLength(2);
  const booking = service.received.filter((r) => r.route === 'POST /book');
  expect(booking).toHaveLength(1);
  const key = String(booking[0]!.headers['idempotency-key']);
  expect(key).toMatch(/^booking-\d+@[0-9a-f-]{36}:t2:book_slot#0$/);
  expect(JSON.parse(booking[0]!.body)).toEqual({ slot: '10:00', customerId: 'cus_7' });
  const events = (await env.client.workflow.getHandle(key.slice(0, key.indexOf('@'))).fetchHistory()).events ?? [];
  const retried = events
    .map((e) => e.activityTaskStartedEventAttributes)
    .filter((a) => a?.attempt === 2)
    .map((a) => a!.lastFailure?.applicationFailureInfo?.nextRetryDelay);
  expect(retried.map((d) => [Number(d?.seconds), d?.nanos ?? 0])).toEqual([[BACKOFF_MS / 1_000, 0]]);
}

test("the tarball holds dist/ (JavaScript, declarations, source maps, the desk page), the scripted policy's JSON Schema, README and package.json only", () => {
  const outside = packed.files.filter((f) => !/^dist\/.+\.(js|js\.map|d\.ts)$/.test(f));
  expect(outside.sort()).toEqual([
    'README.md',
    'dist/operator/desk/public/desk.css',
    'dist/operator/desk/public/index.html',
    'package.json',
    'schemas/scripted-policy.schema.json',
  ]);
  expect(packed.files).toEqual(
    expect.arrayContaining([
      'dist/index.js',
      'dist/workflow.d.ts',
      'dist/operator/cli.js',
      'dist/operator/desk/public/desk.js',
    ]),
  );
  console.log(`tarball: ${packed.size} B packed, ${packed.unpackedSize} B unpacked, ${packed.files.length} files`);
});

test('publint --strict and Are the Types Wrong (strict profile: node10, node16 from CJS and ESM, bundler) find no problem', async () => {
  // dist/ of the repository: read under the pack lock, which another test file's build (interop) also holds.
  expect(await withPackLock(() => sh('npx', ['publint', '--strict'], REPO))).toContain('All good!');
  expect(await sh('npx', ['attw', '--format', 'ascii', packed.file], REPO)).toContain('No problems found');
});

test('require of the built entry loads no openai, MCP, prom-client, AI SDK or OpenAI Agents module, although the repository has them', async () => {
  const script = [
    'const before = new Set(Object.keys(require.cache));',
    "require('./dist/index.js');",
    'const loaded = Object.keys(require.cache).filter((k) => !before.has(k));',
    'console.log(JSON.stringify(loaded.filter((k) => /node_modules\\/(openai|@modelcontextprotocol|prom-client|ai|@ai-sdk|@openai|@temporalio\\/(ai-sdk|openai-agents))\\//.test(k))));',
  ].join('\n');
  expect(JSON.parse(await withPackLock(() => sh(process.execPath, ['-e', script], REPO)))).toEqual([]);
  for (const peer of ['openai', 'ai', '@openai/agents-core']) {
    expect(require.resolve(peer, { paths: [REPO] })).toContain(`node_modules/${peer}/`);
  }
});

describe(`newest peers (@temporalio ${NEWEST.temporal}, zod ${NEWEST.zod})`, () => {
  let dir: string;

  test('install: the tarball and its peers, one copy of each at the versions asked for; no optional peer', async () => {
    dir = await installedProject('newest', NEWEST);
    expect(copiesOf(dir, 'openai')).toEqual([]);
  });

  test('CommonJS: the quick start compiles (strict, exactOptionalPropertyTypes, lib es2021, skipLibCheck false) and runs with node', async () => {
    expect(outsideTemporal(await compile(dir, true))).toEqual([]);
    await expectQuickStartRan(await runQuickStart(dir));
  });

  test('docs/testing.md "Replaying histories": its replay.ts fetches the quick start\'s history and replays it with the plugin, with npm\'s nested protobufjs copies', async () => {
    // This install's top-level protobufjs is 7.x (@grpc/proto-loader's); npm nests 8.x under each @temporalio
    // package, where @temporalio/common's own historyToJSON fails with "type must be a Type".
    expect(copiesOf(dir, 'protobufjs').length).toBeGreaterThan(1);
    const findRun = [
      "const { Client, Connection } = require('@temporalio/client');",
      '(async () => {',
      '  const connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS });',
      '  let id;',
      '  for (let i = 0; i < 50 && id === undefined; i++) {',
      '    const runs = new Client({ connection }).workflow.list({ query: `TaskQueue="${process.argv[1]}"` });',
      '    for await (const w of runs) id = w.workflowId;',
      '    if (id === undefined) await new Promise((r) => setTimeout(r, 200));',
      '  }',
      '  console.log(id);',
      '  await connection.close();',
      '})().catch((e) => { console.error(e); process.exit(1); });',
    ].join('\n');
    const taskQueue = (JSON.parse(readFileSync(join(dir, 'temporal.config.json'), 'utf8')) as { taskQueue: string })
      .taskQueue;
    const env = childEnv({ TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS! });
    const workflowId = (await sh(process.execPath, ['-e', findRun, taskQueue], dir, env, 60_000)).trim();
    expect(workflowId).toMatch(/^booking-\d+$/);
    const printed: unknown = JSON.parse(await sh(process.execPath, ['lib/replay.js', workflowId], dir, env, 120_000));
    expect(printed).toEqual({ workflowId, replayed: true });
    const history = JSON.parse(readFileSync(join(dir, 'histories', `${workflowId}.json`), 'utf8')) as {
      events: { eventType: string }[];
    };
    expect([history.events[0]?.eventType, history.events.at(-1)?.eventType]).toEqual([
      'EVENT_TYPE_WORKFLOW_EXECUTION_STARTED',
      'EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED',
    ]);
  });

  test('require("recovery-router") without the optional peers: loads, as do /operator, /testing and /server; each integration names its missing peer', async () => {
    const script = [
      "require('recovery-router');",
      "for (const sub of ['operator', 'testing', 'server', 'openai', 'mcp', 'metrics', 'ai-sdk', 'ai-sdk/workflow', 'openai-agents', 'openai-agents/workflow']) {",
      "  try { require('recovery-router/' + sub); console.log(sub, 'loaded'); }",
      "  catch (e) { console.log(sub, e.code, /Cannot find module '([^']+)'/.exec(e.message)[1]); }",
      '}',
    ].join('\n');
    expect((await sh(process.execPath, ['-e', script], dir)).trim().split('\n')).toEqual([
      'operator loaded',
      'testing loaded',
      'server loaded',
      'openai MODULE_NOT_FOUND openai',
      'mcp MODULE_NOT_FOUND @modelcontextprotocol/sdk/client/index.js',
      'metrics MODULE_NOT_FOUND prom-client',
      // Types only from `ai`: an AI SDK tool is read by shape (whoever built it has `ai`).
      'ai-sdk loaded',
      'ai-sdk/workflow MODULE_NOT_FOUND ai',
      'openai-agents MODULE_NOT_FOUND @openai/agents-core',
      // Types only from @openai/agents-core: it loads without the peer (the agent that uses it needs the peer).
      'openai-agents/workflow loaded',
    ]);
  });

  test('the recovery-router bin: --help lists its commands; `server` without a Temporal CLI says how to get one', async () => {
    const help = await sh('npx', ['recovery-router', '--help'], dir);
    expect([...help.matchAll(/^  (\w+) /gm)].map((m) => m[1])).toEqual([
      'approvals',
      'reviews',
      'server',
      'desk',
      'rules',
      'help',
    ]);
    // No server answers at the project's embeddedServer port, and no CLI is on this PATH: refused with the hint.
    const env = childEnv({ PATH: [dirname(process.execPath), '/usr/bin', '/bin'].join(delimiter) });
    delete env.TEMPORAL_CLI_PATH;
    await expect(sh('npx', ['recovery-router', 'server'], dir, env)).rejects.toThrow(
      `is not on PATH, TEMPORAL_CLI_PATH is not set and there is no ${join(dir, '.temporal', 'bin', 'temporal')}: ${INSTALL_HINT}`,
    );
  });

  test('the desk from the installed package serves its page, script and stylesheet with the strict CSP', async () => {
    // A client of the run's dev server: the desk reads the approvals once at start, and `close` waits for that read,
    // which against no server ends only when the connection gives up (19 s).
    const script = [
      "const { Client, Connection } = require('@temporalio/client');",
      "const { startDesk } = require('recovery-router/operator');",
      '(async () => {',
      '  const connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS });',
      '  const desk = await startDesk({ client: new Client({ connection }), config: { port: 0 } });',
      "  const answers = await Promise.all(['/', '/desk.js', '/desk.css'].map(async (p) => {",
      '    const res = await fetch(desk.url + p);',
      "    return [p, res.status, res.headers.get('content-type'), res.headers.get('content-security-policy').split(';')[0], (await res.text()).length > 500];",
      '  }));',
      '  console.log(JSON.stringify(answers));',
      '  await desk.close();',
      '  await connection.close();',
      '})().catch((e) => { console.error(e); process.exit(1); });',
    ].join('\n');
    const env = childEnv({ TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS! });
    expect(JSON.parse(await sh(process.execPath, ['-e', script], dir, env))).toEqual([
      ['/', 200, 'text/html; charset=utf-8', "default-src 'self'", true],
      ['/desk.js', 200, 'text/javascript; charset=utf-8', "default-src 'self'", true],
      ['/desk.css', 200, 'text/css; charset=utf-8', "default-src 'self'", true],
    ]);
  });

  test("Node 22 and 24 (the npm registry's node package): this install checked with --engine-strict on each; no package of the quick start refuses either", async () => {
    // Without specs, npm builds the ideal tree from the project's lockfile and checks every package's engines
    // against the Node it runs on (arborist, build-ideal-tree.js: each node of the inventory), then has nothing left
    // to fetch: the engines check of an install without a second download. At least as strict as a fresh install on
    // that Node: npm picks a version whose engines fit when the range has one (npm-pick-manifest), and a locked
    // version that does not fit is refused here. Before the MCP peer's install below: the quick start's packages.
    const flags = ['--engine-strict', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];
    const nodes = await Promise.all([onNode(22), onNode(24)]);
    for (const [major, env] of [
      [22, nodes[0]],
      [24, nodes[1]],
    ] as const) {
      await sh('npm', ['install', ...flags], dir, env);
      // The Node that npm runs on (`npm version` prints its `process.versions`) and the one `node` starts.
      const versions = JSON.parse(await sh('npm', ['version', '--json'], dir, env)) as { node: string };
      const node = (await sh('node', ['-p', 'process.versions.node'], dir, env)).trim();
      expect([versions.node, node].map((v) => v.split('.')[0])).toEqual([String(major), String(major)]);
    }
  });

  test.each([22, 24])('the quick start compiles once and runs on Node %i', async (major) => {
    // tsc's output does not depend on the Node that runs it: the CommonJS compile above (skipLibCheck false).
    await expectQuickStartRan(await runQuickStart(dir, major));
  });

  test('ESM ("type": "module", sharing the install): the same files with .js imports compile and run', async () => {
    const esm = join(dir, 'esm');
    writeProject(esm, {
      type: 'module',
      extendsConfig: '../tsconfig.json',
      src: asEsm(quickStartFiles(README)),
      config: await configFor('esm'),
    });
    expect(await compile(esm, false)).toEqual([]);
    const main = readFileSync(join(esm, 'lib', 'main.js'), 'utf8');
    expect(main).toMatch(/^import \{ RecoveryPlugin \} from 'recovery-router';$/m);
    expect(main).not.toMatch(/\brequire\(/);
    await expectQuickStartRan(await runQuickStart(esm));
  });

  test('docs/mcp.md "Example" (the optional peer installed): the three files compile and run against an MCP server behind bearer auth', async () => {
    const peer = await install(dir, ['@modelcontextprotocol/sdk@1.32.2']);
    console.log(`install (@modelcontextprotocol/sdk): ${peer.ms} ms`);
    const mcp = join(dir, 'mcp');
    writeProject(mcp, {
      extendsConfig: '../tsconfig.json',
      src: sectionFiles(MCP_GUIDE, MCP_EXAMPLE),
      config: await configFor('mcp'),
    });
    expect(outsideTemporal(await compile(mcp, true))).toEqual([]);
    const server = await startPaymentsMcpServer({ demo: true });
    try {
      const env = childEnv({
        TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS!,
        MCP_URL: server.url,
        MCP_TOKEN_URL: server.tokenUrl,
        MCP_REFRESH_TOKEN: server.initialRefreshToken,
      });
      const printed: unknown = JSON.parse(await sh(process.execPath, ['lib/mcp-main.js'], mcp, env, 120_000));
      expect(printed).toEqual(sectionOutput(MCP_GUIDE, MCP_EXAMPLE));
      // The balance: refused once by the payments API, replayed with the refreshed token; the payment made once.
      expect(server.calls.map((c) => c.tool)).toEqual(['get_balance', 'get_balance', 'create_payment', 'find_payment']);
      expect(new Set(server.calls.slice(0, 2).map((c) => c.token)).size).toBe(2);
      expect(server.payments).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});

describe(`oldest peers (@temporalio ${OLDEST.temporal}, zod ${OLDEST.zod})`, () => {
  let dir: string;

  test('install: the tarball and its peers, one copy of each at the versions asked for', async () => {
    dir = await installedProject('oldest', OLDEST);
  });

  test('CommonJS: the quick start compiles (skipLibCheck false) and runs', async () => {
    expect(outsideTemporal(await compile(dir, true))).toEqual([]);
    await expectQuickStartRan(await runQuickStart(dir));
  });
});
