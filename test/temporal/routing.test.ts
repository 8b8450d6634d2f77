/**
 * One workflow test per failure class, on the real dev server with a loopback service. Every number comes from the
 * service's own request log or from the workflow history.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { z } from 'zod';
import { defineTool } from '../../activities/define-tool';
import { startScriptedService, type ScriptedService } from '../../examples/scripted-service';
import { supportTools } from '../../examples/support-tools';
import { testEnv } from '../setup/env';
import { eventTypes, harness, failedOutcome } from './harness';

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

const gapsMs = (route: string) => {
  const at = service.received.filter((r) => r.route === route).map((r) => r.atMs);
  return at.slice(1).map((t, i) => t - at[i]!);
};

test('422 with field errors → 1 dispatch, repair with field-level feedback; the same args again are refused, still 1 dispatch', async () => {
  service.reset({
    'POST /calendar/book': [
      { status: 422, body: { errors: [{ field: 'slot', message: 'must be on the hour or half hour' }] } },
    ],
  });
  const h = await harness(env, supportTools(service.url).all);
  const args = { slot: '10:10', customerId: 'cus_1' };
  const r = await h.run(() =>
    h.runPlan({
      calls: [
        { tool: 'book_slot', args },
        { tool: 'book_slot', args, sameTurn: true },
      ],
    }),
  );
  const first = failedOutcome(r.outcomes[0]);
  expect(first.action).toBe('repair');
  expect(first.failure.class).toBe('invalid_arguments');
  expect(first.feedback.issues).toEqual([
    {
      path: ['slot'],
      expected: 'a value the server accepts',
      received: 'not reported',
      suggestion: 'fix slot and call again',
      serverSaid: 'must be on the hour or half hour',
    },
  ]);
  expect(first.attempts).toBe(1);
  const second = failedOutcome(r.outcomes[1]);
  expect(second.refused).toBe(true);
  expect(second.activities).toBe(0);
  expect(service.hits('POST /calendar/book')).toBe(1);
  expect(eventTypes(await h.history(r.workflowId)).filter((t) => t === 'ACTIVITY_TASK_SCHEDULED')).toHaveLength(1);
});

test('422 business rejection (insufficient_funds) → exactly 1 attempt, replan (docs/DESIGN.md, "The failure record")', async () => {
  service.reset({ 'POST /calendar/book': [{ status: 422, body: { code: 'insufficient_funds' } }] });
  const h = await harness(env, supportTools(service.url).all);
  const r = await h.run(() =>
    h.runPlan({ calls: [{ tool: 'book_slot', args: { slot: '10:00', customerId: 'cus_1' } }] }),
  );
  const out = failedOutcome(r.outcomes[0]);
  expect(out.failure.class).toBe('semantic_rejection');
  expect(out.action).toBe('replan');
  expect(out.attempts).toBe(1);
  expect(service.hits('POST /calendar/book')).toBe(1);
});

test('503, 503, 200 → 3 activities, each gap at least the backoff floor (50 ms, 100 ms)', async () => {
  service.reset({
    'GET /inventory': [{ status: 503 }, { status: 503 }, { status: 200, body: { items: [{ id: 'a1' }] } }],
  });
  const h = await harness(env, supportTools(service.url).all);
  const r = await h.run(() => h.runPlan({ calls: [{ tool: 'check_inventory', args: { sku: 'S' } }] }));
  expect(r.outcomes[0]).toMatchObject({ ok: true, value: { items: [{ id: 'a1' }] }, attempts: 3, activities: 1 });
  expect(service.hits('GET /inventory')).toBe(3);
  const [g1, g2] = gapsMs('GET /inventory');
  expect(g1).toBeGreaterThanOrEqual(50);
  expect(g2).toBeGreaterThanOrEqual(100);
});

test('503 forever → 1 + 3 (per-call budget) activities, then a routed failure (replan), not an exception', async () => {
  service.reset({ 'GET /inventory': [{ status: 503 }] });
  const h = await harness(env, supportTools(service.url).all);
  const r = await h.run(() => h.runPlan({ calls: [{ tool: 'check_inventory', args: { sku: 'S' } }] }));
  const out = failedOutcome(r.outcomes[0]);
  expect(service.hits('GET /inventory')).toBe(4);
  expect(out.attempts).toBe(4);
  expect(out.failure.class).toBe('transient');
  expect(out.action).toBe('replan');
  expect(r.records[0]).toMatchObject({ attempts: 4, budgetsLeft: { retries: 0 } });
});

test('429 with Retry-After: 2 → the next dispatch comes no earlier than 2 s after the 429', async () => {
  service.reset({
    'GET /inventory': [
      { status: 429, headers: { 'retry-after': '2' }, body: { error: 'rate_limited' } },
      { status: 200, body: { items: [] } },
    ],
  });
  const h = await harness(env, supportTools(service.url).all);
  const r = await h.run(() => h.runPlan({ calls: [{ tool: 'check_inventory', args: { sku: 'S' } }] }));
  expect(r.outcomes[0]).toMatchObject({ ok: true, empty: true, attempts: 2 });
  expect(service.hits('GET /inventory')).toBe(2);
  expect(gapsMs('GET /inventory')[0]).toBeGreaterThanOrEqual(2_000);
});

test('409 → 1 dispatch and a replan outcome carrying the observed state', async () => {
  service.reset({
    'POST /calendar/book': [
      { status: 409, body: { code: 'slot_taken', message: 'slot 10:00 is taken', nextFree: '10:30' } },
    ],
  });
  const h = await harness(env, supportTools(service.url).all);
  const r = await h.run(() =>
    h.runPlan({ calls: [{ tool: 'book_slot', args: { slot: '10:00', customerId: 'cus_1' } }] }),
  );
  const out = failedOutcome(r.outcomes[0]);
  expect(out).toMatchObject({
    action: 'replan',
    attempts: 1,
    failure: { class: 'semantic_rejection', reason: 'conflict', status: 409 },
  });
  expect(out.feedback.observedState).toEqual({ code: 'slot_taken', message: 'slot 10:00 is taken', nextFree: '10:30' });
  expect(service.hits('POST /calendar/book')).toBe(1);
});

test('an unknown tool name → 0 activities and the permission-filtered capability list', async () => {
  const secret = defineTool({
    name: 'refund',
    description: 'Refunds a payment.',
    input: z.object({ id: z.string() }),
    output: z.object({ ok: z.boolean() }),
    effect: 'write',
    scope: 'billing:refund',
    async execute() {
      return { ok: true };
    },
  });
  service.reset({});
  const h = await harness(env, [...supportTools(service.url).all, secret]);
  const r = await h.run(() =>
    h.runPlan({
      calls: [
        { tool: 'get_date', args: {} },
        { tool: 'refund', args: { id: 'p1' } },
      ],
      stopOnTerminal: false,
    }),
  );
  const unknown = failedOutcome(r.outcomes[0]);
  expect(unknown).toMatchObject({
    action: 'replan',
    activities: 0,
    failure: { class: 'capability_missing', reason: 'unknown_tool' },
  });
  expect(unknown.feedback.capabilities?.map((c) => c.name)).toEqual(['book_slot', 'check_inventory', 'create_invoice']);
  expect(unknown.feedback.capabilities?.[1]?.inputSchema).toMatchObject({
    type: 'object',
    properties: { sku: { type: 'string' } },
  });
  const forbidden = failedOutcome(r.outcomes[1]);
  expect(forbidden).toMatchObject({
    activities: 0,
    failure: { class: 'capability_missing', reason: 'not_permitted_tool' },
  });
  expect(service.received).toHaveLength(0);
  expect(eventTypes(await h.history(r.workflowId))).not.toContain('ACTIVITY_TASK_SCHEDULED');
});

test('a write answered 201 with an id-less body was applied: ok, its value the marker that says so; one POST', async () => {
  service.reset({ 'POST /invoices': [{ status: 201, body: {} }] });
  const h = await harness(env, supportTools(service.url).all);
  const r = await h.run(() =>
    h.runPlan({
      calls: [
        {
          tool: 'create_invoice',
          args: { customerId: 'cus_1', amountCents: 100, currency: 'usd', dueDate: '2026-12-01' },
        },
      ],
    }),
  );
  // A 2xx applied is applied (docs/DESIGN.md, "A committed write succeeds, even when its result cannot travel").
  expect(r.outcomes[0]).toMatchObject({
    ok: true,
    attempts: 1,
    value: {
      omitted: true,
      applied: true,
      why: "the write was applied, but its answer does not match the tool's output schema",
    },
  });
  expect(service.hits('POST /invoices')).toBe(1);
});

test('a read answered 200 with a body that is not its record → invalid_result, rejected: a failed observation', async () => {
  service.reset({ 'GET /inventory': [{ status: 200, body: { items: 'none' } }] });
  const h = await harness(env, supportTools(service.url).all);
  const r = await h.run(() => h.runPlan({ calls: [{ tool: 'check_inventory', args: { sku: 'desk-1' } }] }));
  const out = failedOutcome(r.outcomes[0]);
  expect(out).toMatchObject({
    action: 'reject',
    attempts: 1,
    failure: { class: 'invalid_result', phase: 'postcheck' },
  });
  expect(out.feedback.status).toBe('failed');
  expect(service.hits('GET /inventory')).toBe(1);
});

test('a call that succeeds first time costs what a bare activity costs: no markers, timers or side effects', async () => {
  service.reset({ 'GET /inventory': [{ status: 200, body: { items: [{ id: 'a1' }] } }] });
  const h = await harness(env, supportTools(service.url).all);
  const r = await h.run(() => h.runPlan({ calls: [{ tool: 'check_inventory', args: { sku: 'S' } }] }));
  expect(eventTypes(await h.history(r.workflowId))).toEqual([
    'WORKFLOW_EXECUTION_STARTED',
    'WORKFLOW_TASK_SCHEDULED',
    'WORKFLOW_TASK_STARTED',
    'WORKFLOW_TASK_COMPLETED',
    'ACTIVITY_TASK_SCHEDULED',
    'ACTIVITY_TASK_STARTED',
    'ACTIVITY_TASK_COMPLETED',
    'WORKFLOW_TASK_SCHEDULED',
    'WORKFLOW_TASK_STARTED',
    'WORKFLOW_TASK_COMPLETED',
    'WORKFLOW_EXECUTION_COMPLETED',
  ]);
});
