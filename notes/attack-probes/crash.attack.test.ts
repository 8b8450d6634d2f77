/**
 * Attack probes on a real dev server: "a routable failure never throws out of workflow code", malformed signals,
 * updates and workflow input. `stuck` = the run is still open and its workflow task keeps failing (Temporal retries
 * it forever); each assertion states the PROMISE, so a failing test is a finding.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { z } from 'zod';
import { defineTool } from '../../../activities/define-tool';
import { HttpOutcomeError } from '../../../activities/http';
import { testEnv } from '../../setup/env';
import { probeHarness, type Observed } from './probe-harness';

let env: TestWorkflowEnvironment;
beforeAll(async () => {
  env = await testEnv();
});
afterAll(async () => {
  await env?.teardown();
});

const hits: Record<string, number> = {};
const http = (status: number, body: unknown = '', headers: Record<string, string> = {}) =>
  new HttpOutcomeError({ kind: 'http', status, headers, body });

const okTool = defineTool({
  name: 'read_ok',
  description: 'ok',
  input: z.object({ a: z.string() }),
  output: z.object({ ok: z.boolean() }),
  effect: 'read',
  async execute() {
    hits.read_ok = (hits.read_ok ?? 0) + 1;
    return { ok: true };
  },
});
const protoNamed = (name: string) =>
  defineTool({
    name,
    description: 'a tool whose name is an Object.prototype member',
    input: z.object({ a: z.string() }),
    output: z.object({ ok: z.boolean() }),
    effect: 'read',
    async execute() {
      hits[`proto:${name}`] = (hits[`proto:${name}`] ?? 0) + 1;
      throw http(409, { code: 'conflict' });
    },
  });
const deepResult = defineTool({
  name: 'deep_result',
  description: 'returns a 300-deep JSON document (a server can)',
  input: z.object({}),
  output: z.object({ doc: z.unknown() }),
  effect: 'read',
  async execute() {
    let d: unknown = 'leaf';
    for (let i = 0; i < 300; i++) d = { d };
    return { doc: d };
  },
});
const nfcResult = defineTool({
  name: 'nfc_result',
  description: 'returns two keys that are equal after NFC',
  input: z.object({}),
  output: z.record(z.string(), z.number()),
  effect: 'read',
  async execute() {
    return JSON.parse('{"caf\\u00e9": 1, "cafe\\u0301": 2}') as never;
  },
});
const approvalTool = defineTool({
  name: 'export_data',
  description: '403 unless approved',
  input: z.object({ a: z.string() }),
  output: z.object({ ok: z.boolean(), approvedBy: z.unknown() }),
  effect: 'read',
  approvalCanLift: true,
  async execute(_args, ctx) {
    hits.export_data = (hits.export_data ?? 0) + 1;
    if (!ctx.approval) throw http(403, { message: 'needs approval' });
    return { ok: true, approvedBy: ctx.approval.by };
  },
});
const unknownWrite = defineTool({
  name: 'unknown_write',
  description: '500 on a write that is not deduplicated and has no lookup → human review',
  input: z.object({ a: z.string() }),
  output: z.object({ ok: z.boolean() }),
  effect: 'write',
  async execute() {
    throw http(500);
  },
});

const tools = [okTool, protoNamed('constructor'), protoNamed('toString'), deepResult, nfcResult, approvalTool, unknownWrite];

const notStuck = (o: Observed) => {
  if (o.kind === 'stuck') throw new Error(`workflow task fails forever (attempt ${o.attempt}): ${o.taskFailure}`);
  return o;
};

describe('routable failures end the call cleanly (never a stuck workflow task)', () => {
  test.each([
    ['600-char unknown tool name', 'x'.repeat(600)],
    ['empty tool name', ''],
    ['null tool name', null],
    ['unicode tool name', 'ｂｏｏｋ\u200d'],
    ['__proto__ (unknown)', '__proto__'],
  ])('%s → capability_missing outcome', async (_label, name) => {
    const h = await probeHarness(env, tools);
    const o = await h.run(async () => h.observe(await h.start('toolPlanWorkflow', { catalog: h.plugin.catalog, calls: [{ tool: name, args: {} }] })));
    notStuck(o);
    expect(o).toMatchObject({ kind: 'completed', result: { outcomes: [{ ok: false, failure: { class: 'capability_missing' } }] } });
  });

  test.each(['constructor', 'toString'])('a defined tool named %s: a repeated identical call is refused, not a crash', async (name) => {
    const h = await probeHarness(env, tools);
    const o = await h.run(async () =>
      h.observe(await h.start('toolPlanWorkflow', { catalog: h.plugin.catalog, calls: [{ tool: name, args: { a: '1' } }, { tool: name, args: { a: '1' } }], stopOnTerminal: false })),
    );
    notStuck(o);
    expect(o).toMatchObject({ kind: 'completed', result: { outcomes: [{ ok: false, action: 'replan' }, { ok: false, refused: true }] } });
  });

  test('a tool result nested 300 deep (valid for its output schema) is returned, not a crash', async () => {
    const h = await probeHarness(env, tools);
    const o = await h.run(async () => h.observe(await h.start('toolPlanWorkflow', { catalog: h.plugin.catalog, calls: [{ tool: 'deep_result', args: {} }] })));
    notStuck(o);
  });

  test('a tool result with two keys equal after NFC is returned, not a crash', async () => {
    const h = await probeHarness(env, tools);
    const o = await h.run(async () => h.observe(await h.start('toolPlanWorkflow', { catalog: h.plugin.catalog, calls: [{ tool: 'nfc_result', args: {} }] })));
    notStuck(o);
  });

  test.each([
    ['cyclic', 'cyclic'],
    ['bigint', 'bigint'],
    ['deep300', 'deep300'],
    ['throwing getter', 'throwing_getter'],
  ])('args that are not JSON (%s) → invalid_arguments outcome', async (_l, kind) => {
    const h = await probeHarness(env, tools);
    const o = await h.run(async () => h.observe(await h.start('routerProbe', { catalog: h.plugin.catalog, calls: [{ tool: 'read_ok', kind }] })));
    notStuck(o);
    expect(o).toMatchObject({ kind: 'completed', result: [{ ok: false, failure: { class: 'invalid_arguments' } }] });
  });

  test('3 MB of arguments → a clean outcome (invalid_arguments / too large), not a stuck or terminated run', async () => {
    const h = await probeHarness(env, tools);
    const o = await h.run(async () =>
      h.observe(await h.start('routerProbe', { catalog: h.plugin.catalog, calls: [{ tool: 'read_ok', kind: 'huge3mb' }] }), 15_000),
    );
    // the 3 MB string is built inside the workflow (the model's tool-call arguments); the router schedules it as activity input
    notStuck(o);
    expect(o.kind).toBe('completed');
  });

  test.each([
    ['empty string', ''],
    ['number', 5],
    ['object', { x: 1 }],
  ])('stepId %s → typed refusal or ignored, never a stuck task', async (_l, stepId) => {
    const h = await probeHarness(env, tools);
    const o = await h.run(async () => h.observe(await h.start('routerProbe', { catalog: h.plugin.catalog, calls: [{ tool: 'read_ok', args: { a: '1' }, stepId }] })));
    notStuck(o);
  });

  test('toolPlanWorkflow with bad budgets / null catalog / null calls → the run FAILS cleanly (ApplicationFailure), not stuck', async () => {
    const h = await probeHarness(env, tools);
    const results = await h.run(async () => {
      const out: Observed[] = [];
      for (const input of [
        { catalog: h.plugin.catalog, calls: [], budgets: { perCallRetries: -1 } },
        { catalog: null, calls: [{ tool: 'read_ok', args: { a: '1' } }] },
        { catalog: h.plugin.catalog, calls: null },
        { catalog: [{ name: 'read_ok' }], calls: [{ tool: 'read_ok', args: { a: '1' } }] },
      ]) out.push(await h.observe(await h.start('toolPlanWorkflow', input), 5_000));
      return out;
    });
    for (const o of results) notStuck(o);
  });
});

test.each([
  ['-1', -1],
  ['"abc" (not a duration)', 'abc'],
])('toolPlanWorkflow approvalTimeoutMs %s → a clean outcome or a clean FAILED run, not stuck', async (_l, approvalTimeoutMs) => {
  const h = await probeHarness(env, tools);
  const o = await h.run(async () =>
    h.observe(await h.start('toolPlanWorkflow', { catalog: h.plugin.catalog, approvalTimeoutMs, calls: [{ tool: 'export_data', args: { a: '1' } }] }), 6_000),
  );
  notStuck(o);
});

describe('signals and updates with malformed payloads', () => {
  async function waitPending(h: Awaited<ReturnType<typeof probeHarness>>, id: string) {
    for (let i = 0; i < 100; i++) {
      const p = (await h.client.workflow.getHandle(id).query('recovery.pendingApprovals')) as { callId: string }[];
      if (p.length > 0) return p[0]!.callId;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('never pending');
  }
  test.each([
    ['null payload', null],
    ['no payload', undefined],
    ['a string', 'approve'],
  ])('recovery.approval with %s does not wedge the workflow', async (_l, payload) => {
    const h = await probeHarness(env, tools);
    const o = await h.run(async () => {
      const id = await h.start('routerProbe', { catalog: h.plugin.catalog, calls: [{ tool: 'export_data', args: { a: '1' } }], approvalTimeoutMs: 3_000 });
      await waitPending(h, id);
      const handle = h.client.workflow.getHandle(id);
      if (payload === undefined) await handle.signal('recovery.approval');
      else await handle.signal('recovery.approval', payload);
      return h.observe(id, 8_000);
    });
    notStuck(o);
  });

  test.each([
    ['"false" (string)', 'false'],
    ['"no"', 'no'],
    ['1', 1],
  ])('recovery.approval with approved=%s is NOT an approval', async (_l, approved) => {
    const h = await probeHarness(env, tools);
    hits.export_data = 0;
    const o = await h.run(async () => {
      const id = await h.start('routerProbe', { catalog: h.plugin.catalog, calls: [{ tool: 'export_data', args: { a: '1' } }], approvalTimeoutMs: 5_000 });
      const callId = await waitPending(h, id);
      await h.client.workflow.getHandle(id).signal('recovery.approval', { callId, approved, by: 'mallory' });
      return h.observe(id, 10_000);
    });
    expect(o).toMatchObject({ kind: 'completed', result: [{ ok: false }] });
    expect(hits.export_data).toBe(1);
  });

  async function awaitingReview(h: Awaited<ReturnType<typeof probeHarness>>) {
    const parent = await h.start('routerProbe', { catalog: h.plugin.catalog, calls: [{ tool: 'unknown_write', args: { a: '1' } }] });
    const childId = `reconcile:${parent}:t1:unknown_write#0`;
    for (let i = 0; i < 100; i++) {
      try {
        const c = (await h.client.workflow.getHandle(childId).query('recovery.reviewCase')) as { status: string; operationId: string };
        if (c.status === 'awaiting_review') return { parent, childId, operationId: c.operationId };
      } catch {
        /* not started yet */
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('never awaiting review');
  }

  test.each([
    ['by is a number', { decision: 'abandon', by: 5, reason: 'r' }],
    ['reason is an object', { decision: 'abandon', by: 'me', reason: { x: 1 } }],
    ['resultRef is a number', { decision: 'mark_applied', by: 'me', reason: 'r', resultRef: 7 }],
  ])('recovery.reviewDecision signal where %s is ignored, not a stuck child', async (_l, d) => {
    const h = await probeHarness(env, tools);
    const o = await h.run(async () => {
      const { childId, operationId } = await awaitingReview(h);
      await h.client.workflow.getHandle(childId).signal('recovery.reviewDecision', { operationId, ...d });
      // a valid decision afterwards must still end it
      await new Promise((r) => setTimeout(r, 1_500));
      await h.client.workflow.getHandle(childId).signal('recovery.reviewDecision', { operationId, decision: 'abandon', by: 'ops', reason: 'probe' }).catch(() => undefined);
      return h.observe(childId, 6_000);
    });
    notStuck(o);
  });

  test('recovery.decideReview update with by=5 is rejected with a clear message', async () => {
    const h = await probeHarness(env, tools);
    const msg = await h.run(async () => {
      const { childId, operationId } = await awaitingReview(h);
      try {
        await h.client.workflow.getHandle(childId).executeUpdate('recovery.decideReview', { args: [{ operationId, decision: 'abandon', by: 5, reason: 'r' }] });
        return 'accepted';
      } catch (e) {
        const err = e as { cause?: { message?: string }; message?: string };
        return err.cause?.message ?? err.message ?? String(e);
      } finally {
        await h.client.workflow.getHandle(childId).terminate().catch(() => undefined);
      }
    });
    expect(msg).toMatch(/by/);
    expect(msg).not.toMatch(/is not a function/);
  });
});
