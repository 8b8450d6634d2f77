/**
 * agentWorkflow driven by the OpenAI-compatible planner (activities/planners/openai.ts, the official `openai`
 * client configured by environment) against a loopback chat-completions server that speaks the real wire format
 * (examples/fake-openai-server.ts), end to end on the real dev server. Tools run on loopback services (the SQLite
 * calendar, the scripted service). Every number comes from the fake model server's recorded requests, the
 * services' counts and rows, the AgentResult or the history.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { z } from 'zod';
import { defineTool, type AnyTool } from '../../activities/define-tool';
import { createOpenAIPlanner, DEFAULT_SYSTEM_PROMPT } from '../../activities/planners/openai';
import { createPlannerActivities, type Planner } from '../../activities/planners/planner';
import { startCalendarService, WORKING_SLOTS, type CalendarService } from '../../examples/calendar-service';
import { calendarTools } from '../../examples/calendar-tools';
import {
  startFakeOpenAIServer,
  text,
  toolCalls,
  type FakeOpenAIServer,
  type FakeReply,
} from '../../examples/fake-openai-server';
import { startScriptedService, type ScriptedService } from '../../examples/scripted-service';
import { ACTIONS } from '../../recovery/actions';
import type { AgentResult } from '../../workflows/agent';
import { agentStateQuery, userMessageSignal } from '../../workflows/definitions';
import { testEnv, uniqueTaskQueue, writeKey } from '../setup/env';
import { eventTypes, harness, type Harness } from './harness';

/** A distinctive key: any trace of it outside the `authorization` header is a leak. */
const API_KEY = 'sk-agent-e2e-Qm4Zr8Tx2Vb6Np0Ls3Hd7Kw';
const MODEL = 'fake-model-agent-1';
const DAY = '2026-12-01';

let env: TestWorkflowEnvironment;
let calendar: CalendarService;
let service: ScriptedService;
let server: FakeOpenAIServer;

beforeAll(async () => {
  env = await testEnv();
  calendar = await startCalendarService();
  service = await startScriptedService({});
});
afterAll(async () => {
  await calendar?.close();
  await service?.close();
  await env?.teardown();
});
beforeEach(async () => {
  calendar.reset();
  service.reset({});
  server = await startFakeOpenAIServer();
});
afterEach(() => server.close());

/** The chat-completions request body as the fake server recorded it. */
interface ChatBody {
  model: string;
  messages: ChatMessage[];
  tools: { type: string; function: { name: string; description: string; parameters: Record<string, unknown> } }[];
  tool_choice?: unknown;
}
type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | {
      role: 'assistant';
      content: string | null;
      tool_calls: { id: string; type: string; function: { name: string; arguments: string } }[];
    }
  | { role: 'tool'; tool_call_id: string; content: string };

const bodies = (): ChatBody[] => server.requests.map((r) => r.body as ChatBody);

/** The parsed content of the `role: 'tool'` message answering `callId` in `body` (fails the test if absent). */
function toolAnswer(body: ChatBody, callId: string): Record<string, unknown> {
  const message = body.messages.find((m) => m.role === 'tool' && m.tool_call_id === callId);
  if (!message || message.role !== 'tool') throw new Error(`no tool message for ${callId} in the request`);
  return JSON.parse(message.content) as Record<string, unknown>;
}

const calendarToolsOf = () => calendarTools(calendar.url).all;

/**
 * Runs `agentWorkflow` with the OpenAI planner configured by environment against the fake server, which answers
 * `replies` in order. `during` runs while the workflow runs (signals, queries); `holdFirstPlan` keeps the first
 * planner step from calling the model until it resolves (`planning` resolves when that step is in). Jitter is off
 * (`random: () => 0`), so a retry delay is exact. Returns the result, the workflow id and the harness.
 */
async function runAgent(
  goal: string,
  replies: FakeReply[],
  opts: {
    tools?: AnyTool[];
    during?: (workflowId: string) => Promise<void>;
    holdFirstPlan?: { until: Promise<void>; planning: () => void };
  } = {},
): Promise<{ result: AgentResult; workflowId: string; h: Harness }> {
  server.enqueue(...replies);
  const openai = createOpenAIPlanner({
    env: { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: API_KEY, OPENAI_MODEL: MODEL },
  });
  let plans = 0;
  const held: Planner = {
    plan: async (input, o) => {
      if (plans++ === 0 && opts.holdFirstPlan) {
        opts.holdFirstPlan.planning();
        await opts.holdFirstPlan.until;
      }
      return openai.plan(input, o);
    },
  };
  const h = await harness(env, opts.tools ?? calendarToolsOf(), {
    activities: createPlannerActivities(held, { random: () => 0 }),
  });
  const workflowId = uniqueTaskQueue('agent-openai');
  const result = await h.run(async () => {
    const handle = await env.client.workflow.start('agentWorkflow', {
      taskQueue: h.taskQueue,
      workflowId,
      args: [goal, { ...h.plugin.workflowDefaults(), searchAttributes: false }],
    });
    if (opts.during) await opts.during(workflowId);
    return (await handle.result()) as AgentResult;
  });
  return { result, workflowId, h };
}

/** The activity types the history scheduled, in order. */
async function scheduledActivities(h: Harness, workflowId: string): Promise<string[]> {
  return (await h.history(workflowId))
    .map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name)
    .filter((n): n is string => typeof n === 'string');
}

/** The calendar tools' input JSON Schemas, as zod 4 writes them (without `$schema`). */
const LIST_FREE_SLOTS_PARAMETERS = {
  type: 'object',
  properties: {
    day: {
      type: 'string',
      format: 'date',
      pattern:
        '^(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))$',
      description: 'the day, YYYY-MM-DD',
    },
  },
  required: ['day'],
  additionalProperties: false,
};

const BOOK_CALENDAR_SLOT_PARAMETERS = {
  type: 'object',
  properties: {
    day: LIST_FREE_SLOTS_PARAMETERS.properties.day,
    slot: { type: 'string', pattern: '^\\d{2}:\\d{2}$', description: 'a start time HH:MM from list_free_slots' },
    customerId: { type: 'string', pattern: '^cus_' },
  },
  required: ['day', 'slot', 'customerId'],
  additionalProperties: false,
};
const JSON_SCHEMA_2020 = 'https://json-schema.org/draft/2020-12/schema';

const BOOK_GOAL = `Book a one-hour call with cus_7 on ${DAY} at 10:00 or later`;

describe('agentWorkflow × OpenAI planner (fake chat-completions server, real dev server)', () => {
  test('happy path through a 409: list → book (slot stolen) → router feedback in the next request → book another → submit', async () => {
    calendar.takeAfterListing(DAY, '10:00', 'cus_walkin');
    const submitted = { bookingId: 'bk_2', day: DAY, slot: '11:00' };
    const { result, workflowId } = await runAgent(BOOK_GOAL, [
      toolCalls({ id: 'call_list', name: 'list_free_slots', arguments: { day: DAY } }),
      toolCalls({
        id: 'call_book_10',
        name: 'book_calendar_slot',
        arguments: { day: DAY, slot: '10:00', customerId: 'cus_7' },
      }),
      toolCalls({
        id: 'call_book_11',
        name: 'book_calendar_slot',
        arguments: { day: DAY, slot: '11:00', customerId: 'cus_7' },
      }),
      toolCalls({ id: 'call_submit', name: 'submit', arguments: { result: submitted } }),
    ]);

    expect(result.status).toBe('submitted');
    expect(result.result).toEqual(submitted);
    expect(result.turns).toBe(4);
    expect(server.requests).toHaveLength(4);
    expect(server.pending()).toBe(0);
    const [first, second, third, fourth] = bodies() as [ChatBody, ChatBody, ChatBody, ChatBody];

    // Request 1: the goal, and each capability as a function tool with its zod-derived JSON Schema, plus submit.
    expect(first.model).toBe(MODEL);
    expect(first.tool_choice).toBe('auto');
    expect(first.messages).toEqual([
      { role: 'system', content: DEFAULT_SYSTEM_PROMPT },
      { role: 'user', content: `Goal: ${BOOK_GOAL}` },
    ]);
    expect(first.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'book_calendar_slot',
          description: 'Books a free one-hour calendar slot for a customer call.',
          parameters: BOOK_CALENDAR_SLOT_PARAMETERS,
        },
      },
      {
        type: 'function',
        function: {
          name: 'list_free_slots',
          description: 'Lists the free one-hour slots of a day in the calendar.',
          parameters: LIST_FREE_SLOTS_PARAMETERS,
        },
      },
      {
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
      },
    ]);
    // The parameters are exactly what zod 4 makes of the tools' input schemas.
    const { $schema: _s, ...fromZod } = z.toJSONSchema(
      z.object({ day: z.iso.date().describe('the day, YYYY-MM-DD') }).strict(),
      { io: 'input' },
    );
    expect(first.tools[1]!.function.parameters).toEqual(fromZod);

    // Request 2: the listing came back as data, all 8 slots free (the slot is taken right after the answer).
    expect(second.messages.slice(2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_list', type: 'function', function: { name: 'list_free_slots', arguments: `{"day":"${DAY}"}` } },
        ],
      },
      {
        role: 'tool',
        tool_call_id: 'call_list',
        content: JSON.stringify({ status: 'ok', value: { day: DAY, free: [...WORKING_SLOTS] } }),
      },
    ]);

    // Request 3: the 409 reached the model as the router's feedback in the tool message, nothing else.
    expect(third.messages).toHaveLength(6);
    expect(third.messages[4]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'call_book_10',
          type: 'function',
          function: {
            name: 'book_calendar_slot',
            arguments: `{"day":"${DAY}","slot":"10:00","customerId":"cus_7"}`,
          },
        },
      ],
    });
    const stillFree = WORKING_SLOTS.filter((s) => s !== '10:00');
    expect(toolAnswer(third, 'call_book_10')).toEqual({
      status: 'failed',
      tool: 'book_calendar_slot',
      errorClass: 'semantic_rejection',
      reason: 'conflict',
      action: 'replan',
      message: 'book_calendar_slot: HTTP 409, the call conflicts with the current state of the resource.',
      serverSaid: 'slot_taken: slot 10:00 on 2026-12-01 is taken',
      nextStep: ACTIONS.replan.nextStep,
      observedState: { code: 'slot_taken', message: `slot 10:00 on ${DAY} is taken`, free: stillFree },
    });

    // Request 4: our booking came back as data.
    expect(toolAnswer(fourth, 'call_book_11')).toEqual({
      status: 'ok',
      value: { bookingId: 'bk_2', day: DAY, slot: '11:00', customerId: 'cus_7' },
    });
    expect(fourth.messages).toHaveLength(8);

    // The calendar: exactly the stolen slot and ours; one listing, two booking attempts.
    const opKey = await writeKey(env.client, workflowId, 'book_calendar_slot#0~2');
    expect(calendar.bookings().map(({ createdAt: _c, ...row }) => row)).toEqual([
      { bookingId: 'bk_1', day: DAY, slot: '10:00', customerId: 'cus_walkin', opKey: null },
      {
        bookingId: 'bk_2',
        day: DAY,
        slot: '11:00',
        customerId: 'cus_7',
        opKey,
      },
    ]);
    expect(calendar.hits('GET /calendar/slots')).toBe(1);
    expect(calendar.hits('POST /calendar/bookings')).toBe(2);
    expect(result.records.map((r) => [r.tool, r.class ?? null, r.action ?? null, r.terminal])).toEqual([
      ['list_free_slots', null, null, 'succeeded'],
      ['book_calendar_slot', 'semantic_rejection', 'replan', 'fed_back'],
      ['book_calendar_slot', null, null, 'succeeded'],
    ]);
  });

  test('hallucinated tool name: capability_missing feedback with the permitted names, nothing dispatched; named again → escalated', async () => {
    const { result, workflowId, h } = await runAgent(BOOK_GOAL, [
      toolCalls({ id: 'call_w1', name: 'get_weather', arguments: { city: 'Paris' } }),
      toolCalls({ id: 'call_w2', name: 'get_weather', arguments: { city: 'Paris' } }),
    ]);

    expect(server.requests).toHaveLength(2);
    const second = bodies()[1]!;
    expect(second.messages.slice(2, 3)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_w1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        ],
      },
    ]);
    const feedback = toolAnswer(second, 'call_w1');
    expect(feedback).toEqual({
      status: 'failed',
      tool: 'get_weather',
      errorClass: 'capability_missing',
      reason: 'unknown_tool',
      action: 'replan',
      message: 'There is no tool named "get_weather".',
      nextStep: ACTIONS.replan.nextStep,
      capabilities: [
        {
          name: 'book_calendar_slot',
          description: 'Books a free one-hour calendar slot for a customer call.',
          inputSchema: { $schema: JSON_SCHEMA_2020, ...BOOK_CALENDAR_SLOT_PARAMETERS },
        },
        {
          name: 'list_free_slots',
          description: 'Lists the free one-hour slots of a day in the calendar.',
          inputSchema: { $schema: JSON_SCHEMA_2020, ...LIST_FREE_SLOTS_PARAMETERS },
        },
      ],
    });

    expect(result.status).toBe('escalated');
    expect(result.reason).toBe(
      'There is no tool named "get_weather". 2 turns in a row named a tool this run cannot use, so the run stops here.',
    );
    expect(result.endedBy).toEqual({
      tool: 'get_weather',
      callId: 'call_w2',
      class: 'capability_missing',
      action: 'escalate',
      exhausted: 'consecutive_unknown_tool_turns',
    });
    expect(result.turns).toBe(2);
    // Nothing dispatched for it: no tool activity in the history, no request to the calendar.
    expect(result.records.map((r) => [r.tool, r.activities, r.terminal])).toEqual([
      ['get_weather', 0, 'fed_back'],
      ['get_weather', 0, 'escalated'],
    ]);
    expect(await scheduledActivities(h, workflowId)).toEqual(['planNextStep', 'planNextStep']);
    expect(calendar.hits('GET /calendar/slots') + calendar.hits('POST /calendar/bookings')).toBe(0);
  });

  test('malformed tool-call arguments (not JSON): invalid_arguments → repair feedback the model sees; fixed → submitted; the calendar saw only the valid call', async () => {
    const broken = `{"day": "${DAY}"`;
    const { result } = await runAgent(`List the free slots on ${DAY}`, [
      toolCalls({ id: 'call_bad', name: 'list_free_slots', arguments: broken }),
      toolCalls({ id: 'call_good', name: 'list_free_slots', arguments: { day: DAY } }),
      toolCalls({ id: 'call_submit', name: 'submit', arguments: { result: { free: WORKING_SLOTS } } }),
    ]);

    expect(server.requests).toHaveLength(3);
    const second = bodies()[1]!;
    // The model sees what it sent, verbatim, and the router's repair feedback.
    expect(second.messages[2]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_bad', type: 'function', function: { name: 'list_free_slots', arguments: broken } }],
    });
    const feedback = toolAnswer(second, 'call_bad');
    expect(feedback).toEqual({
      status: 'failed',
      tool: 'list_free_slots',
      errorClass: 'invalid_arguments',
      reason: 'schema',
      action: 'repair',
      message: `list_free_slots: 1 invalid argument; fix it and call again: (arguments) expected object, received ${JSON.stringify(broken)}.`,
      nextStep: ACTIONS.repair.nextStep,
      issues: [
        {
          path: [],
          expected: 'object',
          received: JSON.stringify(broken),
          suggestion: 'change (arguments) to an object',
        },
      ],
    });
    expect(toolAnswer(bodies()[2]!, 'call_good')).toEqual({
      status: 'ok',
      value: { day: DAY, free: [...WORKING_SLOTS] },
    });

    expect(result.status).toBe('submitted');
    expect(result.result).toEqual({ free: [...WORKING_SLOTS] });
    expect(calendar.hits('GET /calendar/slots')).toBe(1);
    expect(result.records.map((r) => [r.tool, r.class ?? null, r.action ?? null, r.terminal])).toEqual([
      ['list_free_slots', 'invalid_arguments', 'repair', 'fed_back'],
      ['list_free_slots', null, null, 'succeeded'],
    ]);
  });

  test('a submit without "result" is shown to the model as "Your previous answer could not be used: …"; a valid submit then ends it submitted', async () => {
    const { result } = await runAgent('Say hello', [
      toolCalls({ id: 'call_s1', name: 'submit', arguments: { answer: 42 } }),
      toolCalls({ id: 'call_s2', name: 'submit', arguments: { result: { greeting: 'hello' } } }),
    ]);
    expect(server.requests).toHaveLength(2);
    expect(bodies()[1]!.messages).toEqual([
      { role: 'system', content: DEFAULT_SYSTEM_PROMPT },
      { role: 'user', content: 'Goal: Say hello' },
      {
        role: 'user',
        content:
          'Your previous answer could not be used: The planner\'s answer is not a valid decision: the "submit" call has no "result". Received: {"answer":42}',
      },
    ]);
    expect(result.status).toBe('submitted');
    expect(result.result).toEqual({ greeting: 'hello' });
    expect(result.turns).toBe(2);
  });

  test('three unusable answers in a row (maxInvalidDecisions 2) → stopped, each one shown to the model', async () => {
    const { result } = await runAgent('Say hello', [
      toolCalls({ name: 'submit', arguments: { answer: 42 } }),
      toolCalls({ name: 'submit', arguments: '{"result": ' }),
      { kind: 'raw', body: { id: 'chatcmpl-x', object: 'chat.completion', choices: [] } },
    ]);
    expect(server.requests).toHaveLength(3); // non-retryable: each unusable answer cost one request
    expect(result.status).toBe('stopped');
    expect(result.result).toBeUndefined();
    expect(result.turns).toBe(3);
    expect(result.reason).toBe(
      'The planner\'s answers could not be used 3 times in a row: The planner\'s answer is not a valid decision: the model returned no choices. Received: {"id":"chatcmpl-x","object":"chat.completion","choices":[]}',
    );
    expect(bodies()[2]!.messages.slice(2)).toEqual([
      {
        role: 'user',
        content:
          'Your previous answer could not be used: The planner\'s answer is not a valid decision: the "submit" call has no "result". Received: {"answer":42}',
      },
      {
        role: 'user',
        content:
          'Your previous answer could not be used: The planner\'s answer is not a valid decision: the "submit" call\'s arguments are not JSON. Received: {"result":',
      },
    ]);
  });

  test('a plain-text answer without a tool call → no_submission with the text as reason, never submitted', async () => {
    const said = 'I cannot book this: the calendar has nothing after 10:00 that day.';
    const { result } = await runAgent(BOOK_GOAL, [
      toolCalls({ id: 'call_list', name: 'list_free_slots', arguments: { day: DAY } }),
      text(said),
    ]);
    expect(server.requests).toHaveLength(2);
    expect(result.status).toBe('no_submission');
    expect(result.status).not.toBe('submitted');
    expect(result.result).toBeUndefined();
    expect(result.reason).toBe(`The planner stopped without submitting a result: ${said}`);
    expect(result.turns).toBe(2);
    expect(calendar.hits('POST /calendar/bookings')).toBe(0);
  });

  test('the model endpoint answers 429 Retry-After: 1 once: Temporal retries the planner activity exactly 1 s later, the run goes on', async () => {
    const { result, workflowId, h } = await runAgent('Say hello', [
      { kind: 'error', status: 429, headers: { 'retry-after': '1' } },
      toolCalls({ name: 'submit', arguments: { result: 'hello' } }),
    ]);
    expect(result.status).toBe('submitted');
    expect(result.result).toBe('hello');
    expect(result.turns).toBe(1);
    // Two requests, one per activity attempt (the client's own retries are off), the second after Retry-After.
    expect(server.requests).toHaveLength(2);
    expect(bodies()[1]).toEqual(bodies()[0]);
    // One planner activity, started on its 2nd attempt after a transient failure: the retry was Temporal's.
    const history = await h.history(workflowId);
    expect(await scheduledActivities(h, workflowId)).toEqual(['planNextStep']);
    const started = history.find((e) => e.activityTaskStartedEventAttributes)!.activityTaskStartedEventAttributes!;
    expect(started.attempt).toBe(2);
    expect(started.lastFailure?.applicationFailureInfo?.type).toBe('transient');
    // As scheduled: the failed attempt asked Temporal for exactly Retry-After (no jitter here), 1 s.
    const delay = started.lastFailure?.applicationFailureInfo?.nextRetryDelay;
    expect([Number(delay?.seconds), delay?.nanos ?? 0]).toEqual([1, 0]);
    expect(JSON.stringify(started.lastFailure)).not.toContain(API_KEY);
    expect(eventTypes(history).filter((t) => t === 'ACTIVITY_TASK_FAILED')).toHaveLength(0);
  });

  test('secrets never reach the model: no tool host:port, API key, tool token, diagnosticRef or stack frame in any request body; the key only as the authorization header', async () => {
    const toolToken = 'tok-e2e-7f3c9a1b5d2e8f4a6c0b';
    const toolHost = new URL(service.url).host;
    const calendarHost = new URL(calendar.url).host;
    const stack = `Error: conflict\n    at handler (/srv/orders/server.ts:42:7)\n    at process (node:internal/process:1:1)`;
    service.reset({
      'GET /orders': [
        {
          status: 409,
          body: {
            code: 'order_locked',
            message: `order O-1 is locked; retry at ${service.url}/orders?token=${toolToken} with Authorization: Bearer ${toolToken}`,
            lockedBy: `worker at ${toolHost}`,
            detail: stack,
            authorization: `Bearer ${toolToken}`,
          },
        },
        { status: 200, body: { id: 'O-1', state: 'open' } },
      ],
    });
    const orderTool = defineTool({
      name: 'get_order',
      description: 'Reads an order.',
      input: z.object({ id: z.string().min(1) }).strict(),
      output: z.object({ id: z.string(), state: z.string() }),
      effect: 'read',
      async execute(args, ctx) {
        return (
          await ctx.http.request({
            url: `${service.url}/orders?id=${encodeURIComponent(args.id)}`,
            headers: { authorization: `Bearer ${toolToken}` },
          })
        ).body as never;
      },
    });
    const { result, workflowId } = await runAgent(
      'Read order O-1',
      [
        toolCalls({ id: 'call_o1', name: 'get_order', arguments: { id: 'O-1' } }),
        toolCalls({ id: 'call_o2', name: 'get_order', arguments: { id: 'O-1 ' } }),
        toolCalls({ id: 'call_s', name: 'submit', arguments: { result: { id: 'O-1', state: 'open' } } }),
      ],
      { tools: [...calendarToolsOf(), orderTool] },
    );
    expect(result.status).toBe('submitted');
    expect(server.requests).toHaveLength(3);
    expect(service.hits('GET /orders')).toBe(2);
    // The failure did reach the model, as feedback (so the checks below are not vacuous).
    const feedback = toolAnswer(bodies()[1]!, 'call_o1');
    expect(feedback).toMatchObject({
      status: 'failed',
      tool: 'get_order',
      errorClass: 'semantic_rejection',
      action: 'replan',
    });
    // Redacted: the URL, the header value, the host and the stack are placeholders; the `authorization` key is dropped.
    expect(feedback.observedState).toEqual({
      code: 'order_locked',
      message: 'order O-1 is locked; retry at [url] with Authorization: [redacted]',
      lockedBy: 'worker at [ip]',
      detail: 'Error: conflict\n[stack]',
    });

    const all = JSON.stringify(bodies());
    for (const secret of [
      API_KEY,
      toolToken,
      toolHost,
      calendarHost,
      service.url,
      'diagnosticRef',
      workflowId,
      '    at ',
      'server.ts:42',
      'node:internal',
    ]) {
      expect({ secret, found: all.includes(secret) }).toEqual({ secret, found: false });
    }
    // The key travels only as the bearer token, in every request.
    for (const req of server.requests) {
      expect(req.headers.authorization).toBe(`Bearer ${API_KEY}`);
      const elsewhere = Object.entries(req.headers).filter(
        ([name, value]) => name !== 'authorization' && JSON.stringify(value ?? '').includes(API_KEY),
      );
      expect(elsewhere).toEqual([]);
      expect(req.path).not.toContain(API_KEY);
    }
  });

  test('a user message sent by signal during a turn reaches the next request as role "user", after that turn’s tool messages', async () => {
    const note = 'Mornings only, please.';
    // Turn 1's planner step is held until the signal is in: the signal arrives while turn 1 is still running by
    // construction, not by a 1.5 s delay racing the machine's load.
    let release: () => void = () => undefined;
    const until = new Promise<void>((r) => (release = r));
    let planning: () => void = () => undefined;
    const inPlanner = new Promise<void>((r) => (planning = r));
    const { result } = await runAgent(
      BOOK_GOAL,
      [
        toolCalls({ id: 'call_list', name: 'list_free_slots', arguments: { day: DAY } }),
        toolCalls({ id: 'call_s', name: 'submit', arguments: { result: 'no booking made' } }),
      ],
      {
        holdFirstPlan: { until, planning },
        during: async (workflowId) => {
          const handle = env.client.workflow.getHandle(workflowId);
          await inPlanner;
          expect(await handle.query(agentStateQuery)).toMatchObject({ phase: 'planning', turn: 1 });
          await handle.signal(userMessageSignal, { text: note, by: 'ada@example.test' });
          expect((await handle.query(agentStateQuery)).pendingUserMessages).toBe(1);
          release();
        },
      },
    );
    expect(result.status).toBe('submitted');
    expect(server.requests).toHaveLength(2);
    expect(JSON.stringify(bodies()[0])).not.toContain(note);
    expect(bodies()[1]!.messages.slice(2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_list', type: 'function', function: { name: 'list_free_slots', arguments: `{"day":"${DAY}"}` } },
        ],
      },
      {
        role: 'tool',
        tool_call_id: 'call_list',
        content: JSON.stringify({ status: 'ok', value: { day: DAY, free: [...WORKING_SLOTS] } }),
      },
      { role: 'user', content: note },
    ]);
  });
});
