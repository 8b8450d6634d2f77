/**
 * Loopback tests of the OpenAI-compatible planner: the real `openai` v4 client speaks HTTP to a fake
 * chat-completions server on 127.0.0.1 (examples/fake-openai-server.ts); the planner activity runs in
 * `MockActivityEnvironment` (a mock activity Context, no Temporal server). Asserts what the planner sends (tools
 * with their JSON Schemas, observations as messages), how replies become decisions, and how the endpoint's
 * failures leave the activity.
 */
import { createHash } from 'node:crypto';
import type { MockActivityEnvironment } from '@temporalio/testing';
import { activityEnv } from '../fixtures/activity-env';
import { ApplicationFailure, CancelledFailure, type Logger, type LogLevel, type LogMetadata } from '@temporalio/common';
import { z } from 'zod';
import { defineTool, toolCatalog } from '../../activities/define-tool';
import { createToolActivities } from '../../activities/invoke-tool';
import {
  createOpenAIPlanner,
  decisionFrom,
  DEFAULT_SYSTEM_PROMPT,
  PlannerConfigError,
  toolNamesFor,
} from '../../activities/planners/openai';
import { createPlannerActivities, PLANNER_INVALID_DECISION, type Planner } from '../../activities/planners/planner';
import { startFakeOpenAIServer, text, toolCalls, type FakeOpenAIServer } from '../../examples/fake-openai-server';
import { DEFAULT_BACKOFF_POLICY } from '../../recovery/backoff';
import { ACTIONS } from '../../recovery/actions';
import type { ModelFeedback } from '../../recovery/feedback';
import { permittedCapabilities } from '../../recovery/tool-spec';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { Observation, PlannerInput } from '../../workflows/planner-contract';

const API_KEY = 'sk-test-Zx9Qw7Lm3Np5Rt8Vb2Kd4Hs6';
const MODEL = 'fake-model-1';

/** A logger that keeps what the activity logs (the worker log), so tests can look and the output stays quiet. */
function collectingLogger(): Logger & { entries: { level: LogLevel; message: string; meta?: LogMetadata }[] } {
  const entries: { level: LogLevel; message: string; meta?: LogMetadata }[] = [];
  const at = (level: LogLevel) => (message: string, meta?: LogMetadata) => void entries.push({ level, message, meta });
  return {
    entries,
    log: (level, message, meta) => void entries.push({ level, message, meta }),
    trace: at('TRACE'),
    debug: at('DEBUG'),
    info: at('INFO'),
    warn: at('WARN'),
    error: at('ERROR'),
  };
}

const bookSlot = defineTool({
  name: 'book_slot',
  description: 'Books a calendar slot.',
  input: z.object({ start: z.string().regex(/^\d{2}:\d{2}$/), minutes: z.number().int().positive() }).strict(),
  output: z.object({ bookingId: z.string() }),
  effect: 'write',
  execute: () => Promise.resolve({ bookingId: 'B-1' }),
});
const findContact = defineTool({
  name: 'find_contact',
  description: 'Finds a contact by name.',
  input: z.object({ name: z.string().min(1) }).strict(),
  output: z.object({ email: z.string() }),
  effect: 'read',
  execute: () => Promise.resolve({ email: 'ada@example.test' }),
});
const catalog = toolCatalog([bookSlot, findContact]);
const capabilities = permittedCapabilities(catalog, []);
const GOAL = 'Book a 30-minute call with Ada at 10:00';

const input = (over: Partial<PlannerInput> = {}): PlannerInput => ({
  goal: GOAL,
  turn: 1,
  capabilities,
  observations: [],
  ...over,
});

let server: FakeOpenAIServer;
let logger: ReturnType<typeof collectingLogger>;
let env: MockActivityEnvironment;
let planNextStep: (input: PlannerInput) => Promise<unknown>;

beforeEach(async () => {
  server = await startFakeOpenAIServer();
  logger = collectingLogger();
  env = activityEnv({ activityId: 'plan-1' }, { logger });
  const planner = createOpenAIPlanner({ baseURL: server.baseURL, apiKey: API_KEY, model: MODEL, env: {} });
  const activities = createPlannerActivities(planner, { random: () => 0 });
  planNextStep = (i) => env.run(activities.planNextStep, i);
});
afterEach(() => server.close());

/** What the activity threw, as an ApplicationFailure (fails the test otherwise). */
async function failureOf(run: Promise<unknown>): Promise<ApplicationFailure> {
  const err = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof ApplicationFailure)) throw new Error(`expected an ApplicationFailure, got ${String(err)}`);
  return err;
}

function lastBody(): {
  model: string;
  messages: unknown[];
  tools: { type: string; function: Record<string, unknown> }[];
} {
  return server.requests.at(-1)!.body as ReturnType<typeof lastBody>;
}

describe('openai planner: the request', () => {
  it('offers every capability as a function tool with its JSON Schema, plus submit, and sends the key as a bearer token', async () => {
    server.enqueue(toolCalls({ id: 'call_a', name: 'find_contact', arguments: { name: 'Ada' } }));
    await planNextStep(input());
    expect(server.requests).toHaveLength(1);
    const req = server.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBe(`Bearer ${API_KEY}`);
    const body = lastBody();
    expect(body.model).toBe(MODEL);
    expect(body.tools.map((t) => t.function.name)).toEqual(['book_slot', 'find_contact', 'submit']);
    expect(body.tools[0]).toEqual({
      type: 'function',
      function: {
        name: 'book_slot',
        description: 'Books a calendar slot.',
        parameters: {
          type: 'object',
          properties: {
            start: { type: 'string', pattern: '^\\d{2}:\\d{2}$' },
            minutes: { type: 'integer', exclusiveMinimum: 0, maximum: 9007199254740991 },
          },
          required: ['start', 'minutes'],
          additionalProperties: false,
        },
      },
    });
    expect(body.tools[2]).toEqual({
      type: 'function',
      function: {
        name: 'submit',
        description: 'Deliver the final answer for the goal. Call it once, when the goal is reached.',
        parameters: {
          type: 'object',
          properties: { result: { description: 'The final answer: any JSON value.' } },
          required: ['result'],
        },
      },
    });
    expect(body.messages).toEqual([
      { role: 'system', content: DEFAULT_SYSTEM_PROMPT },
      { role: 'user', content: `Goal: ${GOAL}` },
    ]);
  });

  it('turns observations into an assistant tool_calls message, role tool messages with tool_call_id, and user messages', async () => {
    const feedback: ModelFeedback = {
      status: 'failed',
      tool: 'book_slot',
      errorClass: 'semantic_rejection',
      reason: 'conflict',
      action: 'replan',
      message: 'book_slot: the slot 10:00 is taken.',
      nextStep:
        'Choose another way: another tool or changed arguments that fit the observed state, or stop and tell the user.',
      observedState: { takenBy: 'B-7' },
    };
    server.enqueue(text('I will stop.'));
    await planNextStep(
      input({
        turn: 3,
        observations: [
          {
            kind: 'tool_result',
            callId: 'call_1',
            tool: 'find_contact',
            args: { name: 'Ada' },
            value: { email: 'ada@example.test' },
            empty: false,
          },
          {
            kind: 'tool_failure',
            callId: 'call_2',
            tool: 'book_slot',
            args: { start: '10:00', minutes: 30 },
            feedback,
          },
          { kind: 'user_message', text: 'Any time after 11 works too.' },
          { kind: 'tool_result', callId: 'call_3', tool: 'find_contact', args: '{"name":', value: [], empty: true },
        ],
      }),
    );
    expect(lastBody().messages.slice(2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'find_contact', arguments: '{"name":"Ada"}' } },
          {
            id: 'call_2',
            type: 'function',
            function: { name: 'book_slot', arguments: '{"start":"10:00","minutes":30}' },
          },
        ],
      },
      {
        role: 'tool',
        tool_call_id: 'call_1',
        content: '{"status":"ok","value":{"email":"ada@example.test"}}',
      },
      { role: 'tool', tool_call_id: 'call_2', content: JSON.stringify(feedback) },
      { role: 'user', content: 'Any time after 11 works too.' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_3', type: 'function', function: { name: 'find_contact', arguments: '{"name":' } }],
      },
      { role: 'tool', tool_call_id: 'call_3', content: '{"status":"ok","value":[],"empty":true}' },
    ]);
  });

  it('tells the model how many older observations the window dropped, after the goal (AgentOptions.observationWindow)', async () => {
    const result = (callId: string) => ({
      kind: 'tool_result' as const,
      callId,
      tool: 'find_contact',
      args: { name: 'Ada' },
      value: { email: 'ada@example.test' },
      empty: false,
      turn: 9,
    });
    for (const [omitted, note] of [
      [1, '1 earlier message of this run (tool answers, user messages) is not shown'],
      [240, '240 earlier messages of this run (tool answers, user messages) are not shown'],
    ] as const) {
      server.enqueue(text('I will stop.'));
      await planNextStep(input({ turn: 10, observations: [result('call_9')], omittedObservations: omitted }));
      expect(lastBody().messages.slice(1, 4)).toEqual([
        { role: 'user', content: `Goal: ${GOAL}` },
        { role: 'user', content: `${note}, to keep the context bounded; the newest follow.` },
        expect.objectContaining({ role: 'assistant' }),
      ]);
    }
    server.enqueue(text('I will stop.'));
    await planNextStep(input({ turn: 10, observations: [result('call_9')] }));
    expect(
      lastBody()
        .messages.slice(1, 3)
        .map((m) => (m as { role: string }).role),
    ).toEqual(['user', 'assistant']);
  });
});

describe('openai planner: the reply', () => {
  it('tool calls → a tool_calls decision, in order, with the model’s call ids and parsed arguments', async () => {
    server.enqueue(
      toolCalls(
        { id: 'call_x', name: 'find_contact', arguments: { name: 'Ada' } },
        { id: 'call_y', name: 'book_slot', arguments: { start: '10:00', minutes: 30 } },
      ),
    );
    await expect(planNextStep(input())).resolves.toEqual({
      kind: 'tool_calls',
      calls: [
        { callId: 'call_x', tool: 'find_contact', args: { name: 'Ada' } },
        { callId: 'call_y', tool: 'book_slot', args: { start: '10:00', minutes: 30 } },
      ],
    });
  });

  it('submit alone → submit with its result', async () => {
    server.enqueue(toolCalls({ name: 'submit', arguments: { result: { bookingId: 'B-1', at: '10:00' } } }));
    await expect(planNextStep(input())).resolves.toEqual({
      kind: 'submit',
      result: { bookingId: 'B-1', at: '10:00' },
    });
  });

  it('submit beside another call → the other call runs, the submit is dropped', async () => {
    server.enqueue(
      toolCalls(
        { id: 'call_1', name: 'find_contact', arguments: { name: 'Ada' } },
        { id: 'call_2', name: 'submit', arguments: { result: 'done' } },
      ),
    );
    await expect(planNextStep(input())).resolves.toEqual({
      kind: 'tool_calls',
      calls: [{ callId: 'call_1', tool: 'find_contact', args: { name: 'Ada' } }],
    });
  });

  it('a text reply without a tool call → stop with the text as reason', async () => {
    server.enqueue(text('  I cannot book this: Ada has no free slot today.  '));
    await expect(planNextStep(input())).resolves.toEqual({
      kind: 'stop',
      reason: 'I cannot book this: Ada has no free slot today.',
    });
  });

  it('an empty reply → stop with a reason that names the finish_reason', async () => {
    server.enqueue({ kind: 'text', content: '', finishReason: 'length' });
    await expect(planNextStep(input())).resolves.toEqual({
      kind: 'stop',
      reason: 'The model ended its turn without a tool call or a reason (finish_reason: length).',
    });
  });

  it('malformed arguments (not JSON) → a tool_calls decision carrying the raw string; the tool activity answers invalid_arguments with a field issue', async () => {
    server.enqueue(toolCalls({ id: 'call_bad', name: 'book_slot', arguments: '{"start": "10:00", "minutes": 30' }));
    const decision = await planNextStep(input());
    expect(decision).toEqual({
      kind: 'tool_calls',
      calls: [{ callId: 'call_bad', tool: 'book_slot', args: '{"start": "10:00", "minutes": 30' }],
    });
    const { invokeTool } = createToolActivities({ tools: [bookSlot, findContact], backoff: DEFAULT_BACKOFF_POLICY });
    const failure = await failureOf(
      env.run(invokeTool, {
        tool: 'book_slot',
        args: '{"start": "10:00", "minutes": 30',
        callId: 'call_bad',
        operationId: 'op-1',
      }),
    );
    expect(failure.type).toBe('invalid_arguments');
    expect(failure.nonRetryable).toBe(true);
    const details = failure.details?.[0] as { issues?: { path: unknown[]; expected: string }[] };
    expect(details.issues?.map((i) => i.path)).toEqual([[]]);
    expect(details.issues?.[0]?.expected).toMatch(/object/);
  });

  it('empty arguments ("") → {}', async () => {
    server.enqueue(toolCalls({ id: 'call_e', name: 'find_contact', arguments: '' }));
    await expect(planNextStep(input())).resolves.toEqual({
      kind: 'tool_calls',
      calls: [{ callId: 'call_e', tool: 'find_contact', args: {} }],
    });
  });

  it('a hallucinated tool name is passed through; an activity for a tool its worker lacks answers "not on this worker", retryable (the router answers capability_missing for a name its catalog lacks, before any activity)', async () => {
    server.enqueue(toolCalls({ id: 'call_h', name: 'delete_all_bookings', arguments: {} }));
    await expect(planNextStep(input())).resolves.toEqual({
      kind: 'tool_calls',
      calls: [{ callId: 'call_h', tool: 'delete_all_bookings', args: {} }],
    });
    const { invokeTool } = createToolActivities({ tools: [bookSlot, findContact], backoff: DEFAULT_BACKOFF_POLICY });
    const failure = await failureOf(
      env.run(invokeTool, { tool: 'delete_all_bookings', args: {}, callId: 'call_h', operationId: 'op-2' }),
    );
    expect([failure.type, failure.nonRetryable]).toEqual(['transient', false]);
    expect(failure.message).toBe(
      'The tool "delete_all_bookings" could not run: the worker that took the call does not have it in its catalog.',
    );
  });

  it('submit with arguments that are not JSON → planner_invalid_decision, non-retryable, no stack', async () => {
    server.enqueue(toolCalls({ name: 'submit', arguments: '{"result": ' }));
    const failure = await failureOf(planNextStep(input()));
    expect(failure.type).toBe(PLANNER_INVALID_DECISION);
    expect(failure.nonRetryable).toBe(true);
    expect(failure.stack).toBe('');
    expect(failure.message).toBe(
      'The planner\'s answer is not a valid decision: the "submit" call\'s arguments are not JSON. Received: {"result":',
    );
  });

  it('submit without "result" → planner_invalid_decision', async () => {
    server.enqueue(toolCalls({ name: 'submit', arguments: { answer: 42 } }));
    const failure = await failureOf(planNextStep(input()));
    expect(failure.type).toBe(PLANNER_INVALID_DECISION);
    expect(failure.message).toBe(
      'The planner\'s answer is not a valid decision: the "submit" call has no "result". Received: {"answer":42}',
    );
  });

  it('a completion without choices → planner_invalid_decision quoting at most 200 redacted characters', async () => {
    server.enqueue({
      kind: 'raw',
      body: { id: 'x', object: 'chat.completion', choices: [], note: `token=${API_KEY} ${'y'.repeat(400)}` },
    });
    const failure = await failureOf(planNextStep(input()));
    expect(failure.type).toBe(PLANNER_INVALID_DECISION);
    expect(failure.nonRetryable).toBe(true);
    const excerpt = failure.message.split(' Received: ')[1]!;
    expect(excerpt.length).toBeLessThanOrEqual(200);
    expect(excerpt.startsWith('{"id":"x","object":"chat.completion","choices":[],"note":"token=[redacted]')).toBe(true);
    expect(JSON.stringify([failure.message, failure.details])).not.toContain(API_KEY);
    expect(failure.details?.[0]).toMatchObject({
      tool: 'planner',
      callId: 'turn-1',
      class: 'invalid_result',
      reason: 'schema_violation',
      phase: 'postcheck',
      retryable: false,
    });
  });
});

describe('openai planner: function names OpenAI accepts (^[a-zA-Z0-9_-]{1,64}$)', () => {
  const OPENAI_FUNCTION_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
  const sha8 = (name: string) => createHash('sha256').update(name).digest('hex').slice(0, 8);
  const calendarBook = defineTool({
    name: 'calendar.book',
    description: 'Books a slot in the calendar.',
    input: z.object({ slot: z.string() }).strict(),
    output: z.object({ bookingId: z.string() }),
    effect: 'write',
    execute: () => Promise.resolve({ bookingId: 'B-2' }),
  });
  const dotted = permittedCapabilities(toolCatalog([bookSlot, calendarBook, findContact]), []);
  const unknownTool = (tool: string, caps = capabilities): ModelFeedback => ({
    status: 'failed',
    tool,
    errorClass: 'capability_missing',
    reason: 'unknown_tool',
    action: 'replan',
    message: `There is no tool named "${tool}".`,
    nextStep: ACTIONS.replan.nextStep,
    capabilities: caps,
  });

  it('aliases: a valid name is kept; "." → "_"; a taken or too long alias → its first 55 characters + "_" + 8 hex of the SHA-256 of the real name', () => {
    const long = `${'a'.repeat(40)}.${'b'.repeat(40)}`;
    const names = toolNamesFor([
      { name: 'calendar.book' },
      { name: 'calendar_book' },
      { name: 'mcp.fs.read-file' },
      { name: long },
      { name: 'find_contact' },
    ]);
    expect([...names.toModel]).toEqual([
      ['calendar_book', 'calendar_book'],
      ['find_contact', 'find_contact'],
      ['calendar.book', `calendar_book_${sha8('calendar.book')}`],
      ['mcp.fs.read-file', 'mcp_fs_read-file'],
      [long, `${'a'.repeat(40)}_${'b'.repeat(14)}_${sha8(long)}`],
    ]);
    expect([...names.fromModel]).toEqual([...names.toModel].map(([real, alias]) => [alias, real]));
    for (const alias of names.toModel.values()) expect(alias).toMatch(OPENAI_FUNCTION_NAME);
    // Deterministic: the same list gives the same aliases.
    expect([...toolNamesFor([{ name: 'calendar.book' }, { name: 'calendar_book' }]).toModel]).toEqual([
      ['calendar_book', 'calendar_book'],
      ['calendar.book', `calendar_book_${sha8('calendar.book')}`],
    ]);
  });

  it('aliases: a capability named "submit" → PlannerConfigError invalid_option', () => {
    expect(() => toolNamesFor([{ name: 'submit' }])).toThrow(
      new PlannerConfigError('invalid_option', 'a capability is named "submit", which the planner reserves'),
    );
  });

  it('a capability named "calendar.book" is offered as "calendar_book", and a call to "calendar_book" comes back as calendar.book', async () => {
    server.enqueue(toolCalls({ id: 'call_c', name: 'calendar_book', arguments: { slot: '10:00' } }));
    await expect(planNextStep(input({ capabilities: dotted }))).resolves.toEqual({
      kind: 'tool_calls',
      calls: [{ callId: 'call_c', tool: 'calendar.book', args: { slot: '10:00' } }],
    });
    expect(lastBody().tools.map((t) => t.function.name)).toEqual([
      'book_slot',
      'calendar_book',
      'find_contact',
      'submit',
    ]);
    expect(lastBody().tools[1]).toEqual({
      type: 'function',
      function: {
        name: 'calendar_book',
        description: 'Books a slot in the calendar.',
        parameters: {
          type: 'object',
          properties: { slot: { type: 'string' } },
          required: ['slot'],
          additionalProperties: false,
        },
      },
    });
  });

  it('an earlier call of calendar.book is replayed under its alias, in tool_calls and in the feedback', async () => {
    const feedback: ModelFeedback = {
      status: 'failed',
      tool: 'calendar.book',
      errorClass: 'semantic_rejection',
      reason: 'conflict',
      action: 'replan',
      message: 'calendar.book: the slot 10:00 is taken.',
      nextStep: ACTIONS.replan.nextStep,
      capabilities: dotted,
    };
    server.enqueue(text('stop'));
    await planNextStep(
      input({
        turn: 2,
        capabilities: dotted,
        observations: [
          { kind: 'tool_failure', callId: 'call_c', tool: 'calendar.book', args: { slot: '10:00' }, feedback, turn: 1 },
        ],
      }),
    );
    expect(lastBody().messages.slice(2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_c', type: 'function', function: { name: 'calendar_book', arguments: '{"slot":"10:00"}' } },
        ],
      },
      {
        role: 'tool',
        tool_call_id: 'call_c',
        content: JSON.stringify({
          ...feedback,
          tool: 'calendar_book',
          capabilities: dotted.map((c) => (c.name === 'calendar.book' ? { ...c, name: 'calendar_book' } : c)),
        }),
      },
    ]);
  });

  it('decisionFrom maps an alias back with the names it is given, and passes any other name through', () => {
    const completion = {
      id: 'c',
      object: 'chat.completion',
      created: 0,
      model: 'm',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          logprobs: null,
          message: {
            role: 'assistant',
            content: null,
            refusal: null,
            tool_calls: [
              { id: 'a', type: 'function', function: { name: 'calendar_book', arguments: '{}' } },
              { id: 'b', type: 'function', function: { name: 'calendar.book', arguments: '{}' } },
              { id: 'c', type: 'function', function: { name: 'multi_tool_use.parallel', arguments: '{}' } },
            ],
          },
        },
      ],
    } satisfies ChatCompletion;
    expect(decisionFrom(completion, 1, toolNamesFor(dotted))).toEqual({
      kind: 'tool_calls',
      calls: [
        { callId: 'a', tool: 'calendar.book', args: {} },
        { callId: 'b', tool: 'calendar.book', args: {} },
        { callId: 'c', tool: 'multi_tool_use.parallel', args: {} },
      ],
    });
    expect(decisionFrom(completion, 1, toolNamesFor(capabilities))).toEqual({
      kind: 'tool_calls',
      calls: [
        { callId: 'a', tool: 'calendar_book', args: {} },
        { callId: 'b', tool: 'calendar.book', args: {} },
        { callId: 'c', tool: 'multi_tool_use.parallel', args: {} },
      ],
    });
  });

  it('hallucinated names ("multi_tool_use.parallel", 10,000 characters) come back as user text after the turn’s tool messages; the other calls keep their pairs', async () => {
    const huge = 'n'.repeat(10_000);
    const parallel = unknownTool('multi_tool_use.parallel');
    const long = unknownTool(huge);
    const conflict: ModelFeedback = {
      ...unknownTool('book_slot'),
      errorClass: 'semantic_rejection',
      reason: 'conflict',
    };
    server.enqueue(text('stop'));
    await planNextStep(
      input({
        turn: 3,
        observations: [
          { kind: 'tool_result', callId: 'call_1', tool: 'find_contact', args: {}, value: 1, empty: false, turn: 1 },
          {
            kind: 'tool_failure',
            callId: 'call_2',
            tool: 'multi_tool_use.parallel',
            args: {},
            feedback: parallel,
            turn: 1,
          },
          { kind: 'tool_failure', callId: 'call_3', tool: huge, args: { x: 1 }, feedback: long, turn: 1 },
          { kind: 'tool_failure', callId: 'call_4', tool: 'book_slot', args: {}, feedback: conflict, turn: 1 },
          { kind: 'tool_failure', callId: 'call_5', tool: '', args: {}, feedback: unknownTool(''), turn: 2 },
        ],
      }),
    );
    expect(lastBody().messages.slice(2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'find_contact', arguments: '{}' } },
          { id: 'call_4', type: 'function', function: { name: 'book_slot', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"status":"ok","value":1}' },
      { role: 'tool', tool_call_id: 'call_4', content: JSON.stringify(conflict) },
      {
        role: 'user',
        content: `You called a tool named "multi_tool_use.parallel" that does not exist: ${JSON.stringify(parallel)}`,
      },
      {
        role: 'user',
        content: `You called a tool named "${'n'.repeat(64)}…" that does not exist: ${JSON.stringify(long)}`,
      },
      { role: 'user', content: `You called a tool named "" that does not exist: ${JSON.stringify(unknownTool(''))}` },
    ]);
  });

  it('a hallucinated name round trip: passed through in the decision, sent back as text on the next turn', async () => {
    server.enqueue(
      toolCalls(
        { id: 'call_p', name: 'multi_tool_use.parallel', arguments: { tool_uses: [] } },
        { id: 'call_f', name: 'find_contact', arguments: { name: 'Ada' } },
      ),
      text('stop'),
    );
    const decision = await planNextStep(input());
    expect(decision).toEqual({
      kind: 'tool_calls',
      calls: [
        { callId: 'call_p', tool: 'multi_tool_use.parallel', args: { tool_uses: [] } },
        { callId: 'call_f', tool: 'find_contact', args: { name: 'Ada' } },
      ],
    });
    const feedback = unknownTool('multi_tool_use.parallel');
    await planNextStep(
      input({
        turn: 2,
        observations: [
          { kind: 'tool_failure', callId: 'call_p', tool: 'multi_tool_use.parallel', args: {}, feedback, turn: 1 },
          {
            kind: 'tool_result',
            callId: 'call_f',
            tool: 'find_contact',
            args: { name: 'Ada' },
            value: 'x',
            empty: false,
            turn: 1,
          },
        ],
      }),
    );
    expect(lastBody().messages.slice(2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_f', type: 'function', function: { name: 'find_contact', arguments: '{"name":"Ada"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_f', content: '{"status":"ok","value":"x"}' },
      {
        role: 'user',
        content: `You called a tool named "multi_tool_use.parallel" that does not exist: ${JSON.stringify(feedback)}`,
      },
    ]);
    for (const m of lastBody().messages as { tool_calls?: { function: { name: string } }[] }[]) {
      for (const c of m.tool_calls ?? []) expect(c.function.name).toMatch(OPENAI_FUNCTION_NAME);
    }
  });
});

describe('openai planner: call ids', () => {
  it('two calls with the same id, and two with an empty id → call_1, call_1#2, turn-1-call-3, turn-1-call-4', async () => {
    server.enqueue(
      toolCalls(
        { id: 'call_1', name: 'find_contact', arguments: { name: 'Ada' } },
        { id: 'call_1', name: 'find_contact', arguments: { name: 'Bob' } },
        { id: '', name: 'find_contact', arguments: { name: 'Cy' } },
        { id: '', name: 'find_contact', arguments: { name: 'Di' } },
      ),
    );
    await expect(planNextStep(input())).resolves.toEqual({
      kind: 'tool_calls',
      calls: [
        { callId: 'call_1', tool: 'find_contact', args: { name: 'Ada' } },
        { callId: 'call_1#2', tool: 'find_contact', args: { name: 'Bob' } },
        { callId: 'turn-1-call-3', tool: 'find_contact', args: { name: 'Cy' } },
        { callId: 'turn-1-call-4', tool: 'find_contact', args: { name: 'Di' } },
      ],
    });
  });

  it('an id that a later suffix would take is skipped: call_1, call_1#2, call_1 → call_1, call_1#2, call_1#3', async () => {
    server.enqueue(
      toolCalls(
        { id: 'call_1', name: 'find_contact', arguments: {} },
        { id: 'call_1#2', name: 'find_contact', arguments: {} },
        { id: 'call_1', name: 'find_contact', arguments: {} },
      ),
    );
    await expect(planNextStep(input())).resolves.toEqual({
      kind: 'tool_calls',
      calls: [
        { callId: 'call_1', tool: 'find_contact', args: {} },
        { callId: 'call_1#2', tool: 'find_contact', args: {} },
        { callId: 'call_1#3', tool: 'find_contact', args: {} },
      ],
    });
  });

  it('the de-duplicated calls each get their own tool message next turn; observations sharing an id are told apart too', async () => {
    server.enqueue(text('stop'));
    const result = (callId: string, n: number, turn: number): Observation => ({
      kind: 'tool_result',
      callId,
      tool: 'find_contact',
      args: { n },
      value: n,
      empty: false,
      turn,
    });
    await planNextStep(
      input({
        turn: 3,
        observations: [result('call_1', 1, 1), result('call_1#2', 2, 1), result('dup', 3, 2), result('dup', 4, 2)],
      }),
    );
    const call = (id: string, n: number) => ({
      id,
      type: 'function',
      function: { name: 'find_contact', arguments: `{"n":${n}}` },
    });
    expect(lastBody().messages.slice(2)).toEqual([
      { role: 'assistant', content: null, tool_calls: [call('call_1', 1), call('call_1#2', 2)] },
      { role: 'tool', tool_call_id: 'call_1', content: '{"status":"ok","value":1}' },
      { role: 'tool', tool_call_id: 'call_1#2', content: '{"status":"ok","value":2}' },
      { role: 'assistant', content: null, tool_calls: [call('dup', 3), call('dup#2', 4)] },
      { role: 'tool', tool_call_id: 'dup', content: '{"status":"ok","value":3}' },
      { role: 'tool', tool_call_id: 'dup#2', content: '{"status":"ok","value":4}' },
    ]);
  });
});

describe('openai planner: endpoint failures, classified at the activity', () => {
  it('429 with Retry-After: 3 → transient/rate_limited, retryable, nextRetryDelay 3000 ms, one request (maxRetries 0)', async () => {
    server.enqueue({ kind: 'error', status: 429, headers: { 'retry-after': '3' } });
    const failure = await failureOf(planNextStep(input()));
    expect(failure.type).toBe('transient');
    expect(failure.nonRetryable).toBe(false);
    expect(failure.nextRetryDelay).toBe(3000);
    expect(failure.details?.[0]).toMatchObject({
      tool: 'planner',
      class: 'transient',
      reason: 'rate_limited',
      retryable: true,
      retryAfterMs: 3000,
      status: 429,
    });
    expect(failure.stack).toBe('');
    expect(server.requests).toHaveLength(1);
  });

  it('500 → transient, retryable, with the backoff’s first delay (500 ms)', async () => {
    server.enqueue({ kind: 'error', status: 500 });
    const failure = await failureOf(planNextStep(input()));
    expect(failure.type).toBe('transient');
    expect(failure.nonRetryable).toBe(false);
    expect(failure.nextRetryDelay).toBe(500);
    expect(server.requests).toHaveLength(1);
  });

  it('401 whose body echoes the key → authentication, non-retryable; the key is in no message or detail', async () => {
    server.enqueue({
      kind: 'error',
      status: 401,
      body: {
        error: {
          message: `Incorrect API key provided: ${API_KEY}.`,
          type: 'invalid_request_error',
          code: 'invalid_api_key',
        },
      },
    });
    const failure = await failureOf(planNextStep(input()));
    // The body's code names the type (docs/DESIGN.md, "The failure record"); details[0].class is authentication.
    expect(failure.type).toBe('InvalidApiKeyError');
    expect(failure.nonRetryable).toBe(true);
    expect(JSON.stringify([failure.message, failure.details, failure.stack])).not.toContain(API_KEY);
    expect(JSON.stringify([failure.message, failure.details])).not.toContain('Zx9Qw7');
  });

  it('403 → authorization, non-retryable', async () => {
    server.enqueue({ kind: 'error', status: 403 });
    const failure = await failureOf(planNextStep(input()));
    expect(failure.type).toBe('authorization');
    expect(failure.nonRetryable).toBe(true);
  });

  it('no answer within timeoutMs → transient/timeout, retryable, one request', async () => {
    // 1 s, not less: the request must reach the server before the client gives up, even on a loaded machine.
    server.enqueue({ ...text('late'), delayMs: 30_000 });
    const planner = createOpenAIPlanner({
      baseURL: server.baseURL,
      apiKey: API_KEY,
      model: MODEL,
      timeoutMs: 1_000,
      env: {},
    });
    const { planNextStep: plan } = createPlannerActivities(planner, { random: () => 0 });
    const failure = await failureOf(env.run(plan, input()));
    expect(failure.type).toBe('transient');
    expect(failure.nonRetryable).toBe(false);
    expect(failure.details?.[0]).toMatchObject({ class: 'transient', reason: 'timeout', retryable: true });
    expect(server.requests).toHaveLength(1);
  });

  it('a cancelled activity aborts the model request and ends as cancelled, not as a classified failure', async () => {
    // The answer is due 2 s later on jest's fake clock, which the test never advances: the run can only end by the
    // abort (a request waited for never ends). Sockets and microtasks stay real.
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask', 'hrtime', 'performance'] });
    try {
      server.enqueue({ ...text('late'), delayMs: 2_000 });
      const run = planNextStep(input()).then(
        () => undefined,
        (e: unknown) => e,
      );
      while (server.requests.length === 0) await new Promise((r) => setImmediate(r)); // the request is in
      env.cancel();
      const err = await run;
      expect(err).toBeInstanceOf(CancelledFailure);
      expect(err).not.toBeInstanceOf(ApplicationFailure);
    } finally {
      jest.useRealTimers();
    }
  });

  it('a refused connection → transient/network, retryable', async () => {
    const url = server.baseURL;
    await server.close();
    const planner = createOpenAIPlanner({ baseURL: url, apiKey: API_KEY, model: MODEL, env: {} });
    const { planNextStep: plan } = createPlannerActivities(planner, { random: () => 0 });
    const failure = await failureOf(env.run(plan, input()));
    expect(failure.type).toBe('transient');
    expect(failure.nonRetryable).toBe(false);
    expect(failure.details?.[0]).toMatchObject({ class: 'transient', reason: 'network', retryable: true });
    expect(JSON.stringify([failure.message, failure.details])).not.toContain(API_KEY);
    server = await startFakeOpenAIServer(); // for afterEach
  });
});

describe('openai planner: configuration', () => {
  const build = (env: Record<string, string | undefined>): Planner => createOpenAIPlanner({ env });

  it('reads OPENAI_BASE_URL, OPENAI_API_KEY and OPENAI_MODEL from the environment', async () => {
    server.enqueue(text('no'));
    const planner = build({ OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: API_KEY, OPENAI_MODEL: 'env-model' });
    await expect(planner.plan(input())).resolves.toEqual({ kind: 'stop', reason: 'no' });
    expect(lastBody().model).toBe('env-model');
  });

  it.each([
    {
      missing: 'OPENAI_BASE_URL',
      env: { OPENAI_API_KEY: API_KEY, OPENAI_MODEL: 'm' },
      code: 'missing_base_url',
      message: 'OPENAI_BASE_URL is not set: pass options.baseURL or set OPENAI_BASE_URL',
    },
    {
      missing: 'OPENAI_API_KEY',
      env: { OPENAI_BASE_URL: 'http://127.0.0.1:1/v1', OPENAI_MODEL: 'm' },
      code: 'missing_api_key',
      message: 'OPENAI_API_KEY is not set: pass options.apiKey or set OPENAI_API_KEY',
    },
    {
      missing: 'OPENAI_MODEL',
      env: { OPENAI_BASE_URL: 'http://127.0.0.1:1/v1', OPENAI_API_KEY: API_KEY },
      code: 'missing_model',
      message: 'OPENAI_MODEL is not set: pass options.model or set OPENAI_MODEL',
    },
  ])('config without $missing → PlannerConfigError $code naming the variable', ({ env, code, message }) => {
    let err: unknown;
    try {
      build(env);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PlannerConfigError);
    expect(err).toMatchObject({ code, message });
  });

  it('a base URL that is not http(s) → PlannerConfigError invalid_option, without echoing the URL or the key', () => {
    expect(() =>
      build({ OPENAI_BASE_URL: `ftp://user:${API_KEY}@x`, OPENAI_API_KEY: API_KEY, OPENAI_MODEL: 'm' }),
    ).toThrow(new PlannerConfigError('invalid_option', 'baseURL (OPENAI_BASE_URL) must be an http(s) URL'));
  });

  it('a blank OPENAI_API_KEY counts as missing', () => {
    expect(() => build({ OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: '  ', OPENAI_MODEL: 'm' })).toThrow(
      'OPENAI_API_KEY is not set: pass options.apiKey or set OPENAI_API_KEY',
    );
  });
});
