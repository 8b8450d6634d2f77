/**
 * Unit tests of the scripted planner (activities/planners/scripted.ts) and of the planner activity's answer check
 * (activities/planners/planner.ts) in `MockActivityEnvironment`. No server, no network.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { activityEnv } from '../fixtures/activity-env';
import { ApplicationFailure, type Logger } from '@temporalio/common';
import {
  createPlannerActivities,
  PLANNER_INVALID_DECISION,
  PLANNER_INVALID_INPUT,
  type Planner,
} from '../../activities/planners/planner';
import {
  createScriptedPlanner,
  loadScriptedPolicy,
  parseScriptedPolicy,
  ScriptedPolicyError,
} from '../../activities/planners/scripted';
import type { FailureClass } from '../../recovery/failure';
import { ACTIONS } from '../../recovery/actions';
import type { ModelFeedback } from '../../recovery/feedback';
import type { RecoveryAction } from '../../recovery/routes';
import type { Observation, PlannerInput } from '../../workflows/planner-contract';
import type { WorkerOptions } from '@temporalio/worker';
import { z } from 'zod';
import { defineTool } from '../../activities/define-tool';
import { RecoveryPlugin } from '../../plugin/recovery-plugin';

const GOAL = 'Book a 30-minute call with Ada';

const POLICY = {
  goals: {
    [GOAL]: {
      on: { repair: 'fix_fields', replan: 'next_alternative', escalate: 'stop' },
      steps: [
        { id: 'find', tool: 'find_contact', args: { name: 'Ada' } },
        {
          id: 'book',
          tool: 'book_slot',
          args: { start: '10:00', minutes: '30' },
          fixes: [{ minutes: 30 }, { start: '10:30' }],
          alternatives: [
            { tool: 'book_slot', args: { start: '11:00', minutes: 30 } },
            { tool: 'request_slot', args: { day: 'tomorrow' } },
          ],
          on: { authorization: 'stop', outcome_unknown: 'retry_same', invalid_result: 'skip' },
        },
      ],
      submit: { resultFrom: 'book' },
    },
    'Say hello': { steps: [], submit: { result: { text: 'hello' } } },
  },
};

const planner = createScriptedPlanner(POLICY);
const input = (observations: Observation[], goal = GOAL): PlannerInput => ({
  goal,
  turn: observations.length + 1,
  capabilities: [],
  observations,
});
const ok = (callId: string, tool: string, args: unknown, value: unknown): Observation => ({
  kind: 'tool_result',
  callId,
  tool,
  args,
  value,
  empty: false,
});
const failed = (
  callId: string,
  tool: string,
  errorClass: FailureClass,
  action: RecoveryAction,
  message = `${tool} failed.`,
): Observation => {
  const feedback: ModelFeedback = {
    status: 'failed',
    tool,
    errorClass,
    reason: 'unspecified',
    action,
    message,
    nextStep: ACTIONS[action].nextStep,
  };
  return { kind: 'tool_failure', callId, tool, args: {}, feedback };
};
const found = ok('find#1', 'find_contact', { name: 'Ada' }, { email: 'ada@example.test' });

describe('scripted planner: the script', () => {
  it('turn 1 → the first step’s call, with call id <step>#1', async () => {
    await expect(planner.plan(input([]))).resolves.toEqual({
      kind: 'tool_calls',
      calls: [{ callId: 'find#1', tool: 'find_contact', args: { name: 'Ada' } }],
    });
  });

  it('a result → the next step; the last result → submit resultFrom that step', async () => {
    await expect(planner.plan(input([found]))).resolves.toEqual({
      kind: 'tool_calls',
      calls: [{ callId: 'book#1', tool: 'book_slot', args: { start: '10:00', minutes: '30' } }],
    });
    await expect(planner.plan(input([found, ok('book#1', 'book_slot', {}, { bookingId: 'B-1' })]))).resolves.toEqual({
      kind: 'submit',
      result: { bookingId: 'B-1' },
    });
  });

  it('a goal with no steps → submit its literal result', async () => {
    await expect(planner.plan(input([], 'Say hello'))).resolves.toEqual({
      kind: 'submit',
      result: { text: 'hello' },
    });
  });

  it('user messages are not answers to calls and are skipped', async () => {
    await expect(planner.plan(input([{ kind: 'user_message', text: 'hurry' }, found]))).resolves.toMatchObject({
      calls: [{ callId: 'book#1' }],
    });
  });
});

describe('scripted planner: reactions', () => {
  it('repair → fix_fields: each repair merges one more fix into the args, in order', async () => {
    const first = failed('book#1', 'book_slot', 'invalid_arguments', 'repair');
    await expect(planner.plan(input([found, first]))).resolves.toEqual({
      kind: 'tool_calls',
      calls: [{ callId: 'book#2', tool: 'book_slot', args: { start: '10:00', minutes: 30 } }],
    });
    const second = failed('book#2', 'book_slot', 'invalid_arguments', 'repair');
    await expect(planner.plan(input([found, first, second]))).resolves.toEqual({
      kind: 'tool_calls',
      calls: [{ callId: 'book#3', tool: 'book_slot', args: { start: '10:30', minutes: 30 } }],
    });
  });

  it('repair with no fix left → stop quoting the failure', async () => {
    const obs = [
      found,
      failed('book#1', 'book_slot', 'invalid_arguments', 'repair'),
      failed('book#2', 'book_slot', 'invalid_arguments', 'repair'),
      failed('book#3', 'book_slot', 'invalid_arguments', 'repair', 'minutes must be 15, 30 or 60.'),
    ];
    await expect(planner.plan(input(obs))).resolves.toEqual({
      kind: 'stop',
      reason:
        'Step "book": book_slot failed (invalid_arguments → repair): minutes must be 15, 30 or 60. No fix is left for this step.',
    });
  });

  it('replan → next_alternative: the alternatives in order, each with its own args; none left → stop', async () => {
    const taken = failed('book#1', 'book_slot', 'semantic_rejection', 'replan', 'The slot 10:00 is taken.');
    await expect(planner.plan(input([found, taken]))).resolves.toEqual({
      kind: 'tool_calls',
      calls: [{ callId: 'book#2', tool: 'book_slot', args: { start: '11:00', minutes: 30 } }],
    });
    const takenToo = failed('book#2', 'book_slot', 'semantic_rejection', 'replan', 'The slot 11:00 is taken.');
    await expect(planner.plan(input([found, taken, takenToo]))).resolves.toEqual({
      kind: 'tool_calls',
      calls: [{ callId: 'book#3', tool: 'request_slot', args: { day: 'tomorrow' } }],
    });
    const refused = failed('book#3', 'request_slot', 'semantic_rejection', 'replan', 'No slot tomorrow.');
    await expect(planner.plan(input([found, taken, takenToo, refused]))).resolves.toEqual({
      kind: 'stop',
      reason:
        'Step "book": request_slot failed (semantic_rejection → replan): No slot tomorrow. No alternative is left for this step.',
    });
  });

  it('a class key wins over an action key, and the step’s map over the goal’s', async () => {
    // authorization routes to request_approval or stop; the step says stop for the class.
    const denied = failed('book#1', 'book_slot', 'authorization', 'replan', 'Not allowed.');
    await expect(planner.plan(input([found, denied]))).resolves.toEqual({
      kind: 'stop',
      reason: 'Step "book": book_slot failed (authorization → replan): Not allowed.',
    });
  });

  it('an action no map names → stop', async () => {
    const gone = failed('find#1', 'find_contact', 'unrecoverable', 'reject', 'The directory is down.');
    await expect(planner.plan(input([gone]))).resolves.toEqual({
      kind: 'stop',
      reason: 'Step "find": find_contact failed (unrecoverable → reject): The directory is down.',
    });
  });

  it('retry_same → the identical call again, under a new call id', async () => {
    const unknown = failed('book#1', 'book_slot', 'outcome_unknown', 'reconcile');
    await expect(planner.plan(input([found, unknown]))).resolves.toEqual({
      kind: 'tool_calls',
      calls: [{ callId: 'book#2', tool: 'book_slot', args: { start: '10:00', minutes: '30' } }],
    });
  });

  it('skip → the next step; submitting from a skipped step → stop', async () => {
    const junk = failed('book#1', 'book_slot', 'invalid_result', 'reject');
    await expect(planner.plan(input([found, junk]))).resolves.toEqual({
      kind: 'stop',
      reason: 'Step "book" has no result to submit.',
    });
  });
});

describe('scripted planner: scripts that do not fit the run fail loudly', () => {
  it('an unknown goal → ScriptedPolicyError unknown_goal listing the goals', async () => {
    await expect(planner.plan(input([], 'Refund O-1'))).rejects.toThrow(
      new ScriptedPolicyError(
        'unknown_goal',
        `the policy has no script for the goal "Refund O-1" (goals: "${GOAL}", "Say hello")`,
      ),
    );
  });

  it('an observation that does not answer the scripted call → out_of_script', async () => {
    await expect(planner.plan(input([ok('x#1', 'find_contact', {}, {})]))).rejects.toMatchObject({
      code: 'out_of_script',
      message: 'observation of call "x#1" (find_contact) does not answer the scripted call "find#1"',
    });
  });

  it('an observation after the script ended → out_of_script', async () => {
    const obs = [found, ok('book#1', 'book_slot', {}, { bookingId: 'B-1' }), ok('book#2', 'book_slot', {}, {})];
    await expect(planner.plan(input(obs))).rejects.toMatchObject({
      code: 'out_of_script',
      message:
        'observation of call "book#2" (book_slot) does not answer the scripted call (none: the script had ended)',
    });
  });

  it('an input the observation window trimmed → out_of_script (the script replays every observation)', async () => {
    await expect(planner.plan({ ...input([found]), omittedObservations: 3 })).rejects.toMatchObject({
      code: 'out_of_script',
      message:
        "the script replays every observation, and 3 were dropped from the window: raise the agent's observationWindow",
    });
  });
});

describe('scripted planner: policy validation names the source and the field', () => {
  const invalid = (value: unknown, source?: string): string => {
    try {
      parseScriptedPolicy(value, source);
    } catch (err) {
      expect(err).toBeInstanceOf(ScriptedPolicyError);
      expect((err as ScriptedPolicyError).code).toBe('policy_invalid');
      return (err as Error).message;
    }
    throw new Error('expected the policy to be refused');
  };

  it('a step without a tool', () => {
    expect(invalid({ goals: { 'Refund O-1': { steps: [{ args: {} }], submit: { result: 1 } } } }, 'p.json')).toBe(
      'p.json: goals["Refund O-1"].steps[0].tool: Invalid input: expected string, received undefined',
    );
  });

  it('an unknown reaction', () => {
    expect(invalid({ goals: { g: { on: { replan: 'try_harder' }, steps: [], submit: { result: 1 } } } })).toMatch(
      /^policy: goals\.g\.on\.replan: Invalid option: expected one of "fix_fields"\|/,
    );
  });

  it('an `on` key that is neither a failure class nor a recovery action', () => {
    expect(invalid({ goals: { g: { on: { timeout: 'stop' }, steps: [], submit: { result: 1 } } } })).toMatch(
      /^policy: goals\.g\.on\.timeout: /,
    );
  });

  it('duplicate step ids', () => {
    const steps = [
      { id: 'a', tool: 't' },
      { id: 'a', tool: 'u' },
    ];
    expect(invalid({ goals: { g: { steps, submit: { result: 1 } } } })).toBe(
      'policy: goals.g.steps[1].id: duplicate step id "a"',
    );
  });

  it('resultFrom naming no step', () => {
    expect(invalid({ goals: { g: { steps: [{ tool: 't' }], submit: { resultFrom: 'book' } } } })).toBe(
      'policy: goals.g.submit.resultFrom: no step has the id "book" (steps: step-1)',
    );
  });

  it('an unknown field', () => {
    expect(invalid({ goals: { g: { steps: [{ tool: 't', retries: 3 }], submit: { result: 1 } } } })).toBe(
      'policy: goals.g.steps[0]: Unrecognized key: "retries"',
    );
  });

  it('createScriptedPlanner refuses a bad policy too', () => {
    expect(() => createScriptedPlanner({ goals: [] })).toThrow(ScriptedPolicyError);
  });
});

describe('scripted planner: policy files', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'policy-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('a valid file → the parsed policy, defaults filled in', async () => {
    const path = join(dir, 'ok.json');
    await writeFile(path, JSON.stringify({ goals: { g: { steps: [{ tool: 't' }], submit: { result: null } } } }));
    await expect(loadScriptedPolicy(path)).resolves.toEqual({
      goals: {
        g: { on: {}, steps: [{ tool: 't', args: {}, fixes: [], alternatives: [], on: {} }], submit: { result: null } },
      },
    });
  });

  it('a file that is not JSON → policy_not_json, with the path', async () => {
    const path = join(dir, 'bad.json');
    await writeFile(path, '{ goals: ');
    await expect(loadScriptedPolicy(path)).rejects.toMatchObject({
      code: 'policy_not_json',
      message: expect.stringMatching(new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not JSON \\(`)),
    });
  });

  it('a missing file → policy_unreadable, with the path and the code', async () => {
    const path = join(dir, 'missing.json');
    await expect(loadScriptedPolicy(path)).rejects.toThrow(
      new ScriptedPolicyError('policy_unreadable', `${path}: cannot read the policy file (ENOENT)`),
    );
  });

  it('a file that fails the schema → policy_invalid, the message starting with the path', async () => {
    const path = join(dir, 'invalid.json');
    await writeFile(path, JSON.stringify({ goals: { g: { steps: [], submit: {} } } }));
    await expect(loadScriptedPolicy(path)).rejects.toMatchObject({
      code: 'policy_invalid',
      message: expect.stringMatching(
        new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: goals\\.g\\.submit: `),
      ),
    });
  });
});

describe('planner activity: the answer check', () => {
  const quiet: Logger = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };
  const run = (p: Planner, i: PlannerInput) =>
    activityEnv({ activityId: 'plan-7' }, { logger: quiet }).run(createPlannerActivities(p).planNextStep, i);
  const failureOf = async (promise: Promise<unknown>): Promise<ApplicationFailure> => {
    const err = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!(err instanceof ApplicationFailure)) throw new Error(`expected an ApplicationFailure, got ${String(err)}`);
    return err;
  };

  it('a valid decision passes through unchanged', async () => {
    await expect(run(planner, input([]))).resolves.toEqual({
      kind: 'tool_calls',
      calls: [{ callId: 'find#1', tool: 'find_contact', args: { name: 'Ada' } }],
    });
  });

  it('a decision that fails plannerDecisionSchema() → planner_invalid_decision, non-retryable, no stack, field issues', async () => {
    const bad: Planner = { plan: () => Promise.resolve({ kind: 'tool_calls', calls: [] }) };
    const failure = await failureOf(run(bad, input([])));
    expect(failure.type).toBe(PLANNER_INVALID_DECISION);
    expect(failure.nonRetryable).toBe(true);
    expect(failure.stack).toBe('');
    expect(failure.message).toBe(
      'The planner\'s answer is not a valid decision: calls: Too small: expected array to have >=1 items. Received: {"kind":"tool_calls","calls":[]}',
    );
    expect(failure.details).toEqual([
      {
        tool: 'planner',
        callId: 'turn-1',
        class: 'invalid_result',
        reason: 'schema_violation',
        phase: 'postcheck',
        retryable: false,
        replaySafe: true,
        publicMessage: failure.message,
        diagnosticRef: 'test/plan-7/1', // MockActivityEnvironment's workflowId is "test"
        issues: [
          {
            path: ['calls'],
            expected: 'non-empty array of object',
            received: 'not reported',
            suggestion: 'change calls to a non-empty array of object',
          },
        ],
      },
      { attempt: 1 },
    ]);
  });

  it('a decision of an unknown kind → the kinds in words, from the decision schema', async () => {
    const bad: Planner = { plan: () => Promise.resolve({ kind: 'answer' } as never) };
    const failure = await failureOf(run(bad, input([])));
    expect((failure.details?.[0] as { issues?: unknown }).issues).toEqual([
      {
        path: ['kind'],
        expected: 'one of tool_calls|submit|stop',
        received: 'not reported',
        suggestion: 'use one of tool_calls|submit|stop',
      },
    ]);
  });

  it('a long answer is quoted in at most 200 redacted characters', async () => {
    const secret = 'sk-live-4f9Qp2Lx8Zr6Tn1Vb3Mc5Hd7';
    const bad: Planner = {
      plan: () =>
        Promise.resolve({ kind: 'answer', text: `Authorization: Bearer ${secret} ${'z'.repeat(500)}` } as never),
    };
    const failure = await failureOf(run(bad, input([])));
    const excerpt = failure.message.split(' Received: ')[1]!;
    expect(excerpt.length).toBe(200);
    expect(excerpt.endsWith('…')).toBe(true);
    expect(JSON.stringify([failure.message, failure.details])).not.toContain(secret);
  });

  it('a scripted planner that does not know the goal → unrecoverable, non-retryable (no silent stop)', async () => {
    const failure = await failureOf(run(planner, input([], 'Refund O-1')));
    expect(failure.type).toBe('unrecoverable');
    expect(failure.nonRetryable).toBe(true);
    expect(failure.message).toBe(
      "planner: the scripted policy does not fit this run (ScriptedPolicyError unknown_goal); the worker's log names the goal and the policy's goals.",
    );
    expect(failure.message).not.toContain('Refund O-1');
  });

  it('an input that is not a PlannerInput → planner_invalid_input naming the field', async () => {
    const failure = await failureOf(run(planner, { ...input([]), turn: 0 }));
    expect(failure.type).toBe(PLANNER_INVALID_INPUT);
    expect(failure.nonRetryable).toBe(true);
    expect(failure.message).toBe('PlannerInput.turn: Too small: expected number to be >=1');
  });
});

describe('planner activity: capability names from the worker catalog', () => {
  const quiet: Logger = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };
  const catalog = [
    { name: 'book_slot', description: 'Books a slot.', inputSchema: { type: 'object', required: ['start'] } },
    { name: 'find_contact', description: 'Finds a contact.', inputSchema: { type: 'object' } },
  ];
  /** A planner that answers with what it saw, so the test reads the input it was given. */
  const seen: PlannerInput[] = [];
  const echo: Planner = {
    plan: (i) => {
      seen.push(i);
      return Promise.resolve({ kind: 'stop', reason: 'seen' });
    },
  };
  const step = (names: string[]) => ({ goal: GOAL, turn: 1, capabilityNames: names, observations: [] });
  const run = (activity: (i: never) => Promise<unknown>, i: unknown) =>
    activityEnv({ activityId: 'plan-1' }, { logger: quiet }).run(activity, i as never);
  const failureOf = (p: Promise<unknown>) =>
    p.then(
      () => undefined,
      (e: unknown) => e as ApplicationFailure,
    );

  it('expands the names from the catalog: the planner sees each named tool with its description and schema', async () => {
    seen.length = 0;
    await run(createPlannerActivities(echo, { catalog }).planNextStep, step(['book_slot', 'find_contact']));
    expect(seen).toEqual([{ goal: GOAL, turn: 1, capabilities: catalog, observations: [] }]);
  });

  it('a name the catalog lacks → retryable planner_invalid_input naming it (workers of different catalogs)', async () => {
    const failure = await failureOf(run(createPlannerActivities(echo, { catalog }).planNextStep, step(['refund'])));
    expect([failure?.type, failure?.nonRetryable, failure?.message]).toEqual([
      PLANNER_INVALID_INPUT,
      false,
      'The planner\'s catalog has no tool named "refund"; the workflow worker and the planner worker run different catalogs.',
    ]);
  });

  it('names and no catalog → non-retryable planner_invalid_input saying where the catalog comes from', async () => {
    const failure = await failureOf(run(createPlannerActivities(echo).planNextStep, step(['book_slot'])));
    expect([failure?.type, failure?.nonRetryable]).toEqual([PLANNER_INVALID_INPUT, true]);
    expect(failure?.message).toMatch(
      /^planNextStep has no catalog to expand the capability names: register it on a Worker with the RecoveryPlugin/,
    );
  });

  it('on a Worker with the plugin, planner activities built without a catalog get the plugin’s', async () => {
    const tool = defineTool({
      name: 'find_contact',
      description: 'Finds a contact.',
      input: z.object({ name: z.string() }),
      output: z.object({ id: z.string() }),
      effect: 'read',
      execute: () => Promise.resolve({ id: 'c1' }),
    });
    const plugin = new RecoveryPlugin({ tools: [tool], config: {}, searchAttributes: false });
    const own = createPlannerActivities(echo);
    const configured = plugin.configureWorker({ taskQueue: 'q', activities: own } as WorkerOptions);
    const bound = (configured.activities as typeof own).planNextStep;
    expect(bound).not.toBe(own.planNextStep);
    seen.length = 0;
    await run(bound, step(['find_contact']));
    expect(seen[0]?.capabilities).toEqual([
      { name: 'find_contact', description: 'Finds a contact.', inputSchema: plugin.catalog[0]!.inputSchema },
    ]);
  });
});
