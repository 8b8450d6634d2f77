/**
 * Field scenarios of tool failures as workflow tests on real parts: the jest run's Temporal dev server, the
 * plugin's worker, and real loopback HTTP services whose own request logs give every count and gap.
 * One `describe` per scenario, naming the docs/DESIGN.md section whose rule it checks; each scenario also gets other
 * inputs of the same kind (a scenario is a sample of its kind). Writes whose outcome is unknown are in
 * cases-reconcile.test.ts.
 */
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { z } from 'zod';
import { CredentialBroker } from '../../activities/credentials';
import { defineTool } from '../../activities/define-tool';
import { oauthRefreshProvider, startOAuthService } from '../../examples/oauth-service';
import { startScriptedService, type ScriptedService } from '../../examples/scripted-service';
import type { ToolPlanInput } from '../../workflows/tool-plan';
import type { ToolOutcome } from '../../workflows/tool-router';
import { testEnv, timeSkippingEnv } from '../setup/env';
import { attemptLog } from './fixtures/attempt-log';
import { describeHarness, eventTypes, FAST_BACKOFF, failedOutcome, harness, scheduledToLastStartMs } from './harness';

let env: TestWorkflowEnvironment;
let service: ScriptedService;
beforeAll(async () => {
  env = await testEnv();
  service = await startScriptedService({});
});
afterAll(async () => {
  await service?.close();
  await env?.teardown();
});

const succeeded = (o: ToolOutcome | undefined) => {
  if (!o || !o.ok) throw new Error(`expected a successful outcome, got ${JSON.stringify(o)}`);
  return o;
};
const scheduled = (types: string[]) => types.filter((t) => t === 'ACTIVITY_TASK_SCHEDULED').length;
const actions = (outcomes: ToolOutcome[]) => outcomes.map((o) => (o.ok ? 'ok' : o.action));

/** Runs a plan that must fail; returns the client's error and the workflow's history event types. */
async function expectRunFailed(h: Awaited<ReturnType<typeof harness>>, plan: Omit<ToolPlanInput, 'catalog'>) {
  return h.run(async () => {
    const id = await h.startPlan(plan);
    const handle = env.client.workflow.getHandle(id);
    const error = await handle.result().then(
      () => undefined,
      (err: unknown) => err,
    );
    const status = (await handle.describe()).status.name;
    return { error, status, types: eventTypes(await h.history(id)) };
  });
}

describe('429 with Retry-After: 3 → 3 attempts, each retry scheduled 3000 ms out (docs/DESIGN.md, "Routes")', () => {
  // On the time-skipping server: the retry delays are asserted as the values the activity scheduled
  // (`nextRetryDelay`, read by an activity interceptor) and the server's clock, never as measured gaps. No jitter,
  // so each delay is exact (jitter's bounds: test/unit/backoff.test.ts).
  let skipping: TestWorkflowEnvironment;
  beforeAll(async () => {
    skipping = await timeSkippingEnv();
  });
  afterAll(async () => {
    await skipping?.teardown();
  });
  const ITEMS = { items: [{ id: 'a1' }] };
  const itemsTool = (wrap = false) =>
    defineTool({
      name: 'list_items',
      description: 'Lists the items of a collection.',
      input: z.object({ collection: z.string() }).strict(),
      output: z.object({ items: z.array(z.object({ id: z.string() })) }),
      effect: 'read',
      timeouts: { startToCloseMs: 5_000 },
      async execute(args, ctx) {
        try {
          return (await ctx.http.request({ url: `${service.url}/items?c=${encodeURIComponent(args.collection)}` }))
            .body as never;
        } catch (err) {
          // An adapter that wraps what it caught: the status and headers must survive in the cause chain.
          if (wrap) throw new Error('Unexpected error occurred', { cause: err });
          throw err;
        }
      },
    });
  const run = async (wrap = false) => {
    const log = attemptLog();
    const h = await harness(skipping, [itemsTool(wrap)], {
      config: { backoff: { ...FAST_BACKOFF, jitterRatio: 0 } },
      interceptors: { activity: [log.factory] },
    });
    const r = await h.run(() => h.runPlan({ calls: [{ tool: 'list_items', args: { collection: 'c1' } }] }));
    return { ...r, log, waitedMs: scheduledToLastStartMs(await h.history(r.workflowId)) };
  };

  test('429, 429 (Retry-After: 3), 200 → 3 HTTP calls, 3 attempts in 1 activity, each retry scheduled exactly 3000 ms out', async () => {
    const rateLimited = { status: 429, headers: { 'retry-after': '3' }, body: { error: 'rate_limited' } };
    service.reset({ 'GET /items': [rateLimited, rateLimited, { status: 200, body: ITEMS }] });
    const r = await run();
    expect(succeeded(r.outcomes[0])).toMatchObject({ value: ITEMS, attempts: 3, activities: 1, empty: false });
    expect(service.hits('GET /items')).toBe(3);
    // Retry-After is the floor, and the header, not a long backoff: exactly 3000 ms each (the exponential part is 50 ms).
    expect(r.log.delaysMs()).toEqual([3_000, 3_000]);
    expect(r.waitedMs).toBeGreaterThanOrEqual(6_000); // the server's clock: both delays elapsed
    expect(r.records).toEqual([
      expect.objectContaining({
        attempts: 3,
        terminal: 'succeeded',
        budgetsLeft: expect.objectContaining({ retries: 1 }),
      }),
    ]);
  });

  test('Retry-After as an HTTP-date 3 s ahead → every retry is scheduled for that date: 3 HTTP calls', async () => {
    const dates: number[] = [];
    const rateLimited = {
      status: 429,
      body: { error: 'rate_limited' },
      headers: (atMs: number) => {
        const date = Math.ceil((atMs + 3_000) / 1_000) * 1_000; // IMF-fixdate has whole seconds
        dates.push(date);
        return { 'retry-after': new Date(date).toUTCString() };
      },
    };
    service.reset({ 'GET /items': [rateLimited, rateLimited, { status: 200, body: ITEMS }] });
    const r = await run();
    expect(succeeded(r.outcomes[0])).toMatchObject({ value: ITEMS, attempts: 3, activities: 1 });
    expect(service.hits('GET /items')).toBe(3);
    expect(dates).toHaveLength(2);
    // The activity reads its clock once per attempt, after the attempt began (startedAtMs) and before its request
    // arrived (the service's atMs): the delay it scheduled is the date minus that reading.
    const failed = r.log.entries.slice(0, 2);
    failed.forEach((e, i) => {
      expect(e.nextRetryDelayMs).toBeGreaterThanOrEqual(dates[i]! - service.received[i]!.atMs);
      expect(e.nextRetryDelayMs).toBeLessThanOrEqual(dates[i]! - e.startedAtMs);
    });
    // On the server's clock (never behind the wall clock), the last attempt started at or after the second date.
    expect(r.log.entries[2]!.scheduledAtMs).toBeGreaterThanOrEqual(dates[1]!);
  });

  test('retry-after-ms: 1500 → 3 HTTP calls, each retry scheduled exactly 1500 ms out', async () => {
    const rateLimited = { status: 429, headers: { 'retry-after-ms': '1500' }, body: { error: 'rate_limited' } };
    service.reset({ 'GET /items': [rateLimited, rateLimited, { status: 200, body: ITEMS }] });
    const r = await run();
    expect(succeeded(r.outcomes[0])).toMatchObject({ attempts: 3, activities: 1 });
    expect(service.hits('GET /items')).toBe(3);
    expect(r.log.delaysMs()).toEqual([1_500, 1_500]);
    expect(r.waitedMs).toBeGreaterThanOrEqual(3_000);
  });

  test('503 with Retry-After: 2 → 3 HTTP calls, each retry scheduled exactly 2000 ms out', async () => {
    const unavailable = { status: 503, headers: { 'retry-after': '2' }, body: { error: 'unavailable' } };
    service.reset({ 'GET /items': [unavailable, unavailable, { status: 200, body: ITEMS }] });
    const r = await run();
    expect(succeeded(r.outcomes[0])).toMatchObject({ attempts: 3, activities: 1 });
    expect(service.hits('GET /items')).toBe(3);
    expect(r.log.delaysMs()).toEqual([2_000, 2_000]);
    expect(r.waitedMs).toBeGreaterThanOrEqual(4_000);
  });

  test('the header survives error wrapping: an adapter rethrowing new Error(…, { cause }) on 429 Retry-After: 2 → the retry scheduled 2000 ms out', async () => {
    service.reset({
      'GET /items': [
        { status: 429, headers: { 'retry-after': '2' }, body: { error: 'rate_limited' } },
        { status: 200, body: ITEMS },
      ],
    });
    const r = await run(true);
    expect(succeeded(r.outcomes[0])).toMatchObject({ attempts: 2, activities: 1 });
    expect(service.hits('GET /items')).toBe(2);
    expect(r.log.delaysMs()).toEqual([2_000]);
    expect(r.waitedMs).toBeGreaterThanOrEqual(2_000);
  });

  test('429 forever (Retry-After: 1) → capped at 4 attempts (1 + 3 retries, the per-call budget), each retry scheduled 1000 ms out, then replan', async () => {
    service.reset({
      'GET /items': [{ status: 429, headers: { 'retry-after': '1' }, body: { error: 'rate_limited' } }],
    });
    const r = await run();
    expect(failedOutcome(r.outcomes[0])).toMatchObject({
      action: 'replan',
      terminal: false,
      attempts: 4,
      activities: 1,
      failure: { class: 'transient', reason: 'rate_limited', retryable: false, status: 429 },
    });
    expect(service.hits('GET /items')).toBe(4);
    // Every failure asks for 1000 ms; the activity's maximumAttempts (1 + the 3-retry budget) ends it after the fourth.
    expect(r.log.delaysMs()).toEqual([1_000, 1_000, 1_000, 1_000]);
    expect(r.waitedMs).toBeGreaterThanOrEqual(3_000);
  });

  test('Retry-After: 120, above the 60 s cap → not waited for in the run: 1 HTTP call, transient retry_after_too_long, replan', async () => {
    service.reset({
      'GET /items': [{ status: 429, headers: { 'retry-after': '120' }, body: { error: 'rate_limited' } }],
    });
    const r = await run();
    const out = failedOutcome(r.outcomes[0]);
    expect(out).toMatchObject({
      action: 'replan',
      terminal: false,
      attempts: 1,
      failure: {
        class: 'transient',
        reason: 'retry_after_too_long',
        retryable: false,
        retryAfterMs: 120_000,
        status: 429,
      },
      feedback: { retryAfterMs: 120_000 },
    });
    expect(service.hits('GET /items')).toBe(1);
  });
});

describe('invalid invoice arguments → structured per-field issues, the identical call blocked, 0 backend calls until fixed (docs/DESIGN.md, "Routes")', () => {
  const invoiceTool = () =>
    defineTool({
      name: 'create_invoice',
      description: 'Creates an invoice for a customer.',
      input: z
        .object({
          customerId: z.string().regex(/^cus_/),
          amountCents: z.number().int().positive(),
          currency: z.enum(['usd', 'eur']),
          dueDate: z.iso.date(),
        })
        .strict(),
      output: z.object({ id: z.string().min(1) }),
      effect: 'write',
      idempotency: { carrier: 'header', name: 'Idempotency-Key', deduplicates: true },
      timeouts: { startToCloseMs: 5_000 },
      async execute(args, ctx) {
        return (await ctx.http.request({ method: 'POST', url: `${service.url}/invoices`, json: args })).body as never;
      },
    });
  const BAD = { customerId: '42', amount: '12.50', currency: 'USD' };
  const GOOD = { customerId: 'cus_42', amountCents: 1250, currency: 'usd', dueDate: '2026-10-01' };
  const invoiceHarness = describeHarness(
    () => env,
    () => [invoiceTool()],
  );

  test('call 1 invalid → 5 field issues, 0 HTTP; call 2 byte-identical → refused, 0 activities, repair budget spent; call 3 fixed → 201 inv_1: 1 HTTP call', async () => {
    service.reset({ 'POST /invoices': [{ status: 201, body: { id: 'inv_1' } }] });
    const h = await invoiceHarness();
    const r = await h.run(() =>
      h.runPlan({
        calls: [
          { tool: 'create_invoice', args: BAD },
          { tool: 'create_invoice', args: { ...BAD }, sameTurn: true },
          { tool: 'create_invoice', args: GOOD, sameTurn: true },
        ],
      }),
    );
    expect(actions(r.outcomes)).toEqual(['repair', 'repair', 'ok']);
    const first = failedOutcome(r.outcomes[0]);
    expect(first).toMatchObject({
      refused: false,
      terminal: false,
      activities: 1,
      attempts: 1,
      failure: { class: 'invalid_arguments', reason: 'schema', phase: 'preflight' },
    });
    expect(first.feedback.message).not.toMatch(/invalid json/i);
    // Every problem, each with path, expected, received and a concrete suggestion (never one generic message).
    expect(first.feedback.issues).toEqual([
      {
        path: ['customerId'],
        expected: 'string matching ^cus_',
        received: '"42"',
        suggestion: 'use a value that starts with cus_',
      },
      {
        path: ['amountCents'],
        expected: 'positive integer',
        received: 'missing',
        suggestion: 'rename amount to amountCents (positive integer)',
      },
      { path: ['currency'], expected: 'one of usd|eur', received: '"USD"', suggestion: "use lowercase 'usd'" },
      {
        path: ['dueDate'],
        expected: 'ISO date',
        received: 'missing',
        suggestion: 'add dueDate (ISO date, YYYY-MM-DD)',
      },
      {
        path: ['amount'],
        expected: 'a known key (customerId|amountCents|currency|dueDate)',
        received: '"12.50"',
        suggestion: 'did you mean amountCents?',
      },
    ]);
    const second = failedOutcome(r.outcomes[1]);
    expect(second).toMatchObject({ refused: true, activities: 0, attempts: 0, terminal: false });
    expect(r.records[1]).toMatchObject({ terminal: 'refused', budgetsLeft: { repairs: 0 } });
    expect(succeeded(r.outcomes[2])).toMatchObject({ value: { id: 'inv_1' }, activities: 1, attempts: 1 });
    expect(service.hits('POST /invoices')).toBe(1);
    expect(JSON.parse(service.received[0]!.body)).toEqual(GOOD);
    expect(scheduled(eventTypes(await h.history(r.workflowId)))).toBe(2);
  });

  test('the budget runs out: the invalid call 3 times → repair, refused, then stop (per_call_repairs): 1 activity, 0 HTTP calls', async () => {
    service.reset({ 'POST /invoices': [{ status: 201, body: { id: 'inv_1' } }] });
    const h = await invoiceHarness();
    const r = await h.run(() =>
      h.runPlan({ calls: [1, 2, 3].map((i) => ({ tool: 'create_invoice', args: BAD, sameTurn: i > 1 })) }),
    );
    expect(actions(r.outcomes)).toEqual(['repair', 'repair', 'stop']);
    expect(failedOutcome(r.outcomes[2])).toMatchObject({
      refused: true,
      terminal: true,
      exhausted: 'per_call_repairs',
      activities: 0,
    });
    expect(service.hits('POST /invoices')).toBe(0);
    expect(scheduled(eventTypes(await h.history(r.workflowId)))).toBe(1);
  });

  test('three different invalid calls in a row also spend the repair budget → the third stops (per_call_repairs): 3 activities, 0 HTTP calls', async () => {
    service.reset({ 'POST /invoices': [{ status: 201, body: { id: 'inv_1' } }] });
    const h = await invoiceHarness();
    const r = await h.run(() =>
      h.runPlan({
        calls: [
          { tool: 'create_invoice', args: BAD },
          { tool: 'create_invoice', args: { ...GOOD, amountCents: -5 }, sameTurn: true },
          { tool: 'create_invoice', args: { ...GOOD, currency: 'gbp' }, sameTurn: true },
        ],
      }),
    );
    expect(actions(r.outcomes)).toEqual(['repair', 'repair', 'stop']);
    expect(failedOutcome(r.outcomes[1]).feedback.issues).toEqual([
      expect.objectContaining({ path: ['amountCents'], received: '-5' }),
    ]);
    expect(failedOutcome(r.outcomes[2])).toMatchObject({
      terminal: true,
      exhausted: 'per_call_repairs',
      activities: 1,
    });
    expect(service.hits('POST /invoices')).toBe(0);
  });

  test('arguments sent as a JSON string (plain text, not an object) → invalid_arguments with an issue at the root, 0 HTTP calls', async () => {
    service.reset({ 'POST /invoices': [{ status: 201, body: { id: 'inv_1' } }] });
    const h = await invoiceHarness();
    const r = await h.run(() => h.runPlan({ calls: [{ tool: 'create_invoice', args: JSON.stringify(GOOD) }] }));
    const out = failedOutcome(r.outcomes[0]);
    expect(out).toMatchObject({ action: 'repair', failure: { class: 'invalid_arguments' } });
    expect(out.feedback.issues).toEqual([
      expect.objectContaining({ path: [], expected: expect.stringContaining('object') }),
    ]);
    expect(service.hits('POST /invoices')).toBe(0);
  });
});

describe('tap with packed coordinates → repair (never success), the fixed call runs once; repeated 3 times → stop and FAILED (docs/DESIGN.md, "Routes")', () => {
  const TAPPED = { ok: true, tapped: [861, 365] };
  const tapTool = () =>
    defineTool({
      name: 'tap',
      description: 'Taps the device screen at (x, y).',
      input: z.object({ x: z.number(), y: z.number() }),
      output: z.object({ ok: z.boolean(), tapped: z.array(z.number()) }),
      effect: 'write',
      timeouts: { startToCloseMs: 5_000 },
      async execute(args, ctx) {
        return (await ctx.http.request({ method: 'POST', url: `${service.url}/tap`, json: args })).body as never;
      },
    });
  const PACKED = { x: '861, 365' };
  const tapHarness = describeHarness(
    () => env,
    () => [tapTool()],
  );

  test('call 1 {"x":"861, 365"} → repair: x wants a number (split into x and y), y missing, 0 device actions; call 2 → 200, 1 device action', async () => {
    service.reset({ 'POST /tap': [{ status: 200, body: TAPPED }] });
    const h = await tapHarness();
    const r = await h.run(() =>
      h.runPlan({
        calls: [
          { tool: 'tap', args: PACKED },
          { tool: 'tap', args: { x: 861, y: 365 }, sameTurn: true },
        ],
      }),
    );
    expect(actions(r.outcomes)).toEqual(['repair', 'ok']);
    const first = failedOutcome(r.outcomes[0]);
    expect(first).toMatchObject({ terminal: false, failure: { class: 'invalid_arguments', phase: 'preflight' } });
    expect(first.feedback.issues).toEqual([
      { path: ['x'], expected: 'number', received: '"861, 365"', suggestion: 'split into x and y: x=861, y=365' },
      { path: ['y'], expected: 'number', received: 'missing', suggestion: 'split into x and y: x=861, y=365' },
    ]);
    expect(succeeded(r.outcomes[1])).toMatchObject({ value: TAPPED, activities: 1, attempts: 1 });
    expect(service.hits('POST /tap')).toBe(1);
    expect(JSON.parse(service.received[0]!.body)).toEqual({ x: 861, y: 365 });
  });

  test('another packing, {"x":861,"y":"365"} → repair on y only, 0 device actions; then the fixed call runs once', async () => {
    service.reset({ 'POST /tap': [{ status: 200, body: TAPPED }] });
    const h = await tapHarness();
    const r = await h.run(() =>
      h.runPlan({
        calls: [
          { tool: 'tap', args: { x: 861, y: '365' } },
          { tool: 'tap', args: { x: 861, y: 365 }, sameTurn: true },
        ],
      }),
    );
    expect(actions(r.outcomes)).toEqual(['repair', 'ok']);
    expect(failedOutcome(r.outcomes[0]).feedback.issues).toEqual([
      { path: ['y'], expected: 'number', received: '"365"', suggestion: 'send 365 as a number, without quotes' },
    ]);
    expect(service.hits('POST /tap')).toBe(1);
  });

  test('the model repeats call 1 three times → repair, refused, stop (per_call_repairs): 0 device actions, the run is not a success', async () => {
    service.reset({ 'POST /tap': [{ status: 200, body: TAPPED }] });
    const h = await tapHarness();
    const r = await h.run(() =>
      h.runPlan({ calls: [1, 2, 3].map((i) => ({ tool: 'tap', args: PACKED, sameTurn: i > 1 })) }),
    );
    expect(actions(r.outcomes)).toEqual(['repair', 'repair', 'stop']);
    expect(r.outcomes.every((o) => !o.ok)).toBe(true);
    expect(failedOutcome(r.outcomes[2])).toMatchObject({
      terminal: true,
      refused: true,
      exhausted: 'per_call_repairs',
      failure: { class: 'invalid_arguments' },
    });
    expect(service.hits('POST /tap')).toBe(0);
  });

  test('with failOnTerminal: the run status is FAILED with a non-retryable ApplicationFailure of type invalid_arguments; 0 device actions', async () => {
    service.reset({ 'POST /tap': [{ status: 200, body: TAPPED }] });
    const h = await tapHarness();
    const { error, status, types } = await expectRunFailed(h, {
      calls: [1, 2, 3].map((i) => ({ tool: 'tap', args: PACKED, sameTurn: i > 1 })),
      failOnTerminal: true,
    });
    expect(status).toBe('FAILED');
    expect(error).toBeInstanceOf(WorkflowFailedError);
    const cause = (error as WorkflowFailedError).cause;
    expect(cause).toBeInstanceOf(ApplicationFailure);
    expect(cause).toMatchObject({ type: 'invalid_arguments', nonRetryable: true });
    expect(types).toContain('WORKFLOW_EXECUTION_FAILED');
    expect(types).not.toContain('WORKFLOW_TASK_FAILED');
    expect(scheduled(types)).toBe(1);
    expect(service.hits('POST /tap')).toBe(0);
  });
});

describe('unknown tool name → replan with the available tools, the run goes on; 2 unknown-tool turns in a row end it (docs/DESIGN.md, "Budgets and escalation")', () => {
  const weatherTool = () =>
    defineTool({
      name: 'get_weather',
      description: 'The weather in a city.',
      input: z.object({ city: z.string() }).strict(),
      output: z.object({ tempC: z.number() }),
      effect: 'read',
      timeouts: { startToCloseMs: 5_000 },
      async execute(args, ctx) {
        return (await ctx.http.request({ url: `${service.url}/weather?city=${encodeURIComponent(args.city)}` }))
          .body as never;
      },
    });
  const docsTool = () =>
    defineTool({
      name: 'search_docs',
      description: 'Searches the documentation.',
      input: z.object({ q: z.string() }).strict(),
      output: z.object({ results: z.array(z.object({ title: z.string() })) }),
      effect: 'read',
      timeouts: { startToCloseMs: 5_000 },
      async execute(args, ctx) {
        return (await ctx.http.request({ url: `${service.url}/docs?q=${encodeURIComponent(args.q)}` })).body as never;
      },
    });
  const toolsHarness = describeHarness(
    () => env,
    () => [weatherTool(), docsTool()],
  );
  const script = () =>
    service.reset({
      'GET /weather': [{ status: 200, body: { tempC: 21 } }],
      'GET /docs': [{ status: 200, body: { results: [{ title: 'Release notes' }] } }],
    });
  const TURNS_1_2 = [
    { tool: 'get_weather', args: { city: 'Paris' } },
    { tool: 'search_docs', args: { q: 'changelog' } },
  ];

  test('turns 1–2 succeed; turn 3 get_date({}) → replan listing get_weather and search_docs, 0 activities; turn 4 search_docs → 200; nothing re-executed', async () => {
    script();
    const h = await toolsHarness();
    const r = await h.run(() =>
      h.runPlan({
        calls: [...TURNS_1_2, { tool: 'get_date', args: {} }, { tool: 'search_docs', args: { q: 'release date' } }],
      }),
    );
    expect(actions(r.outcomes)).toEqual(['ok', 'ok', 'replan', 'ok']);
    const unknown = failedOutcome(r.outcomes[2]);
    expect(unknown).toMatchObject({
      terminal: false,
      activities: 0,
      failure: { class: 'capability_missing', reason: 'unknown_tool' },
    });
    expect(unknown.feedback.capabilities?.map((c) => c.name)).toEqual(['get_weather', 'search_docs']);
    expect(succeeded(r.outcomes[3]).value).toEqual({ results: [{ title: 'Release notes' }] });
    expect(service.hits('GET /weather')).toBe(1);
    expect(service.hits('GET /docs')).toBe(2);
    expect(r.records.map((x) => x.turn)).toEqual([1, 2, 3, 4]);
    expect(scheduled(eventTypes(await h.history(r.workflowId)))).toBe(3);
  });

  test('get_date repeated in turns 3, 4, 5 → replan, then the 2nd unknown-tool turn escalates (consecutive_unknown_tool_turns); turn 5 never runs', async () => {
    script();
    const h = await toolsHarness();
    const r = await h.run(() =>
      h.runPlan({ calls: [...TURNS_1_2, ...[1, 2, 3].map(() => ({ tool: 'get_date', args: {} }))] }),
    );
    expect(actions(r.outcomes)).toEqual(['ok', 'ok', 'replan', 'escalate']);
    expect(failedOutcome(r.outcomes[3])).toMatchObject({
      terminal: true,
      exhausted: 'consecutive_unknown_tool_turns',
      activities: 0,
      failure: { class: 'capability_missing', reason: 'unknown_tool' },
    });
    expect(service.hits('GET /weather')).toBe(1);
    expect(service.hits('GET /docs')).toBe(1);
  });

  test('with failOnTerminal: a clean run failure (ApplicationFailure capability_missing, FAILED, no workflow-task failure); earlier tools ran once', async () => {
    script();
    const h = await toolsHarness();
    const { error, status, types } = await expectRunFailed(h, {
      calls: [...TURNS_1_2, ...[1, 2, 3].map(() => ({ tool: 'get_date', args: {} }))],
      failOnTerminal: true,
    });
    expect(status).toBe('FAILED');
    expect((error as WorkflowFailedError).cause).toMatchObject({ type: 'capability_missing', nonRetryable: true });
    expect(types).not.toContain('WORKFLOW_TASK_FAILED');
    expect(scheduled(types)).toBe(2);
    expect(service.hits('GET /weather')).toBe(1);
    expect(service.hits('GET /docs')).toBe(1);
  });

  test('different unknown names in a row (get_date, then get_time) also end the run on the 2nd turn', async () => {
    script();
    const h = await toolsHarness();
    const r = await h.run(() =>
      h.runPlan({
        calls: [
          ...TURNS_1_2,
          { tool: 'get_date', args: {} },
          { tool: 'get_time', args: { tz: 'UTC' } },
          { tool: 'search_docs', args: { q: 'x' } },
        ],
      }),
    );
    expect(actions(r.outcomes)).toEqual(['ok', 'ok', 'replan', 'escalate']);
    expect(service.hits('GET /docs')).toBe(1);
  });

  test('a call to an available tool between two unknown names resets the count: get_date, search_docs, get_date → replan, ok, replan', async () => {
    script();
    const h = await toolsHarness();
    const r = await h.run(() =>
      h.runPlan({
        calls: [
          { tool: 'get_date', args: {} },
          { tool: 'search_docs', args: { q: 'date' } },
          { tool: 'get_date', args: {} },
        ],
      }),
    );
    expect(actions(r.outcomes)).toEqual(['replan', 'ok', 'replan']);
    expect(r.outcomes.some((o) => !o.ok && o.terminal)).toBe(false);
  });

  test('a tool that exists but is not granted counts the same: 2 turns of it in a row → escalate; nothing dispatched', async () => {
    script();
    const admin = defineTool({
      name: 'purge_cache',
      description: 'Purges the CDN cache.',
      input: z.object({}).strict(),
      output: z.object({ ok: z.boolean() }),
      effect: 'write',
      scope: 'ops:admin',
      async execute() {
        return { ok: true };
      },
    });
    const h = await harness(env, [weatherTool(), docsTool(), admin]);
    const r = await h.run(() => h.runPlan({ calls: [1, 2].map(() => ({ tool: 'purge_cache', args: {} })) }));
    expect(actions(r.outcomes)).toEqual(['replan', 'escalate']);
    expect(failedOutcome(r.outcomes[1]).failure.reason).toBe('not_permitted_tool');
    expect(failedOutcome(r.outcomes[0]).feedback.capabilities?.map((c) => c.name)).toEqual([
      'get_weather',
      'search_docs',
    ]);
  });
});

describe('404 with an empty body is a failure, never ""; no-progress stops repeats: 1–2 HTTP calls, never more (docs/DESIGN.md, "The Change-before-Retry gate")', () => {
  const DOCS_ROUTE = 'GET /openapi/list_docs';
  const listDocsTool = (adapter: 'envelope' | 'text' = 'envelope') =>
    defineTool({
      name: 'list_docs',
      description: 'Lists documents.',
      input: z.object({ limit: z.number().int().positive() }).strict(),
      output: z.object({ docs: z.array(z.object({ id: z.string() })) }),
      effect: 'read',
      timeouts: { startToCloseMs: 5_000 },
      async execute(args, ctx) {
        const url = `${service.url}/openapi/list_docs?limit=${args.limit}`;
        if (adapter === 'text') {
          // A buggy wrapper: returns the response text without checking `ok`.
          return (await (await fetch(url, { signal: ctx.signal })).text()) as never;
        }
        return (await ctx.http.request({ url })).body as never;
      },
    });
  const FIVE = [1, 2, 3, 4, 5].map(() => ({ tool: 'list_docs', args: { limit: 3 } }));

  test('404 with Content-Length: 0, the same call 5 times → 1 HTTP call; semantic_rejection not_found (replan), then refused as no progress: stop', async () => {
    service.reset({ [DOCS_ROUTE]: [{ status: 404 }] });
    const h = await harness(env, [listDocsTool()]);
    const r = await h.run(() => h.runPlan({ calls: FIVE }));
    const first = failedOutcome(r.outcomes[0]);
    expect(first).toMatchObject({
      action: 'replan',
      terminal: false,
      attempts: 1,
      failure: { class: 'semantic_rejection', reason: 'not_found', status: 404, retryable: false },
    });
    expect(first.feedback.message).toMatch(/not found/);
    expect(actions(r.outcomes)).toEqual(['replan', 'stop']);
    expect(failedOutcome(r.outcomes[1])).toMatchObject({
      refused: true,
      terminal: true,
      noProgress: true,
      activities: 0,
    });
    expect(service.hits(DOCS_ROUTE)).toBe(1);
  });

  test('200 with an empty body where {"docs":[...]} is expected → invalid_result (reject), an explicit failure; repeats stop: 1 HTTP call', async () => {
    service.reset({ [DOCS_ROUTE]: [{ status: 200 }] });
    const h = await harness(env, [listDocsTool()]);
    const r = await h.run(() => h.runPlan({ calls: FIVE }));
    expect(failedOutcome(r.outcomes[0])).toMatchObject({
      action: 'reject',
      attempts: 1,
      failure: { class: 'invalid_result', reason: 'empty_result', phase: 'postcheck' },
      feedback: { status: 'failed' },
    });
    expect(actions(r.outcomes)).toEqual(['reject', 'stop']);
    expect(service.hits(DOCS_ROUTE)).toBe(1);
  });

  test('200 {"docs":[]} → a success labelled empty; the 2nd identical result is flagged noProgress and the plan stops: 2 HTTP calls', async () => {
    service.reset({ [DOCS_ROUTE]: [{ status: 200, body: { docs: [] } }] });
    const h = await harness(env, [listDocsTool()]);
    const r = await h.run(() => h.runPlan({ calls: FIVE }));
    expect(r.outcomes).toEqual([
      expect.objectContaining({ ok: true, value: { docs: [] }, empty: true, noProgress: false }),
      expect.objectContaining({ ok: true, value: { docs: [] }, empty: true, noProgress: true }),
    ]);
    expect(service.hits(DOCS_ROUTE)).toBe(2);
  });

  test('a buggy text adapter (404 → "") is still not a success: the output schema rejects it, 1 HTTP call', async () => {
    service.reset({ [DOCS_ROUTE]: [{ status: 404 }] });
    const h = await harness(env, [listDocsTool('text')]);
    const r = await h.run(() => h.runPlan({ calls: FIVE }));
    expect(failedOutcome(r.outcomes[0])).toMatchObject({
      action: 'reject',
      failure: { class: 'invalid_result', reason: 'empty_result' },
    });
    expect(r.outcomes.some((o) => o.ok)).toBe(false);
    expect(service.hits(DOCS_ROUTE)).toBe(1);
  });

  test('changed arguments are progress: limit 3 then limit 5 on a 404 → 2 HTTP calls, both replan', async () => {
    service.reset({ [DOCS_ROUTE]: [{ status: 404 }] });
    const h = await harness(env, [listDocsTool()]);
    const r = await h.run(() =>
      h.runPlan({
        calls: [
          { tool: 'list_docs', args: { limit: 3 } },
          { tool: 'list_docs', args: { limit: 5 } },
        ],
      }),
    );
    expect(actions(r.outcomes)).toEqual(['replan', 'replan']);
    expect(service.hits(DOCS_ROUTE)).toBe(2);
  });
});

describe('OAuth token expires mid-session → one refresh, one replay (docs/DESIGN.md, "Routes"; the base, concurrency and dead-refresh variants are in auth.test.ts)', () => {
  const profileTool = (baseUrl: string) =>
    defineTool({
      name: 'get_profile',
      description: 'The signed-in customer profile.',
      input: z.object({ who: z.string() }),
      output: z.object({ name: z.string(), plan: z.string() }),
      effect: 'read',
      credential: 'crm',
      async execute(_args, ctx) {
        return (await ctx.http.request({ url: `${baseUrl}/profile` })).body as never;
      },
    });
  const slowTool = () =>
    defineTool({
      name: 'slow_report',
      description: 'A report that takes a while.',
      input: z.object({}).strict(),
      output: z.object({ rows: z.number() }),
      effect: 'read',
      async execute(_args, ctx) {
        return (await ctx.http.request({ url: `${service.url}/report` })).body as never;
      },
    });

  test('t=0 get_profile → 200; the token expires while another tool runs; get_profile → 401 → 1 refresh → replay 200', async () => {
    const oauth = await startOAuthService();
    try {
      // The token's lifetime ends while the report is answered: an event, not a race between a TTL and a delay.
      const expireDuringReport = () => (oauth.expireAll(), {});
      service.reset({ 'GET /report': [{ status: 200, body: { rows: 3 }, headers: expireDuringReport }] });
      const broker = new CredentialBroker({
        crm: oauthRefreshProvider(`${oauth.url}/token`, oauth.initialRefreshToken),
      });
      const h = await harness(env, [profileTool(oauth.url), slowTool()], { credentials: broker });
      const r = await h.run(() =>
        h.runPlan({
          calls: [
            { tool: 'get_profile', args: { who: 'me' } },
            { tool: 'slow_report', args: {} },
            { tool: 'get_profile', args: { who: 'me' } },
          ],
        }),
      );
      expect(actions(r.outcomes)).toEqual(['ok', 'ok', 'ok']);
      expect(r.outcomes[0]).toMatchObject({ activities: 1, attempts: 1 });
      expect(r.outcomes[2]).toMatchObject({ value: { name: 'Ada', plan: 'pro' }, activities: 2 });
      expect(oauth.profileCalls).toBe(3);
      expect(oauth.profile401s).toBe(1);
      expect(broker.refreshCount('crm')).toBe(1);
      expect(oauth.refreshes).toBe(2); // the first grant at t=0 and the one refresh
      expect(oauth.refusedRefreshes).toBe(0);
      expect(r.records[2]).toMatchObject({ terminal: 'succeeded', evidence: 'credential_refreshed' });
    } finally {
      await oauth.close();
    }
  });

  test('a 401 without the RFC 6750 error attribute (WWW-Authenticate: Bearer realm="api") on an expired token → also 1 refresh, 1 replay', async () => {
    const oauth = await startOAuthService({ challenge: 'Bearer realm="api"' });
    try {
      const broker = new CredentialBroker({
        crm: oauthRefreshProvider(`${oauth.url}/token`, oauth.initialRefreshToken),
      });
      await broker.current('crm');
      oauth.expireAll();
      const h = await harness(env, [profileTool(oauth.url)], { credentials: broker });
      const r = await h.run(() => h.runPlan({ calls: [{ tool: 'get_profile', args: { who: 'me' } }] }));
      expect(succeeded(r.outcomes[0])).toMatchObject({ value: { name: 'Ada', plan: 'pro' }, activities: 2 });
      expect(oauth.profileCalls).toBe(2);
      expect(oauth.profile401s).toBe(1);
      expect(broker.refreshCount('crm')).toBe(1);
    } finally {
      await oauth.close();
    }
  });

  test('401 again after the refresh → escalate to a human after exactly 1 refresh and 2 dispatches, no loop', async () => {
    const oauth = await startOAuthService();
    try {
      const broker = new CredentialBroker({
        crm: oauthRefreshProvider(`${oauth.url}/token`, oauth.initialRefreshToken),
      });
      await broker.current('crm');
      oauth.expireAll();
      oauth.rejectAllTokens();
      const h = await harness(env, [profileTool(oauth.url)], { credentials: broker });
      const r = await h.run(() =>
        h.runPlan({
          calls: [
            { tool: 'get_profile', args: { who: 'me' } },
            { tool: 'get_profile', args: { who: 'me' } },
          ],
        }),
      );
      expect(actions(r.outcomes)).toEqual(['escalate']);
      expect(failedOutcome(r.outcomes[0])).toMatchObject({
        terminal: true,
        activities: 2,
        failure: { class: 'authentication' },
      });
      expect(oauth.profileCalls).toBe(2);
      expect(broker.refreshCount('crm')).toBe(1);
    } finally {
      await oauth.close();
    }
  });
});

describe('422 insufficient_funds → classified from the structured code: exactly 1 attempt, non-retryable, replan (docs/DESIGN.md, "The failure record")', () => {
  const withdrawTool = (adapter: 'classifier' | 'plain-error' | 'wrapped' = 'classifier') =>
    defineTool({
      name: 'withdraw',
      description: 'Withdraws an amount from an account.',
      input: z.object({ account: z.string(), amount: z.number().int().positive(), referenceId: z.string() }).strict(),
      output: z.object({ transactionId: z.string() }),
      effect: 'write',
      // Replay-safe (the bank deduplicates by key): Temporal WOULD retry a transient failure; only the class stops it.
      idempotency: { carrier: 'header', name: 'Idempotency-Key', deduplicates: true },
      timeouts: { startToCloseMs: 5_000 },
      async execute(args, ctx) {
        try {
          return (await ctx.http.request({ method: 'POST', url: `${service.url}/withdrawals`, json: args }))
            .body as never;
        } catch (err) {
          if (adapter === 'plain-error') throw new Error('Unexpected error occurred'); // variant A: the type is lost
          if (adapter === 'wrapped') throw new Error('withdraw failed', { cause: err });
          throw err;
        }
      },
    });
  const refund = defineTool({
    name: 'refund',
    description: 'Refunds a withdrawal.',
    input: z.object({ referenceId: z.string() }).strict(),
    output: z.object({ ok: z.boolean() }),
    effect: 'write',
    async execute(args, ctx) {
      return (await ctx.http.request({ method: 'POST', url: `${service.url}/refunds`, json: args })).body as never;
    },
  });
  const WITHDRAW = { account: 'acct-1', amount: 1_000_000, referenceId: 'ref-1' };

  /** The activity's last failure as recorded in history: its type, nonRetryable flag and attempt. */
  async function activityFailure(h: Awaited<ReturnType<typeof harness>>, workflowId: string) {
    const events = await h.history(workflowId);
    const failedEvent = events.find((e) => e.activityTaskFailedEventAttributes)?.activityTaskFailedEventAttributes;
    const started = events
      .filter((e) => e.activityTaskStartedEventAttributes)
      .map((e) => e.activityTaskStartedEventAttributes?.attempt);
    const info = failedEvent?.failure?.applicationFailureInfo;
    return { type: info?.type, nonRetryable: info?.nonRetryable, startedAttempts: started };
  }

  const cases: [string, 'classifier' | 'wrapped', number, Record<string, unknown>, Record<string, unknown>][] = [
    [
      '422 {"code":"insufficient_funds"}',
      'classifier',
      422,
      { code: 'insufficient_funds' },
      { reason: 'business_rule' },
    ],
    ['404 {"code":"account_not_found"}', 'classifier', 404, { code: 'account_not_found' }, { reason: 'not_found' }],
    [
      '422 {"code":"daily_limit_exceeded"} (a second business code)',
      'classifier',
      422,
      { code: 'daily_limit_exceeded' },
      { reason: 'business_rule' },
    ],
    ['402 {"code":"insufficient_funds"} (another status)', 'classifier', 402, { code: 'insufficient_funds' }, {}],
    [
      '422 insufficient_funds rethrown as new Error(…, { cause }) (wrapped errors keep their class)',
      'wrapped',
      422,
      { code: 'insufficient_funds' },
      { reason: 'business_rule' },
    ],
  ];
  test.each(cases)(
    '%s → 1 HTTP call, 1 attempt, non-retryable semantic_rejection named after its code, replan; no refund',
    async (_n, adapter, status, body, failure) => {
      service.reset({
        'POST /withdrawals': [{ status, body }],
        'POST /refunds': [{ status: 200, body: { ok: true } }],
      });
      const h = await harness(env, [withdrawTool(adapter), refund]);
      const r = await h.run(() => h.runPlan({ calls: [{ tool: 'withdraw', args: WITHDRAW }] }));
      const out = failedOutcome(r.outcomes[0]);
      expect(out).toMatchObject({
        action: 'replan',
        attempts: 1,
        activities: 1,
        failure: { class: 'semantic_rejection', status, retryable: false, ...failure },
      });
      expect(out.feedback.observedState).toEqual(body);
      expect(service.hits('POST /withdrawals')).toBe(1);
      expect(service.hits('POST /refunds')).toBe(0);
      // The ApplicationFailure is named after the structured code (InsufficientFundsError, AccountNotFoundError, …),
      // non-retryable, after exactly one attempt (docs/DESIGN.md, "The failure record").
      expect(out.failure.code).toBe(body.code);
      expect(await activityFailure(h, r.workflowId)).toEqual({
        type: {
          insufficient_funds: 'InsufficientFundsError',
          account_not_found: 'AccountNotFoundError',
          daily_limit_exceeded: 'DailyLimitExceededError',
        }[body.code as string],
        nonRetryable: true,
        startedAttempts: [1],
      });
    },
  );

  test('variant A, the buggy adapter (rethrows new Error("Unexpected error occurred")) → routed by the 422 ctx.http got: 1 attempt, non-retryable semantic_rejection, replan; no refund', async () => {
    service.reset({ 'POST /withdrawals': [{ status: 422, body: { code: 'insufficient_funds' } }] });
    const h = await harness(env, [withdrawTool('plain-error'), refund]);
    const r = await h.run(() => h.runPlan({ calls: [{ tool: 'withdraw', args: WITHDRAW }] }));
    // The adapter lost the error's type, not the facts: the router holds the answer it got (activities/http-evidence.ts).
    expect(failedOutcome(r.outcomes[0])).toMatchObject({
      action: 'replan',
      attempts: 1,
      activities: 1,
      failure: { class: 'semantic_rejection', reason: 'business_rule', code: 'insufficient_funds', status: 422 },
    });
    expect(service.hits('POST /withdrawals')).toBe(1);
    expect(service.hits('POST /refunds')).toBe(0);
    expect(await activityFailure(h, r.workflowId)).toEqual({
      type: 'InsufficientFundsError',
      nonRetryable: true,
      startedAttempts: [1],
    });
  });

  test('the model re-issues the identical withdrawal in the next turn → refused as no progress (stop), still 1 HTTP call', async () => {
    service.reset({ 'POST /withdrawals': [{ status: 422, body: { code: 'insufficient_funds' } }] });
    const h = await harness(env, [withdrawTool(), refund]);
    const r = await h.run(() => h.runPlan({ calls: [1, 2, 3].map(() => ({ tool: 'withdraw', args: WITHDRAW })) }));
    expect(actions(r.outcomes)).toEqual(['replan', 'stop']);
    expect(service.hits('POST /withdrawals')).toBe(1);
  });
});
