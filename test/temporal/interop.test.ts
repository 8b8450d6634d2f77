/**
 * Temporal's own AI integrations and the frameworks under them, with and without the router, in a fresh project on
 * the versions those integrations pin (@temporalio 1.23.0 throughout; test/temporal/fixtures/interop-project.ts):
 * `generateText` with `@temporalio/ai-sdk`'s provider (model: `ai/test`'s MockLanguageModelV4 on the worker) and an
 * agent under `@temporalio/openai-agents`'s runner (model: the loopback OpenAI server). The tools are written the
 * frameworks' way (`tool({ inputSchema, execute })`, agents-core `tool()` options) and adopted with
 * `fromAiSdkTool` / `fromAgentsTool`; the workflows expose them with `aiSdkTools` / `agentsTools`. The baselines
 * run the same tools as the integrations document: an activity per tool (AI SDK: `execute` calls it; Agents:
 * `activityAsTool`), 3 attempts.
 *
 * Per scenario, exact values: how the workflow ended, what the model read (in order), the router's records, the
 * service's request counts and rows. Installs prefer npm's cache.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  childEnv,
  compile,
  copiesOf,
  install,
  packRepository,
  sh,
  TEMPORAL_PEERS,
  writeProject,
} from './fixtures/consumer-project';
import { INTEROP_VERSIONS, interopFiles, interopSpecs } from './fixtures/interop-project';

// Generous: a pack, an install and a compile of the AI SDK's types, then two workers; ~90 s on an idle machine.
jest.setTimeout(600_000);

interface Run {
  framework: string;
  scenario: string;
  mode: 'router' | 'baseline';
  status: 'completed' | 'failed';
  failure?: { chain: string[]; message: string };
  text?: string;
  seen?: { tool: string; output?: unknown; error?: string }[];
  records?: { tool: string; class: string; action: string }[];
  hits: Record<string, number>;
  bookings: string[];
  emails: string[];
}

let compiled: string[];
let root: string;
let dir: string;
/** Both frameworks' runs, started together once the project compiled (two worker processes, one per core). */
let reports: Promise<[Record<string, Run>, Record<string, Run>]>;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'rr-interop-'));
  const packed = await packRepository(root);
  dir = join(root, 'interop');
  writeProject(dir, { src: interopFiles() });
  const installed = await install(dir, interopSpecs(packed.file, TEMPORAL_PEERS));
  console.log(`install (interop): ${installed.ms} ms, ${installed.packages} packages`);
  compiled = await compile(dir, false, 300_000);
  reports = Promise.all([runFramework('ai-sdk'), runFramework('openai-agents')]);
  reports.catch(() => undefined); // awaited (and reported) by each framework's beforeAll
});
afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

/** The reports of one framework's runs, by `<scenario>/<mode>`. */
async function runFramework(framework: 'ai-sdk' | 'openai-agents'): Promise<Record<string, Run>> {
  const env = childEnv({ TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS! });
  const out = await sh(process.execPath, ['lib/main.js', framework], dir, env, 400_000);
  const runs = JSON.parse(out.trim().split('\n').pop()!) as Run[];
  return Object.fromEntries(runs.map((r) => [`${r.scenario}/${r.mode}`, r]));
}

/** A tool output as the model read it: Agents sends strings (JSON), the AI SDK values. */
const read = (output: unknown): unknown => (typeof output === 'string' ? JSON.parse(output) : output);

const SLOT_TAKEN = { code: 'slot_taken', message: 'slot 10:00 is taken', freeSlots: ['11:00', '14:30'] };

test('install: one copy of each @temporalio package, all at 1.23.0 (what both integrations pin), and the frameworks', () => {
  const version = (p: string) =>
    (JSON.parse(readFileSync(join(dir, 'node_modules', p, 'package.json'), 'utf8')) as { version: string }).version;
  const temporal = [...TEMPORAL_PEERS, '@temporalio/ai-sdk', '@temporalio/openai-agents', '@temporalio/proto'];
  for (const p of temporal) expect([p, copiesOf(dir, p), version(p)]).toEqual([p, [`node_modules/${p}`], '1.23.0']);
  expect(['ai', '@openai/agents-core', 'openai', 'zod'].map(version)).toEqual([
    INTEROP_VERSIONS.ai,
    INTEROP_VERSIONS.agents,
    INTEROP_VERSIONS.openai,
    INTEROP_VERSIONS.zod,
  ]);
});

test('the scenarios compile with tsc (strict, exactOptionalPropertyTypes) against the packed declarations', () => {
  expect(compiled).toEqual([]);
});

describe('AI SDK: generateText with @temporalio/ai-sdk’s provider', () => {
  let runs: Record<string, Run>;
  beforeAll(async () => {
    runs = (await reports)[0];
  });

  test('409 → the model reads the replan feedback with the free slots and books 11:00; baseline: 3 POSTs, "Activity task failed"', () => {
    const routed = runs['slot-taken/router']!;
    expect(routed.status).toBe('completed');
    expect(routed.records).toEqual([
      { tool: 'book_slot', class: 'semantic_rejection', action: 'replan' },
      { tool: 'book_slot', class: 'ok', action: 'ok' },
    ]);
    expect(read(routed.seen![0]!.output)).toMatchObject({
      status: 'failed',
      errorClass: 'semantic_rejection',
      reason: 'conflict',
      action: 'replan',
      observedState: SLOT_TAKEN,
    });
    expect(routed.seen![1]).toEqual({ tool: 'book_slot', output: { bookingId: 'bk_1', slot: '11:00' } });
    expect([routed.text, routed.hits, routed.bookings]).toEqual(['booked 11:00', { 'POST /bookings': 2 }, ['11:00']]);

    const base = runs['slot-taken/baseline']!;
    expect(base.status).toBe('completed');
    expect(base.seen).toEqual([{ tool: 'book_slot', error: 'Activity task failed' }]);
    expect([base.hits, base.bookings]).toEqual([{ 'POST /bookings': 3 }, []]);
  });

  test('unknown tool → capability_missing with the permitted capabilities, nothing dispatched, the workflow completes; baseline: NoSuchToolError text', () => {
    const routed = runs['unknown-tool/router']!;
    expect(routed.status).toBe('completed');
    expect(routed.records).toEqual([{ tool: 'cancel_booking', class: 'capability_missing', action: 'replan' }]);
    const feedback = read(routed.seen![0]!.output) as { reason: string; capabilities: { name: string }[] };
    expect([feedback.reason, feedback.capabilities.map((c) => c.name)]).toEqual([
      'unknown_tool',
      ['book_slot', 'send_email'],
    ]);
    expect([routed.text, routed.hits]).toEqual(['cannot cancel; I can use book_slot, send_email', {}]);

    const base = runs['unknown-tool/baseline']!;
    expect(base.status).toBe('completed');
    expect(base.seen).toHaveLength(1);
    expect(base.seen![0]!.error).toContain(
      "Model tried to call unavailable tool 'cancel_booking'. Available tools: book_slot, send_email.",
    );
  });

  test('lost write → reconciled by lookup, sent once; baseline: retried, sent twice', () => {
    const routed = runs['lost-write/router']!;
    expect(routed.records).toEqual([{ tool: 'send_email', class: 'outcome_unknown', action: 'reconcile' }]);
    expect(read(routed.seen![0]!.output)).toMatchObject({ messageId: 'msg_1', to: 'ana@example.com' });
    expect([routed.text, routed.hits, routed.emails]).toEqual([
      'sent msg_1',
      { 'POST /emails': 1, 'GET /emails': 1 },
      ['ana@example.com'],
    ]);

    const base = runs['lost-write/baseline']!;
    expect(base.seen).toEqual([{ tool: 'send_email', output: { messageId: 'msg_2' } }]);
    expect([base.hits, base.emails]).toEqual([{ 'POST /emails': 2 }, ['ana@example.com', 'ana@example.com']]);
  });

  test('invalid arguments → repair feedback naming `to`, then the fixed call is sent once; baseline: the AI SDK’s own validation error, then the fixed call', () => {
    const routed = runs['invalid-arguments/router']!;
    expect(routed.records).toEqual([
      { tool: 'send_email', class: 'invalid_arguments', action: 'repair' },
      { tool: 'send_email', class: 'ok', action: 'ok' },
    ]);
    const feedback = read(routed.seen![0]!.output) as { action: string; issues: { path: unknown[] }[] };
    expect([feedback.action, feedback.issues.map((i) => i.path)]).toEqual(['repair', [['to']]]);
    expect([routed.text, routed.hits, routed.emails]).toEqual([
      'sent msg_1',
      { 'POST /emails': 1 },
      ['ana@example.com'],
    ]);

    const base = runs['invalid-arguments/baseline']!;
    expect(base.seen![0]!.error).toContain('Invalid input for tool send_email');
    expect(base.seen![1]).toEqual({ tool: 'send_email', output: { messageId: 'msg_1' } });
    expect([base.hits, base.emails]).toEqual([{ 'POST /emails': 1 }, ['ana@example.com']]);
  });
});

describe('OpenAI Agents: an agent under @temporalio/openai-agents’s runner', () => {
  let runs: Record<string, Run>;
  beforeAll(async () => {
    runs = (await reports)[1];
  });

  test('409 → the model reads the replan feedback and books 11:00; baseline: 3 POSTs, then the workflow fails (AgentsWorkflowError)', () => {
    const routed = runs['slot-taken/router']!;
    expect(routed.status).toBe('completed');
    expect(routed.records).toEqual([
      { tool: 'book_slot', class: 'semantic_rejection', action: 'replan' },
      { tool: 'book_slot', class: 'ok', action: 'ok' },
    ]);
    expect(read(routed.seen![0]!.output)).toMatchObject({ action: 'replan', observedState: SLOT_TAKEN });
    expect(read(routed.seen![1]!.output)).toEqual({ bookingId: 'bk_1', slot: '11:00' });
    expect([routed.text, routed.hits, routed.bookings]).toEqual(['booked 11:00', { 'POST /bookings': 2 }, ['11:00']]);

    const base = runs['slot-taken/baseline']!;
    expect(base.status).toBe('failed');
    expect(base.failure!.chain.slice(0, 2)).toEqual(['WorkflowFailedError', 'AgentsWorkflowError']);
    expect(base.failure!.message).toBe('Failed to run function tools: ActivityFailure: Activity task failed');
    expect([base.hits, base.bookings]).toEqual([{ 'POST /bookings': 3 }, []]);
  });

  test('unknown tool → capability_missing through toolErrorFormatter, the workflow completes; baseline: the workflow fails', () => {
    const routed = runs['unknown-tool/router']!;
    expect(routed.status).toBe('completed');
    expect(routed.records).toEqual([{ tool: 'cancel_booking', class: 'capability_missing', action: 'replan' }]);
    const feedback = read(routed.seen![0]!.output) as { capabilities: { name: string }[] };
    expect(feedback.capabilities.map((c) => c.name)).toEqual(['book_slot', 'send_email']);
    expect([routed.text, routed.hits]).toEqual(['cannot cancel; I can use book_slot, send_email', {}]);

    const base = runs['unknown-tool/baseline']!;
    expect(base.status).toBe('failed');
    expect(base.failure!.chain.slice(0, 2)).toEqual(['WorkflowFailedError', 'AgentsWorkflowError']);
    expect(base.failure!.message).toBe('Tool cancel_booking not found in agent booker.');
  });

  test('lost write → reconciled by lookup, sent once; baseline: retried, sent twice', () => {
    const routed = runs['lost-write/router']!;
    expect(routed.records).toEqual([{ tool: 'send_email', class: 'outcome_unknown', action: 'reconcile' }]);
    expect(read(routed.seen![0]!.output)).toMatchObject({ messageId: 'msg_1' });
    expect([routed.hits, routed.emails]).toEqual([{ 'POST /emails': 1, 'GET /emails': 1 }, ['ana@example.com']]);

    const base = runs['lost-write/baseline']!;
    expect(base.status).toBe('completed');
    expect(read(base.seen![0]!.output)).toEqual({ messageId: 'msg_2' });
    expect([base.hits, base.emails]).toEqual([{ 'POST /emails': 2 }, ['ana@example.com', 'ana@example.com']]);
  });

  test('invalid arguments → repair feedback naming `to`, then the fixed call; baseline: the 422 is retried 3 times and the workflow fails', () => {
    const routed = runs['invalid-arguments/router']!;
    expect(routed.records).toEqual([
      { tool: 'send_email', class: 'invalid_arguments', action: 'repair' },
      { tool: 'send_email', class: 'ok', action: 'ok' },
    ]);
    const feedback = read(routed.seen![0]!.output) as { issues: { path: unknown[] }[] };
    expect(feedback.issues.map((i) => i.path)).toEqual([['to']]);
    expect([routed.text, routed.hits, routed.emails]).toEqual([
      'sent msg_1',
      { 'POST /emails': 1 },
      ['ana@example.com'],
    ]);

    const base = runs['invalid-arguments/baseline']!;
    expect(base.status).toBe('failed');
    expect(base.failure!.message).toBe('Failed to run function tools: ActivityFailure: Activity task failed');
    expect([base.hits, base.emails]).toEqual([{ 'POST /emails': 3 }, []]);
  });
});
