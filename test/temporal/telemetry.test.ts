/**
 * Recovery telemetry end to end, on the real dev server: the router's records reach a `RecoveryMetrics` through the
 * workflow sinks, with exact values, and a replayed history — by a replay worker, or by a worker without a workflow
 * cache that replays the history at every task — never counts a record twice.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { startScriptedService, type ScriptedService } from '../../examples/scripted-service';
import { supportTools } from '../../examples/support-tools';
import { RecoveryMetrics } from '../../plugin/metrics';
import { RecoveryPlugin } from '../../plugin/recovery-plugin';
import type { RecoveryRecord } from '../../recovery/records';
import { summarizeRecords } from '../../recovery/telemetry';
import type { ToolPlanResult } from '../../workflows/tool-plan';
import { sample, samples } from '../fixtures/metric-samples';
import { testEnv, uniqueTaskQueue } from '../setup/env';
import { FAST_BACKOFF, failedOutcome, harness, workflowBundle } from './harness';

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

/** 503 then 200 (a retry that succeeds), a 409 (replan), then the other slot (succeeds): three turns. */
const PLAN = {
  calls: [
    { tool: 'check_inventory', args: { sku: 'S' } },
    { tool: 'book_slot', args: { slot: '10:00', customerId: 'cus_1' } },
    { tool: 'book_slot', args: { slot: '10:30', customerId: 'cus_1' } },
  ],
};
const SCRIPT = {
  'GET /inventory': [{ status: 503 }, { status: 200, body: { items: [{ id: 'a1' }] } }],
  'POST /calendar/book': [
    { status: 409, body: { code: 'slot_taken', message: 'slot 10:00 is taken' } },
    { status: 200, body: { bookingId: 'b-1' } },
  ],
};

/** Every metric the plan above must leave, exactly. */
async function expectPlanMetrics(m: RecoveryMetrics): Promise<void> {
  expect(await sample(m, 'recovery_turns_total')).toBe(3);
  expect(await samples(m, 'recovery_records_total')).toEqual({
    // The 503 was retried by Temporal: the success record says from what (transient) and how (retry).
    'tool=check_inventory,class=transient,action=retry,terminal=succeeded': 1,
    'tool=book_slot,class=semantic_rejection,action=replan,terminal=fed_back': 1,
    'tool=book_slot,class=none,action=none,terminal=succeeded': 1,
  });
  expect(await samples(m, 'recovery_replans_total')).toEqual({ 'tool=book_slot,class=semantic_rejection': 1 });
  // The next call starts in the same workflow task as the 409's record: 0 ms of workflow time.
  expect(await sample(m, 'recovery_time_to_replan_ms_count', { class: 'semantic_rejection' })).toBe(1);
  expect(await sample(m, 'recovery_time_to_replan_ms_sum', { class: 'semantic_rejection' })).toBe(0);
  expect(await sample(m, 'recovery_retries_used_sum', { tool: 'check_inventory' })).toBe(1);
  expect(await sample(m, 'recovery_retries_used_count', { tool: 'check_inventory' })).toBe(1);
  expect(await sample(m, 'recovery_retries_used_sum', { tool: 'book_slot' })).toBe(0);
  expect(await sample(m, 'recovery_retries_used_count', { tool: 'book_slot' })).toBe(2);
  expect(await samples(m, 'recovery_retry_needed_total')).toEqual({ 'tool=check_inventory': 1 });
  expect(await samples(m, 'recovery_retry_then_succeed_total')).toEqual({ 'tool=check_inventory': 1 });
  expect(await samples(m, 'recovery_retry_budget_exhausted_total')).toEqual({});
  expect(await samples(m, 'recovery_escalations_total')).toEqual({});
  expect(await samples(m, 'recovery_runs_total')).toEqual({}); // toolPlanWorkflow reports no runEnded
}

/** The plan's records, as the workflow returned them, checked against the metrics' source of truth. */
function expectPlanRecords(result: ToolPlanResult): void {
  expect(result.outcomes.map((o) => o.ok)).toEqual([true, false, true]);
  expect(failedOutcome(result.outcomes[1]).action).toBe('replan');
  expect(
    result.records.map((r: RecoveryRecord) => [r.tool, r.turn, r.attempts, r.terminal, r.replanLatencyMs ?? null]),
  ).toEqual([
    ['check_inventory', 1, 2, 'succeeded', null],
    ['book_slot', 2, 1, 'fed_back', null],
    ['book_slot', 3, 1, 'succeeded', 0],
  ]);
  expect(summarizeRecords(result.records)).toMatchObject({
    turns: 3,
    calls: 3,
    replans: { total: 1, byClass: { semantic_rejection: 1 } },
    replanRatePerTurn: { semantic_rejection: 1 / 3 },
    timeToReplanMs: { count: 1, meanMs: 0, maxMs: 0 },
    retryBudget: {
      check_inventory: { calls: 1, dispatched: 1, retriesUsed: 1, meanRetriesUsed: 1, exhausted: 0 },
      book_slot: { calls: 2, dispatched: 2, retriesUsed: 0, meanRetriesUsed: 0, exhausted: 0 },
    },
    retryThenSucceed: { needed: 1, succeeded: 1, rate: 1 },
    escalations: { count: 0, calls: [] },
  });
}

test('503 then 200, a 409 replan, another slot → exact metrics; replaying the history counts nothing again', async () => {
  service.reset(SCRIPT);
  const metrics = new RecoveryMetrics();
  const h = await harness(env, supportTools(service.url).all, { telemetry: metrics });
  const result = await h.run(() => h.runPlan(PLAN));
  expectPlanRecords(result);
  expect(service.hits('GET /inventory')).toBe(2);
  expect(service.hits('POST /calendar/book')).toBe(2);
  await expectPlanMetrics(metrics);
  const before = await metrics.text();

  const history = await env.client.workflow.getHandle(result.workflowId).fetchHistory();
  await Worker.runReplayHistory(
    { plugins: [h.plugin], workflowBundle: await workflowBundle() },
    history,
    result.workflowId,
  );
  expect(await metrics.text()).toBe(before);

  // The control: the same replay does run the record sink when a sink asks to be called during replay.
  const replayed: RecoveryRecord[] = [];
  await Worker.runReplayHistory(
    {
      workflowBundle: await workflowBundle(),
      sinks: {
        recoveryTelemetry: {
          record: { fn: (_info: unknown, r: RecoveryRecord) => void replayed.push(r), callDuringReplay: true },
          runEnded: { fn: () => undefined, callDuringReplay: true },
        },
      },
    },
    history,
    result.workflowId,
  );
  expect(replayed).toEqual(result.records);
});

test('a worker without a workflow cache (the history so far is replayed at every task) counts each record once', async () => {
  service.reset(SCRIPT);
  const taskQueue = uniqueTaskQueue('rr-telemetry');
  const metrics = new RecoveryMetrics();
  const plugin = new RecoveryPlugin({
    tools: supportTools(service.url).all,
    config: { backoff: FAST_BACKOFF, taskQueue },
    telemetry: metrics,
  });
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    plugins: [plugin],
    workflowBundle: await workflowBundle(),
    maxCachedWorkflows: 0,
  });
  const result = (await worker.runUntil(
    env.client.workflow.execute('toolPlanWorkflow', {
      taskQueue,
      workflowId: uniqueTaskQueue('plan'),
      args: [{ ...plugin.workflowDefaults(), ...PLAN }],
    }),
  )) as ToolPlanResult;
  expectPlanRecords(result);
  await expectPlanMetrics(metrics);
});

test('a shared RecoveryMetrics sums two workers; the endpoint serves what text() says', async () => {
  service.reset(SCRIPT);
  const m = new RecoveryMetrics();
  const first = await harness(env, supportTools(service.url).all, { telemetry: m });
  await first.run(() => first.runPlan(PLAN));
  service.reset(SCRIPT);
  const second = await harness(env, supportTools(service.url).all, { telemetry: m });
  await second.run(() => second.runPlan(PLAN));
  expect(second.plugin.telemetry).toBe(first.plugin.telemetry);
  expect(await sample(m, 'recovery_turns_total')).toBe(6);
  expect(await samples(m, 'recovery_replans_total')).toEqual({ 'tool=book_slot,class=semantic_rejection': 2 });
  expect(await samples(m, 'recovery_retry_then_succeed_total')).toEqual({ 'tool=check_inventory': 2 });
  const server = await m.serve(0);
  try {
    const res = await fetch(server.url);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(await m.text());
  } finally {
    await server.close();
  }
});
