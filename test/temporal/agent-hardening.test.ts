/**
 * agentWorkflow under attack (from the attack review of session 2; notes/attack-probes/agent.attack.test.ts holds the
 * original probes): oversized results, arguments and user-message floods, budget loops across turns, malformed
 * planner answers and continue-as-new input, hostile tool names, planner failures carrying secrets, cancellation.
 * Each test asserts the correct behaviour on a real dev server.
 *
 * `observe()` reports a run as `stuck` when it is still open and its workflow task keeps failing (Temporal retries a
 * failed workflow task forever), and terminates it.
 *
 * One worker per tool set serves every test of the file (a worker per test was 37 workers, about 0.45 s of CPU
 * each): each run's planner activities are found by its workflow id (`plannerOf`).
 */
import { Context } from '@temporalio/activity';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { ApplicationFailure } from '@temporalio/common';
import { Client, Connection } from '@temporalio/client';
import { z } from 'zod';
import { defineTool, type AnyTool } from '../../activities/define-tool';
import { HttpOutcomeError } from '../../activities/http';
import { createPlannerActivities, PlannerOutputError, type Planner } from '../../activities/planners/planner';
import { pendingApprovals } from '../../operator/approvals';
import { startRun } from '../../recovery/budgets';
import type { AgentOptions, AgentResult } from '../../workflows/agent';
import { agentStateQuery, userMessageSignal } from '../../workflows/definitions';
import type { PlannerDecision, PlannerInput } from '../../workflows/planner-contract';
import { testEnv, uniqueTaskQueue, writeKey } from '../setup/env';
import { eventTypes, harness, type Harness } from './harness';

let env: TestWorkflowEnvironment;
/** A client that can read histories over 4 MB (the default gRPC receive limit). */
let bigClient: Client;
let bigConnection: Connection;
beforeAll(async () => {
  env = await testEnv();
  bigConnection = await Connection.connect({
    address: process.env.TEMPORAL_TEST_ADDRESS!,
    channelArgs: { 'grpc.max_receive_message_length': 256 * 1024 * 1024 },
  });
  bigClient = new Client({ connection: bigConnection });
});
afterAll(async () => {
  const harnesses = await Promise.all(workers.values());
  for (const h of harnesses) h.worker.shutdown();
  await Promise.all(running);
  await bigConnection?.close();
  await env?.teardown();
});

// ---------------------------------------------------------------------------------------------------------------
// Tools (no network: execute answers directly)

const dispatched: Record<string, number> = {};
const count = (name: string) => (dispatched[name] = (dispatched[name] ?? 0) + 1);

/** Returns `size` characters for every distinct n. */
const bigRead = (size: number) =>
  defineTool({
    name: 'big_read',
    description: 'Reads a large document.',
    input: z.object({ n: z.number().int() }).strict(),
    output: z.object({ data: z.string() }),
    effect: 'read',
    async execute(args) {
      count('big_read');
      return { data: `${args.n}:`.padEnd(size, 'x') };
    },
  });

/** G1 and G2's tool set: one worker serves both. */
const BIG_READS = [bigRead(400_000)];

const echo = defineTool({
  name: 'echo',
  description: 'Echoes n.',
  input: z.object({ n: z.number().int() }).strict(),
  output: z.object({ n: z.number() }),
  effect: 'read',
  async execute(args) {
    count('echo');
    return { n: args.n };
  },
});

/** Accepts only { code: "ok" }: anything else is invalid_arguments (repair). */
const strictTool = defineTool({
  name: 'strict_tool',
  description: 'Needs code "ok".',
  input: z.object({ code: z.literal('ok') }).strict(),
  output: z.object({ done: z.boolean() }),
  effect: 'read',
  async execute() {
    count('strict_tool');
    return { done: true };
  },
});

/** Waits until cancelled (heartbeats so cancellation can reach it). */
const slowTool = defineTool({
  name: 'slow_tool',
  description: 'Takes a long time.',
  input: z.object({}).strict(),
  output: z.object({ done: z.boolean() }),
  effect: 'read',
  timeouts: { startToCloseMs: 60_000, heartbeatMs: 2_000 },
  async execute(_args, ctx) {
    count('slow_tool');
    for (let i = 0; i < 600 && !ctx.signal.aborted; i++) {
      ctx.heartbeat();
      await new Promise((r) => setTimeout(r, 100));
    }
    return { done: true };
  },
});

const conflict = defineTool({
  name: 'conflict_tool',
  description: 'Always 409.',
  input: z.object({ n: z.number().int() }).strict(),
  output: z.object({ ok: z.boolean() }),
  effect: 'read',
  async execute() {
    count('conflict_tool');
    throw new HttpOutcomeError({ kind: 'http', status: 409, headers: {}, body: { code: 'conflict' } });
  },
});

/** 403 that a person can lift. */
const approvable = defineTool({
  name: 'needs_approval',
  description: 'Forbidden until approved.',
  input: z.object({}).strict(),
  output: z.object({ ok: z.boolean() }),
  effect: 'read',
  approvalCanLift: true,
  async execute() {
    count('needs_approval');
    throw new HttpOutcomeError({ kind: 'http', status: 403, headers: {}, body: { error: 'approval_required' } });
  },
});

const TOOLS: AnyTool[] = [echo, strictTool, slowTool, conflict, approvable];

// ---------------------------------------------------------------------------------------------------------------
// Driving

type Observed =
  | { kind: 'completed'; result: AgentResult }
  | { kind: 'failed'; message: string; type?: string }
  | { kind: 'cancelled' }
  | { kind: 'stuck'; attempt: number; taskFailure: string }
  | { kind: 'open'; ms: number };

/** A planner from a function of the input (turn-by-turn script). */
const fnPlanner = (fn: (input: PlannerInput, signal?: AbortSignal) => Promise<unknown> | unknown): Planner => ({
  plan: async (input, o) => (await fn(input, o?.signal)) as PlannerDecision,
});

interface RunOpts {
  planner?: Planner;
  /** Raw activities in place of createPlannerActivities(planner). */
  activities?: object;
  tools?: AnyTool[];
  options?: Partial<AgentOptions> & Record<string, unknown>;
  goal?: string;
  /** Extra workflow args after [goal, options] (the "internal" carried state). */
  extraArgs?: unknown[];
  during?: (workflowId: string) => Promise<void>;
}

/**
 * How long `observe` waits for a run to close before it reports it open: a hang detector, never a measurement (a run
 * that closes sooner returns at once; a stuck one is found by its failed workflow tasks, not by time). Below the
 * integration tier's 180 s test timeout, so a run still open is reported with its state, not as a jest timeout; a
 * fixed window of 30 to 45 s counted a correct run slowed by a loaded machine as open.
 */
const OPEN_AFTER_MS = 150_000;

type PlannerActivities = { planNextStep?: (input: PlannerInput) => unknown };
/** Each run's planner activities, by workflow id (continue-as-new keeps the id). */
const plannerOf = new Map<string, PlannerActivities>();
/** The workers' `planNextStep`: the one of the run whose activity this is. */
const routedPlanner = {
  planNextStep(input: PlannerInput): unknown {
    const workflowId = Context.current().info.workflowExecution?.workflowId ?? '';
    const planNextStep = plannerOf.get(workflowId)?.planNextStep;
    if (!planNextStep) throw new Error(`no planner for ${workflowId}`);
    return planNextStep(input);
  },
};
/** One running worker per tool set (by the array's identity), started when a test first needs it. */
const workers = new Map<AnyTool[], Promise<Harness>>();
const running: Promise<void>[] = [];
function workerFor(tools: AnyTool[]): Promise<Harness> {
  let h = workers.get(tools);
  if (!h) {
    h = harness(env, tools, { activities: routedPlanner }).then((started) => {
      running.push(started.worker.run());
      return started;
    });
    workers.set(tools, h);
  }
  return h;
}

async function runAgent(o: RunOpts): Promise<{ observed: Observed; workflowId: string; history: string[] }> {
  const h = await workerFor(o.tools ?? TOOLS);
  const workflowId = uniqueTaskQueue('agent-atk');
  plannerOf.set(
    workflowId,
    (o.activities as PlannerActivities | undefined) ??
      createPlannerActivities(o.planner ?? fnPlanner(() => ({ kind: 'stop', reason: 'x' })), {
        catalog: h.plugin.catalog,
      }),
  );
  await env.client.workflow.start('agentWorkflow', {
    taskQueue: h.taskQueue,
    workflowId,
    args: [
      o.goal ?? 'attack goal',
      { ...h.plugin.workflowDefaults(), searchAttributes: false, ...o.options },
      ...(o.extraArgs ?? []),
    ],
  });
  const during = o.during ? o.during(workflowId) : Promise.resolve();
  const observed = await observe(workflowId, OPEN_AFTER_MS);
  await during.catch(() => undefined);
  const history = await bigClient.workflow
    .getHandle(workflowId)
    .fetchHistory()
    .then((h) => eventTypes(h.events ?? []))
    .catch((e: Error) => [`(history not readable: ${e.message.slice(0, 120)})`]);
  return { observed, workflowId, history };
}

/** Waits for the run (following continue-as-new) to close, or reports it stuck/open and terminates it. */
async function observe(workflowId: string, ms: number): Promise<Observed> {
  const handle = env.client.workflow.getHandle(workflowId);
  const started = Date.now();
  for (;;) {
    const d = await handle.describe();
    const status = d.status.name;
    if (status === 'COMPLETED') return { kind: 'completed', result: (await handle.result()) as AgentResult };
    if (status === 'CANCELLED') return { kind: 'cancelled' };
    if (status === 'FAILED' || status === 'TERMINATED' || status === 'TIMED_OUT') {
      try {
        await handle.result();
      } catch (e) {
        const cause = (e as { cause?: { message?: string; type?: string } }).cause;
        return { kind: 'failed', message: `${status}: ${cause?.message ?? String(e)}`, type: cause?.type };
      }
    }
    const attempt = d.raw.pendingWorkflowTask?.attempt ?? 0;
    if (attempt >= 3 || Date.now() - started > ms) {
      const events = await bigClient.workflow
        .getHandle(workflowId)
        .fetchHistory()
        .then((h) => h.events ?? [])
        .catch(() => []);
      const failedTask = [...events].reverse().find((e) => e.workflowTaskFailedEventAttributes);
      const msg = failedTask?.workflowTaskFailedEventAttributes?.failure?.message ?? '';
      await handle.terminate('attack probe: stuck or open').catch(() => undefined);
      return attempt >= 2 || msg
        ? { kind: 'stuck', attempt, taskFailure: msg.slice(0, 300) }
        : { kind: 'open', ms: Date.now() - started };
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Shows the whole observation (stuck message included) when the run did not complete. */
const expectCompleted = (o: Observed) =>
  expect(o.kind === 'completed' ? { kind: 'completed', status: o.result.status } : o).toEqual({
    kind: 'completed',
    status: expect.any(String),
  });

const completed = (o: Observed): AgentResult => {
  if (o.kind !== 'completed') throw new Error(`expected the run to complete, got ${JSON.stringify(o)}`);
  return o.result;
};

// ---------------------------------------------------------------------------------------------------------------
// Unbounded growth

test('G1 large tool results accumulate in observations: the run still ends (planner input stays under 2 MB)', async () => {
  // Each read is a valid 400 KB result; after 5 the planner input is > 2 MB.
  let last: PlannerInput | undefined;
  const planner = fnPlanner((input) => {
    last = input;
    return input.turn <= 8
      ? { kind: 'tool_calls', calls: [{ callId: `c${input.turn}`, tool: 'big_read', args: { n: input.turn } }] }
      : { kind: 'submit', result: 'read everything' };
  });
  const { observed } = await runAgent({ planner, tools: BIG_READS });
  expect(completed(observed)).toMatchObject({ status: 'submitted', result: 'read everything', turns: 9 });
  // Each 400 KB result reached the planner as a preview: { truncated, chars of its JSON, the first 2,000 }.
  expect(last?.observations).toHaveLength(8);
  for (const [i, o] of (last?.observations ?? []).entries()) {
    const value =
      o.kind === 'tool_result' ? (o.value as { truncated: boolean; chars: number; preview: string }) : undefined;
    expect(value?.truncated).toBe(true);
    expect(value?.chars).toBe(JSON.stringify({ data: `${i + 1}:`.padEnd(400_000, 'x') }).length);
    expect(value?.preview).toBe(JSON.stringify({ data: `${i + 1}:`.padEnd(400_000, 'x') }).slice(0, 2_000));
  }
});

test('G2 the same with continueAsNewAfterTurns: the carried observations must not make continue-as-new fail', async () => {
  const planner = fnPlanner((input) =>
    input.turn <= 8
      ? { kind: 'tool_calls', calls: [{ callId: `c${input.turn}`, tool: 'big_read', args: { n: input.turn } }] }
      : { kind: 'submit', result: 'read everything' },
  );
  const { observed } = await runAgent({
    planner,
    tools: BIG_READS,
    options: { continueAsNewAfterTurns: 1 },
  });
  expectCompleted(observed);
});

test('G3 arguments over MAX_ARGS_CHARS are refused, but echoed whole into observations: the run must still end', async () => {
  // 1.2 MB of args per turn: the router refuses them (too large), the observation keeps them all.
  const planner = fnPlanner((input) =>
    input.turn <= 4
      ? {
          kind: 'tool_calls',
          calls: [{ callId: `c${input.turn}`, tool: 'echo', args: { n: input.turn, pad: 'p'.repeat(1_200_000) } }],
        }
      : { kind: 'stop', reason: 'gave up' },
  );
  const { observed } = await runAgent({ planner });
  const result = completed(observed);
  expect(['stopped', 'no_submission', 'escalated']).toContain(result.status);
});

test('G4 a flood of user messages (300 x 8000 chars) is bounded: the next planner step still runs', async () => {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((r) => (release = r));
  let sawAtTurn1 = 0;
  let turn2: { observations: number; omitted: number; chars: number } = { observations: 0, omitted: 0, chars: 0 };
  const planner = fnPlanner(async (input) => {
    if (input.turn === 1) {
      // Messages that arrived with the run's first task are already in turn 1's observations: shown, or counted as
      // omitted when they alone fill the window (50 of 8,000 characters, on a machine slow enough to batch them all
      // into the first task, are more than its 400,000; turn 1 has nothing else to omit).
      sawAtTurn1 =
        input.observations.filter((o) => o.kind === 'user_message').length + (input.omittedObservations ?? 0);
      await gate;
      return { kind: 'tool_calls', calls: [{ callId: 'c1', tool: 'echo', args: { n: 1 } }] };
    }
    turn2 = {
      observations: input.observations.length,
      omitted: input.omittedObservations ?? 0,
      chars: JSON.stringify(input.observations).length,
    };
    return { kind: 'submit', result: 'ok' };
  });
  const { observed } = await runAgent({
    planner,
    during: async (workflowId) => {
      const handle = env.client.workflow.getHandle(workflowId);
      const text = 'm'.repeat(8_000);
      for (let i = 0; i < 300; i++) await handle.signal(userMessageSignal, { text: `${i} ${text}`.slice(0, 8_000) });
      release();
    },
  });
  expect(completed(observed).status).toBe('submitted');
  // MAX_PENDING_USER_MESSAGES wait at most while turn 1 plans; the rest were dropped with a worker log line. Turn 2's
  // observations: turn 1's messages, c1's result and the 50, of which the window (400,000 characters by default)
  // shows the newest and counts the others.
  expect(turn2.observations + turn2.omitted).toBe(sawAtTurn1 + 1 + 50);
  expect(turn2.omitted).toBeGreaterThan(0);
  expect(turn2.chars).toBeLessThanOrEqual(400_000);
});

test('G5 an unknown tool name of 10 KB is bounded in records, endedBy and the query (not only in the feedback)', async () => {
  const longName = `t${'n'.repeat(10_000)}`;
  const planner = fnPlanner((input) =>
    input.turn <= 3
      ? { kind: 'tool_calls', calls: [{ callId: `c${input.turn}`, tool: longName, args: {} }] }
      : { kind: 'stop', reason: 'x' },
  );
  const { observed } = await runAgent({ planner });
  const result = completed(observed);
  expect(result.status).toBe('escalated');
  for (const r of result.records) expect(r.tool.length).toBeLessThanOrEqual(128);
  expect((result.endedBy?.tool ?? '').length).toBeLessThanOrEqual(128);
});

test('G6 submit of a ~2 MB result (which the planner activity could return) does not wedge the run', async () => {
  // The activity result (~2 MB − 200 B) fits; the AgentResult adds status, turns and records on top.
  const planner = fnPlanner((input) =>
    input.turn === 1
      ? { kind: 'tool_calls', calls: [{ callId: 'c1', tool: 'echo', args: { n: 1 } }] }
      : { kind: 'submit', result: 'r'.repeat(2 * 1024 * 1024 - 400) },
  );
  const { observed } = await runAgent({ planner });
  expect(
    observed.kind === 'completed' ? { kind: 'completed', status: observed.result.status } : observed,
  ).toMatchObject({
    kind: 'completed',
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Budget bypasses

test('B1 the identical invalid call re-issued every turn ends on the per-call repair budget, not on maxTurns', async () => {
  dispatched.strict_tool = 0;
  const planner = fnPlanner((input) => ({
    kind: 'tool_calls',
    calls: [{ callId: `c${input.turn}`, tool: 'strict_tool', args: { code: 'nope' } }],
  }));
  const { observed } = await runAgent({ planner, options: { maxTurns: 30 } });
  const result = completed(observed);
  // perCallRepairs = 2: the first failure and two refusals of the identical call at most, then stop.
  expect({ status: result.status, turns: result.turns, endedBy: result.endedBy, reason: result.reason }).toMatchObject({
    status: 'stopped',
    turns: 3,
  });
  expect(result.records.reduce((n, r) => n + r.activities, 0)).toBe(1);
});

test('B2 slightly different invalid args each turn end on the per-call repair budget (perCallRepairs = 2)', async () => {
  dispatched.strict_tool = 0;
  const planner = fnPlanner((input) => ({
    kind: 'tool_calls',
    calls: [{ callId: `c${input.turn}`, tool: 'strict_tool', args: { code: `nope-${input.turn}` } }],
  }));
  const { observed } = await runAgent({ planner, options: { maxTurns: 30 } });
  const result = completed(observed);
  expect({
    status: result.status,
    turns: result.turns,
    exhausted: result.endedBy?.exhausted,
    activities: result.records.reduce((n, r) => n + r.activities, 0),
    reason: result.reason,
  }).toMatchObject({ status: 'stopped', exhausted: 'per_call_repairs', activities: 3 });
});

test('B3 1,000 distinct calls in one decision stop at perRunAttempts with endedBy.exhausted = per_run_attempts', async () => {
  dispatched.echo = 0;
  const planner = fnPlanner(() => ({
    kind: 'tool_calls',
    calls: Array.from({ length: 1_000 }, (_, i) => ({ callId: `c${i}`, tool: 'echo', args: { n: i } })),
  }));
  const { observed } = await runAgent({ planner, options: { budgets: { perRunAttempts: 10 } } });
  const result = completed(observed);
  expect(result.status).toBe('escalated');
  expect(dispatched.echo).toBe(10);
  expect(result.endedBy).toMatchObject({ exhausted: 'per_run_attempts' });
});

test('B4 a callId shared by two calls of one decision is not a valid decision', async () => {
  const planner = fnPlanner((input) =>
    input.turn === 1
      ? {
          kind: 'tool_calls',
          calls: [
            { callId: 'same', tool: 'echo', args: { n: 1 } },
            { callId: 'same', tool: 'echo', args: { n: 2 } },
          ],
        }
      : { kind: 'stop', reason: 'x' },
  );
  const inputs: PlannerInput[] = [];
  const rec: Planner = { plan: (i, o) => (inputs.push(i), planner.plan(i, o)) };
  const { observed } = await runAgent({ planner: rec });
  completed(observed);
  expect(inputs[1]?.observations.map((o) => o.kind)).toEqual(['decision_rejected']);
});

test('B6 a forged third argument ("carried", internal) cannot reset the turn count past maxTurns', async () => {
  let calls = 0;
  const planner = fnPlanner((input) => {
    calls += 1;
    return { kind: 'tool_calls', calls: [{ callId: `c${input.turn}-${calls}`, tool: 'echo', args: { n: calls } }] };
  });
  const { observed } = await runAgent({
    planner,
    options: { maxTurns: 2 },
    extraArgs: [
      {
        router: undefined,
        observations: [],
        turn: -5,
        invalidDecisionsInARow: 0,
        pendingUserMessages: [],
        toolSuccesses: {},
        continuedAsNew: 0,
      },
    ],
  });
  // Either the forged carry is refused (failed, invalid_input), or maxTurns still holds.
  if (observed.kind === 'completed') expect(calls).toBeLessThanOrEqual(2);
  else expect(observed).toMatchObject({ kind: 'failed', type: 'invalid_input' });
});

// ---------------------------------------------------------------------------------------------------------------
// Crashes (exceptions escaping workflow code)

test('C1 a malformed third argument fails the run cleanly (invalid_input), it does not wedge the workflow task', async () => {
  const { observed } = await runAgent({ extraArgs: [{}] });
  expect(observed).toEqual({ kind: 'failed', type: 'invalid_input', message: expect.any(String) });
});

test('C2 a planner activity (custom, other worker/language) that returns null: the run ends, not stuck', async () => {
  const { observed } = await runAgent({ activities: { planNextStep: async () => null } });
  expectCompleted(observed);
  expect(completed(observed).status).toBe('stopped');
});

test('C3 a planner activity that returns { kind: "tool_calls", calls: null }: the run ends, not stuck', async () => {
  const { observed } = await runAgent({
    activities: { planNextStep: async () => ({ kind: 'tool_calls', calls: null }) },
  });
  expectCompleted(observed);
});

test('C4 a planner activity that returns { kind: "stop", reason: 42 }: the run ends, not stuck', async () => {
  const { observed } = await runAgent({ activities: { planNextStep: async () => ({ kind: 'stop', reason: 42 }) } });
  expectCompleted(observed);
});

test('C5 args nested 5,000 deep: the run ends (router refuses them), not stuck', async () => {
  let deep: unknown = 1;
  for (let i = 0; i < 5_000; i++) deep = { d: deep };
  const planner = fnPlanner((input) =>
    input.turn === 1
      ? { kind: 'tool_calls', calls: [{ callId: 'c1', tool: 'echo', args: deep }] }
      : { kind: 'stop', reason: 'x' },
  );
  const { observed } = await runAgent({ planner });
  expect(observed.kind).toBe('completed');
});

test('C6 tool names __proto__, constructor, toString, hasOwnProperty are capability_missing, nothing crashes', async () => {
  const names = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];
  const planner = fnPlanner((input) =>
    input.turn === 1
      ? { kind: 'tool_calls', calls: names.map((n, i) => ({ callId: `c${i}`, tool: n, args: {} })) }
      : { kind: 'stop', reason: 'x' },
  );
  const { observed } = await runAgent({ planner });
  const result = completed(observed);
  expect(result.records.map((r) => r.class)).toEqual([
    'capability_missing',
    'capability_missing',
    'capability_missing',
  ]);
});

test('C7 a forged carry whose router state has no call ledger fails the run (invalid_input), not its first call', async () => {
  const planner = fnPlanner((input) =>
    input.turn === 1
      ? { kind: 'tool_calls', calls: [{ callId: 'c1', tool: 'echo', args: { n: 1 } }] }
      : { kind: 'stop', reason: 'x' },
  );
  const router = { budgets: startRun({}), grants: {}, credentialVersions: {}, successes: {}, records: [] };
  const carried = {
    router,
    observations: [],
    turn: 0,
    invalidDecisionsInARow: 0,
    pendingUserMessages: [],
    toolSuccesses: {},
    continuedAsNew: 1,
  };
  const { observed } = await runAgent({ planner, extraArgs: [carried] });
  expect(observed).toEqual({
    kind: 'failed',
    type: 'invalid_input',
    message: expect.stringContaining('agentWorkflow carried.router.calls: '),
  });
});

test('C8 a write tool named __proto__: a second identical write in a later turn is a new step with its own key', async () => {
  const keys: string[] = [];
  const proto = defineTool({
    name: '__proto__',
    description: 'Sends a reminder.',
    input: z.object({ to: z.string() }).strict(),
    output: z.object({ sent: z.number() }),
    effect: 'write',
    idempotency: { carrier: 'header', name: 'Idempotency-Key', deduplicates: true },
    async execute(_args, ctx) {
      keys.push(ctx.operationId);
      return { sent: keys.length };
    },
  });
  const planner = fnPlanner((input) =>
    input.turn <= 2
      ? { kind: 'tool_calls', calls: [{ callId: `c${input.turn}`, tool: '__proto__', args: { to: 'a' } }] }
      : { kind: 'submit', result: 'sent twice' },
  );
  const { observed, workflowId } = await runAgent({ planner, tools: [proto] });
  expect(completed(observed).status).toBe('submitted');
  const key = (step: string) => writeKey(env.client, workflowId, step);
  expect(keys).toEqual([await key('__proto__#0'), await key('__proto__#1')]);
});

// ---------------------------------------------------------------------------------------------------------------
// Wrong terminal states

test('T1 { kind: "submit" } without a result is not a submission (README: "a submit without result" is invalid)', async () => {
  const { observed } = await runAgent({ planner: fnPlanner(() => ({ kind: 'submit' })) });
  const result = completed(observed);
  expect(result.status).not.toBe('submitted');
});

test('T2 { kind: "submit", result: undefined } from a custom planner is not a submission', async () => {
  const { observed } = await runAgent({ planner: fnPlanner(() => ({ kind: 'submit', result: undefined })) });
  expect(completed(observed).status).not.toBe('submitted');
});

test('T3 maxTurns = 1: exactly one planner step, then escalated; a submit on the last turn is a submission', async () => {
  let steps = 0;
  const a = await runAgent({
    planner: fnPlanner(() => {
      steps += 1;
      return { kind: 'tool_calls', calls: [{ callId: `c${steps}`, tool: 'echo', args: { n: steps } }] };
    }),
    options: { maxTurns: 1 },
  });
  expect(completed(a.observed)).toMatchObject({ status: 'escalated', turns: 1 });
  expect(steps).toBe(1);
  const b = await runAgent({
    planner: fnPlanner((i) =>
      i.turn === 1
        ? { kind: 'tool_calls', calls: [{ callId: 'c1', tool: 'echo', args: { n: 1 } }] }
        : { kind: 'submit', result: 1 },
    ),
    options: { maxTurns: 2 },
  });
  expect(completed(b.observed)).toMatchObject({ status: 'submitted', turns: 2 });
});

// ---------------------------------------------------------------------------------------------------------------
// Planner faults and leaks

const SECRET = 'sk-proj-Zq9Xv3Lm7Tr1Wc5Yb8Nd2Hk4';
const leakFree = (s: string) => {
  expect(s).not.toContain(SECRET);
  expect(s).not.toContain('/home/alice');
  expect(s).not.toContain('10.20.30.40');
  expect(s).not.toMatch(/\n\s+at /);
};

test.each([
  ['null', () => null],
  ['undefined', () => undefined],
  ['a string with a secret', () => `boom ${SECRET} /home/alice/.config/key.json 10.20.30.40:443`],
  ['a plain object', () => ({ status: 503, message: `${SECRET} at /home/alice` })],
  [
    'an Error with secret, path, host',
    () => new Error(`ENOENT open /home/alice/.config/key.json ${SECRET} http://10.20.30.40:8080`),
  ],
])(
  'P1 a planner that throws %s: the run escalates; no secret/path/host/stack in reason or history',
  async (_n, make) => {
    const planner: Planner = {
      plan: async () => {
        throw make();
      },
    };
    const { observed, workflowId } = await runAgent({
      planner,
      options: { planner: { maximumAttempts: 2, startToCloseTimeoutMs: 5_000 } },
    });
    const result = completed(observed);
    expect(result.status).toBe('escalated');
    leakFree(result.reason ?? '');
    const raw = JSON.stringify((await env.client.workflow.getHandle(workflowId).fetchHistory()).events);
    leakFree(raw);
  },
);

test('P2 a PlannerOutputError whose model answer (received) holds a secret and a host: redacted everywhere', async () => {
  const planner: Planner = {
    plan: async () => {
      throw new PlannerOutputError('bad answer', `Authorization: Bearer ${SECRET} from http://10.20.30.40/v1`);
    },
  };
  const { observed, workflowId } = await runAgent({ planner, options: { maxInvalidDecisions: 0 } });
  const result = completed(observed);
  expect(result.status).toBe('stopped');
  leakFree(result.reason ?? '');
  leakFree(JSON.stringify((await env.client.workflow.getHandle(workflowId).fetchHistory()).events));
});

test('P3 a planner that hangs past StartToClose: escalated, with a public reason', async () => {
  const planner = fnPlanner(
    (_i, signal) => new Promise((_r, rej) => signal?.addEventListener('abort', () => rej(new Error('aborted')))),
  );
  const { observed } = await runAgent({
    planner,
    options: { planner: { startToCloseTimeoutMs: 1_000, maximumAttempts: 1 } },
  });
  const result = completed(observed);
  expect(result.status).toBe('escalated');
  expect(result.reason).toMatch(/^The planner is unavailable: /);
});

test('P4 an ApplicationFailure the planner throws itself (type "planner_invalid_decision", message with secret) is redacted', async () => {
  const planner: Planner = {
    plan: async () => {
      throw ApplicationFailure.nonRetryable(`model said ${SECRET} at /home/alice/x`, 'planner_invalid_decision');
    },
  };
  const { observed } = await runAgent({ planner, options: { maxInvalidDecisions: 0 } });
  leakFree(completed(observed).reason ?? '');
});

test('P5 a planner decision over 2 MB (1,000 calls x 2.5 KB) ends the run promptly, not after 4 x StartToClose', async () => {
  // Promptly: no attempt waits for its StartToClose timeout (the history), not a wall-clock bound.
  let plans = 0;
  const planner = fnPlanner(() => {
    plans += 1;
    return {
      kind: 'tool_calls',
      calls: Array.from({ length: 1_000 }, (_, i) => ({
        callId: `c${i}`,
        tool: 'echo',
        args: { n: i, pad: 'q'.repeat(2_500) },
      })),
    };
  });
  const { observed, history } = await runAgent({
    planner,
    options: { planner: { startToCloseTimeoutMs: 20_000 } },
  });
  expect(
    observed.kind === 'completed' ? { status: observed.result.status, reason: observed.result.reason } : observed,
  ).toEqual({
    status: 'escalated',
    reason: expect.stringMatching(/^The planner is unavailable: /),
  });
  // Each of its 4 attempts failed at once (the decision cannot be sent): the activity ends FAILED, never TIMED_OUT.
  expect(plans).toBe(4);
  expect(history.filter((t) => t.startsWith('ACTIVITY_TASK_'))).toEqual([
    'ACTIVITY_TASK_SCHEDULED',
    'ACTIVITY_TASK_STARTED',
    'ACTIVITY_TASK_FAILED',
  ]);
});

// ---------------------------------------------------------------------------------------------------------------
// Cancellation

test('X1 cancelling the workflow while the planner thinks ends it CANCELLED and aborts the model request', async () => {
  let abortedBeforeShutdown = false;
  let started: () => void = () => undefined;
  const inPlanner = new Promise<void>((r) => (started = r));
  let aborted: () => void = () => undefined;
  const requestAborted = new Promise<void>((r) => (aborted = r));
  const planner = fnPlanner(
    (_i, signal) =>
      new Promise((_res, rej) => {
        started();
        signal?.addEventListener('abort', () => {
          aborted();
          rej(new Error('aborted'));
        });
      }),
  );
  const { observed } = await runAgent({
    planner,
    options: { planner: { startToCloseTimeoutMs: 20_000, maximumAttempts: 1, heartbeatTimeoutMs: 3_000 } },
    during: async (workflowId) => {
      await inPlanner;
      await env.client.workflow.getHandle(workflowId).cancel();
      await requestAborted; // an event, not a 5 s wait: the worker runs on (it is shut down after the file)
      abortedBeforeShutdown = true;
    },
  });
  expect(observed.kind).toBe('cancelled');
  expect(abortedBeforeShutdown).toBe(true);
});

test('X2 cancelling the workflow mid tool call ends it CANCELLED', async () => {
  const planner = fnPlanner(() => ({ kind: 'tool_calls', calls: [{ callId: 'c1', tool: 'slow_tool', args: {} }] }));
  const { observed } = await runAgent({
    planner,
    during: async (workflowId) => {
      const handle = env.client.workflow.getHandle(workflowId);
      for (let i = 0; i < 100; i++) {
        const s = await handle.query(agentStateQuery).catch(() => undefined);
        if (s?.phase === 'calling_tools') break;
        await new Promise((r) => setTimeout(r, 100));
      }
      await handle.cancel();
    },
  });
  expect(observed.kind).toBe('cancelled');
});

test('X3 cancelling the workflow while a call waits for approval ends it CANCELLED', async () => {
  const planner = fnPlanner(() => ({
    kind: 'tool_calls',
    calls: [{ callId: 'c1', tool: 'needs_approval', args: {} }],
  }));
  const { observed } = await runAgent({
    planner,
    during: async (workflowId) => {
      const handle = env.client.workflow.getHandle(workflowId);
      for (let i = 0; i < 100; i++) {
        const s = await handle.query(agentStateQuery).catch(() => undefined);
        if (s?.phase === 'calling_tools' && (dispatched.needs_approval ?? 0) > 0) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      // The call waits for approval once its request is pending: an answer of the workflow, not a 300 ms wait.
      while ((await pendingApprovals(env.client, workflowId)).length === 0) await new Promise((r) => setTimeout(r, 50));
      await handle.cancel();
    },
  });
  expect(observed.kind).toBe('cancelled');
});

test('S1 malformed user messages (null, object text, 8,001 chars, number) are ignored; a message after the end is refused', async () => {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((r) => (release = r));
  const inputs: PlannerInput[] = [];
  const planner = fnPlanner(async (input) => {
    inputs.push(input);
    if (input.turn === 1) {
      await gate;
      return { kind: 'tool_calls', calls: [{ callId: 'c1', tool: 'echo', args: { n: 1 } }] };
    }
    return { kind: 'submit', result: 'ok' };
  });
  const { observed, workflowId } = await runAgent({
    planner,
    during: async (id) => {
      const handle = env.client.workflow.getHandle(id);
      for (const bad of [
        null,
        { text: { a: 1 } },
        { text: 'x'.repeat(8_001) },
        { text: 7 },
        'bare string',
        { text: '   ' },
      ])
        await handle.signal(userMessageSignal, bad as never);
      await handle.signal(userMessageSignal, { text: 'ok message', by: { evil: true } as never });
      release();
    },
  });
  expect(completed(observed).status).toBe('submitted');
  expect(inputs[1]?.observations.filter((o) => o.kind === 'user_message')).toEqual([
    { kind: 'user_message', text: 'ok message' },
  ]);
  const afterEnd = await env.client.workflow
    .getHandle(workflowId)
    .signal(userMessageSignal, { text: 'late' })
    .then(
      () => 'accepted',
      (e: Error) => e.name,
    );
  expect(afterEnd).not.toBe('accepted');
});

test('S2 agent.state answers during continue-as-new every turn', async () => {
  const failures: string[] = [];
  const planner = fnPlanner((input) =>
    input.turn <= 6
      ? { kind: 'tool_calls', calls: [{ callId: `c${input.turn}`, tool: 'echo', args: { n: input.turn } }] }
      : { kind: 'submit', result: 'ok' },
  );
  const { observed } = await runAgent({
    planner,
    options: { continueAsNewAfterTurns: 1 },
    during: async (id) => {
      const handle = env.client.workflow.getHandle(id);
      for (let i = 0; i < 60; i++) {
        await handle.query(agentStateQuery).catch((e: Error) => failures.push(e.message));
        await new Promise((r) => setTimeout(r, 25));
      }
    },
  });
  const result = completed(observed);
  expect(result).toMatchObject({ status: 'submitted', turns: 7, continuedAsNew: 6 });
  expect(failures.filter((f) => !/completed|not found/i.test(f))).toEqual([]);
});

test('S3 continueAsNewAfterTurns: 1 with a user message arriving mid-turn: the message survives continue-as-new', async () => {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((r) => (release = r));
  const inputs: PlannerInput[] = [];
  const planner = fnPlanner(async (input) => {
    inputs.push(input);
    if (input.turn === 1) {
      await gate;
      return { kind: 'tool_calls', calls: [{ callId: 'c1', tool: 'echo', args: { n: 1 } }] };
    }
    return { kind: 'submit', result: 'ok' };
  });
  const { observed } = await runAgent({
    planner,
    options: { continueAsNewAfterTurns: 1 },
    during: async (id) => {
      await env.client.workflow.getHandle(id).signal(userMessageSignal, { text: 'hello' });
      release();
    },
  });
  expect(completed(observed)).toMatchObject({ status: 'submitted', continuedAsNew: 1 });
  expect(inputs[1]?.observations).toContainEqual({ kind: 'user_message', text: 'hello' });
});
