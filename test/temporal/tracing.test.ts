/**
 * Traces of every recovery, on the real dev server with Temporal's own OpenTelemetry plugin and the SDK's
 * in-memory exporter: the exact spans of a plan with a server-side retry, a replan, a reconciliation and an
 * approval — names, parents (each attempt under Temporal's `RunActivity:invokeTool`; the workflow-side spans under
 * `RunWorkflow:toolPlanWorkflow`), attributes and status — the duration histogram per attempt (the first test, on a
 * fresh meter), and a replay of the history with tracing on that emits nothing again.
 */
import { createHash } from 'node:crypto';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, DefaultLogger, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import type { AnyTool } from '../../activities/define-tool';
import { startLedgerService, type LedgerService } from '../../examples/ledger-service';
import { ledgerTools } from '../../examples/ledger-tools';
import { startScriptedService, type ScriptedService } from '../../examples/scripted-service';
import { supportTools } from '../../examples/support-tools';
import { decideApproval, pendingApprovals } from '../../operator/approvals';
import { RecoveryPlugin, RECOVERY_WORKFLOWS_PATH } from '../../plugin/recovery-plugin';
import type { ToolPlanResult } from '../../workflows/tool-plan';
import { exportReportTool } from './fixtures/export-report-tool';
import { spanShapes, testOtel, type SpanShape } from '../fixtures/otel';
import { testEnv, uniqueTaskQueue, writeKey } from '../setup/env';
import { FAST_BACKOFF } from './harness';

let env: TestWorkflowEnvironment;
let service: ScriptedService;
let ledger: LedgerService;
const otel = testOtel();
let tools: AnyTool[];
let bundle: WorkflowBundleWithSourceMap;
beforeAll(async () => {
  env = await testEnv();
  service = await startScriptedService({});
  ledger = await startLedgerService();
  tools = [...supportTools(service.url).all, ...ledgerTools(ledger.url).all, exportReportTool(() => service.url)];
  bundle = await bundleWorkflowCode({
    workflowsPath: RECOVERY_WORKFLOWS_PATH,
    plugins: [otel.temporalPlugin, plugin('bundle')],
    logger: new DefaultLogger('ERROR'),
  });
});
afterAll(async () => {
  await service?.close();
  await ledger?.close();
  await env?.teardown();
});
beforeEach(() => otel.exporter.reset());

function plugin(taskQueue: string): RecoveryPlugin {
  return new RecoveryPlugin({
    tools,
    tracing: { tracerProvider: otel.tracerProvider, meterProvider: otel.meterProvider },
    config: { backoff: FAST_BACKOFF, taskQueue },
  });
}

/** Runs `fn` on a worker with Temporal's OpenTelemetry plugin listed before the router's. */
async function onWorker<T>(fn: (p: RecoveryPlugin, taskQueue: string) => Promise<T>): Promise<T> {
  const taskQueue = uniqueTaskQueue('traces');
  const p = plugin(taskQueue);
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    plugins: [otel.temporalPlugin, p],
    workflowBundle: bundle,
  });
  return worker.runUntil(fn(p, taskQueue));
}

/** The library's spans (not Temporal's), sorted by name then attempt, for an order-free comparison. */
function ours(spans: readonly ReadableSpan[]): SpanShape[] {
  const key = (s: SpanShape) => `${s.name}#${String(s.attributes['recovery_router.attempt'] ?? '')}`;
  return spanShapes(spans)
    .filter((s) => !/^[A-Z][A-Za-z]+:/.test(s.name)) // Temporal's: RunWorkflow:…, StartActivity:…, HandleUpdate:…
    .sort((a, b) => key(a).localeCompare(key(b)));
}

const TOOL = (name: string, callId: string, attempt: number) => ({
  'gen_ai.operation.name': 'execute_tool',
  'gen_ai.tool.name': name,
  'gen_ai.tool.type': 'function',
  'gen_ai.tool.call.id': callId,
  'recovery_router.attempt': attempt,
  'recovery_router.breaker_state': 'closed',
});
const BUDGETS = (retries: number, replans: number, runAttempts: number) => ({
  'recovery_router.budget_left.retries': retries,
  'recovery_router.budget_left.repairs': 2,
  'recovery_router.budget_left.replans': replans,
  'recovery_router.budget_left.run_attempts': runAttempts,
});

test('a 503 retried by Temporal, a 409 replanned, a lost refund reconciled: exact spans, parents, statuses and durations', async () => {
  service.reset({
    'GET /inventory': [{ status: 503 }, { status: 200, body: { items: [{ id: 'a1' }] } }],
    'POST /calendar/book': [
      { status: 409, body: { code: 'slot_taken', message: 'slot 10:00 is taken' } },
      { status: 200, body: { bookingId: 'b-1' } },
    ],
  });
  ledger.fault({ kind: 'lose_response' });
  const id = uniqueTaskQueue('trace-plan');
  const result = await onWorker((p, taskQueue) =>
    env.client.workflow.execute('toolPlanWorkflow', {
      taskQueue,
      workflowId: id,
      args: [
        {
          ...p.workflowDefaults(),
          calls: [
            { tool: 'check_inventory', args: { sku: 'S' } },
            { tool: 'book_slot', args: { slot: '10:00', customerId: 'cus_1' } },
            { tool: 'book_slot', args: { slot: '10:30', customerId: 'cus_1' } },
            { tool: 'issue_refund', args: { orderId: 'O-1', amountCents: 500 }, stepId: 'refund-O-1' },
          ],
        },
      ],
    }),
  );
  expect((result as ToolPlanResult).outcomes.map((o) => o.ok)).toEqual([true, false, true, true]);
  const spans = otel.exporter.getFinishedSpans();
  const shapes = ours(spans);
  const delay = shapes[2]!.attributes['recovery_router.next_retry_delay_ms'];
  expect(delay).toBeGreaterThanOrEqual(50); // FAST_BACKOFF: 50 ms + at most 20 % jitter
  expect(delay).toBeLessThan(60);
  const inv = `${id}:t1:check_inventory#0`;
  expect(shapes).toEqual([
    {
      name: 'execute_tool book_slot',
      parent: 'RunActivity:invokeTool',
      attributes: {
        ...TOOL('book_slot', 't2:book_slot#0', 1),
        'error.type': 'semantic_rejection',
        'recovery_router.action': 'replan',
        'recovery_router.reason': 'conflict',
        'recovery_router.phase': 'dispatch',
        'recovery_router.retryable': false,
        'recovery_router.replay_safe': true,
        'http.response.status_code': 409,
        'recovery_router.code': 'slot_taken',
      },
      status: 2,
    },
    {
      name: 'execute_tool book_slot',
      parent: 'RunActivity:invokeTool',
      attributes: TOOL('book_slot', 't3:book_slot#0', 1),
      status: 0,
    },
    {
      name: 'execute_tool check_inventory',
      parent: 'RunActivity:invokeTool',
      attributes: {
        ...TOOL('check_inventory', 't1:check_inventory#0', 1),
        'error.type': 'transient',
        'recovery_router.action': 'retry',
        'recovery_router.reason': 'unavailable',
        'recovery_router.phase': 'dispatch',
        'recovery_router.retryable': true,
        'recovery_router.replay_safe': true,
        'http.response.status_code': 503,
        'recovery_router.next_retry_delay_ms': delay,
      },
      status: 2,
    },
    {
      name: 'execute_tool check_inventory',
      parent: 'RunActivity:invokeTool',
      attributes: TOOL('check_inventory', 't1:check_inventory#0', 2),
      status: 0,
    },
    {
      name: 'execute_tool issue_refund',
      parent: 'RunActivity:invokeTool',
      attributes: {
        ...TOOL('issue_refund', 'refund-O-1', 1),
        'error.type': 'outcome_unknown',
        'recovery_router.action': 'reconcile',
        'recovery_router.reason': 'network',
        'recovery_router.phase': 'commit_unknown',
        'recovery_router.retryable': false,
        'recovery_router.replay_safe': false,
      },
      status: 2,
    },
    {
      name: 'reconcile issue_refund',
      parent: 'recover issue_refund',
      attributes: { 'gen_ai.tool.name': 'issue_refund', 'recovery_router.reconciled_by': 'lookup' },
      status: 0,
    },
    {
      name: 'recover book_slot',
      parent: 'RunWorkflow:toolPlanWorkflow',
      attributes: {
        'gen_ai.tool.name': 'book_slot',
        'gen_ai.tool.call.id': 't2:book_slot#0',
        'recovery_router.attempts': 1,
        'recovery_router.terminal': 'fed_back',
        ...BUDGETS(3, 1, 48),
        'error.type': 'semantic_rejection',
        'recovery_router.action': 'replan',
        'recovery_router.reason': 'conflict',
        'recovery_router.phase': 'dispatch',
      },
      status: 2,
    },
    {
      name: 'recover check_inventory',
      parent: 'RunWorkflow:toolPlanWorkflow',
      attributes: {
        'gen_ai.tool.name': 'check_inventory',
        'gen_ai.tool.call.id': 't1:check_inventory#0',
        'recovery_router.attempts': 2,
        'recovery_router.terminal': 'succeeded',
        ...BUDGETS(2, 2, 49),
        'recovery_router.recovered_from': 'transient',
        'recovery_router.action': 'retry',
        // The first failure's own reason, carried across Temporal's retry (activities/retried-after.ts).
        'recovery_router.reason': 'unavailable',
        'recovery_router.phase': 'dispatch',
      },
      status: 0,
    },
    {
      name: 'recover issue_refund',
      parent: 'RunWorkflow:toolPlanWorkflow',
      attributes: {
        'gen_ai.tool.name': 'issue_refund',
        'gen_ai.tool.call.id': 'refund-O-1',
        'recovery_router.attempts': 1,
        'recovery_router.terminal': 'succeeded',
        ...BUDGETS(3, 2, 46),
        'recovery_router.recovered_from': 'outcome_unknown',
        'recovery_router.action': 'reconcile',
        'recovery_router.reason': 'network',
        'recovery_router.phase': 'commit_unknown',
        'recovery_router.evidence': 'state_verified',
        'recovery_router.reconciled_by': 'lookup',
      },
      status: 0,
    },
    {
      name: 'replan book_slot',
      parent: 'RunWorkflow:toolPlanWorkflow',
      attributes: { 'gen_ai.tool.name': 'book_slot', 'recovery_router.replan_after': 'semantic_rejection' },
      status: 0,
    },
  ]);
  // One trace; the workflow's one RunWorkflow span is the parent of every workflow-side span; each attempt's
  // RunActivity span is a child of its StartActivity span, a child of that RunWorkflow span.
  const run = spans.find((s) => s.name === 'RunWorkflow:toolPlanWorkflow')!;
  const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
  expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
  for (const s of spans.filter((x) => /^(recover|replan) /.test(x.name))) {
    expect([s.name, s.parentSpanId]).toEqual([s.name, run.spanContext().spanId]);
  }
  for (const s of spans.filter((x) => x.name.startsWith('execute_tool '))) {
    const runActivity = byId.get(s.parentSpanId!)!;
    expect(byId.get(byId.get(runActivity.parentSpanId!)!.parentSpanId!)).toBe(run);
  }
  // A failed attempt's status says what the model was told, and its exception event names the ApplicationFailure's
  // type (the business type of a structured code, else the class); a recovery fed back says it too. Nothing of the arguments (customerId, orderId) is in any attribute.
  const failed = spans.find((s) => s.name === 'execute_tool book_slot' && s.status.code === 2)!;
  // The router's words only: the server's ("slot 10:00 is taken") are the model's serverSaid, not a span's text.
  expect(failed.status.message).toBe('book_slot: HTTP 409, the call conflicts with the current state of the resource.');
  expect(failed.events.map((e) => [e.name, e.attributes?.['exception.type']])).toEqual([
    ['gen_ai.client.operation.exception', 'SlotTakenError'],
  ]);
  expect(spans.find((s) => s.name === 'recover book_slot')!.status.message).toBe(failed.status.message);
  expect(JSON.stringify(ours(spans))).not.toMatch(/cus_1|10:30|amountCents|orderId/);
  // No span of the router carries an operation id (the idempotency key) or a hash derived from one (issue 36).
  // Temporal's own spans of the reconcile child carry its workflow id (`reconcile:<operation id>`) and search
  // attributes (`RecoveryOperationId`): its interceptor records every workflow's (docs/observability.md says so).
  const key = (step: string) => writeKey(env.client, id, step);
  const ops = [inv, await key('t2:book_slot#0'), await key('t3:book_slot#0'), await key('refund-O-1')];
  const derived = ops.flatMap((op) => [op, createHash('sha256').update(op).digest('hex').slice(0, 12)]);
  const attributeText = JSON.stringify(ours(spans).map((s) => s.attributes));
  expect(derived.filter((d) => attributeText.includes(d))).toEqual([]);
  const temporals = spans.filter((s) => JSON.stringify(s.attributes).includes(ops[3]!)).map((s) => s.name);
  expect(temporals.sort()).toEqual([
    'RunActivity:lookupOperation',
    'RunWorkflow:reconcileOperationWorkflow',
    'StartActivity:lookupOperation',
  ]);

  // gen_ai.execute_tool.duration: one point per attempt, in seconds, by tool and error.type.
  const points = await otel.points('gen_ai.execute_tool.duration');
  const counts = points.map((p) => [
    p.attributes['gen_ai.tool.name'],
    p.attributes['error.type'] ?? 'ok',
    (p.value as { count: number }).count,
  ]);
  expect(counts.sort()).toEqual([
    ['book_slot', 'ok', 1],
    ['book_slot', 'semantic_rejection', 1],
    ['check_inventory', 'ok', 1],
    ['check_inventory', 'transient', 1],
    ['issue_refund', 'outcome_unknown', 1],
  ]);
  for (const p of points) {
    const h = p.value as { sum: number; buckets: { boundaries: number[] } };
    expect(h.sum).toBeGreaterThan(0);
    expect(h.sum).toBeLessThan(10); // seconds, not milliseconds
    expect(h.buckets.boundaries).toEqual([
      0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
    ]);
  }
});

test('a 403 a person lifts: the approval wait is a span under the call’s recovery; replaying the history with tracing on emits nothing', async () => {
  service.reset({
    'GET /export': [
      { status: 403, body: { code: 'approval_required' } },
      { status: 200, body: { url: 'https://files/r.pdf' } },
    ],
  });
  const id = uniqueTaskQueue('trace-approval');
  await onWorker(async (p, taskQueue) => {
    await env.client.workflow.start('toolPlanWorkflow', {
      taskQueue,
      workflowId: id,
      args: [{ ...p.workflowDefaults(), calls: [{ tool: 'export_report', args: { month: '2026-11' } }] }],
    });
    let call;
    for (let i = 0; i < 200 && !call; i++) {
      call = (await pendingApprovals(env.client, id))[0];
      if (!call) await new Promise((r) => setTimeout(r, 50));
    }
    await decideApproval(env.client, id, {
      callId: call!.callId,
      argsDigest: call!.argsDigest,
      approved: true,
      by: 'ops',
    });
    return env.client.workflow.getHandle(id).result();
  });
  const shapes = ours(otel.exporter.getFinishedSpans());
  expect(shapes.map((s) => [s.name, s.parent, s.status])).toEqual([
    ['apply_guardrail change_before_retry', 'recover export_report', 0],
    ['apply_guardrail human_approval', 'recover export_report', 0],
    ['execute_tool export_report', 'RunActivity:invokeTool', 2],
    ['execute_tool export_report', 'RunActivity:invokeTool', 0],
    ['recover export_report', 'RunWorkflow:toolPlanWorkflow', 0],
  ]);
  // Two guardrails judged the call (gen-ai-security.md, "Apply guardrail"): a person allowed it, then the gate
  // allowed running it again on that evidence; the verdict stands apart from the router's action.
  const guardrail = (guardian: string) => ({
    'gen_ai.tool.name': 'export_report',
    'gen_ai.operation.name': 'apply_guardrail',
    'gen_ai.guardian.name': guardian,
    'gen_ai.security.target.type': 'tool_call',
    'gen_ai.security.target.id': shapes[4]!.attributes['gen_ai.tool.call.id'],
    'gen_ai.security.decision.type': 'allow',
    'recovery_router.action': 'request_approval',
  });
  expect(shapes[0]!.attributes).toEqual(guardrail('change_before_retry'));
  expect(shapes[1]!.attributes).toEqual(guardrail('human_approval'));
  expect(shapes[4]!.attributes).toMatchObject({
    'recovery_router.action': 'request_approval',
    'recovery_router.evidence': 'approval_granted',
    'recovery_router.recovered_from': 'authorization',
    'recovery_router.terminal': 'succeeded',
  });

  const before = otel.exporter.getFinishedSpans().length;
  const history = await env.client.workflow.getHandle(id).fetchHistory();
  await Worker.runReplayHistory(
    { plugins: [otel.temporalPlugin, plugin('replay')], workflowBundle: bundle },
    history,
    id,
  );
  expect(otel.exporter.getFinishedSpans()).toHaveLength(before);
});
