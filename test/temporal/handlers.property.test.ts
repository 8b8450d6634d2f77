/**
 * No input can fail a workflow task. fast-check generates arbitrary JSON — including objects whose `toString`,
 * `valueOf`, `constructor`, `__proto__` or `toJSON` key holds a non-function, which make `String()` and template
 * strings throw — and sends it to every handler of the plugin's workflows (signals and updates) and to `callTool`'s
 * name, arguments and options. After each batch the run must still answer queries, have no WorkflowTaskFailed
 * event and no accepted update, and a valid message must still take effect.
 */
import fc from 'fast-check';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { startLedgerService, type LedgerService } from '../../examples/ledger-service';
import { ledgerTools } from '../../examples/ledger-tools';
import { startScriptedService, type ScriptedService } from '../../examples/scripted-service';
import { RecoveryPlugin } from '../../plugin/recovery-plugin';
import {
  approvalSignal,
  decideApprovalUpdate,
  decideReviewUpdate,
  pendingApprovalsQuery,
  reconcileWorkflowId,
  reviewCaseQuery,
  reviewDecisionSignal,
  userMessageSignal,
} from '../../workflows/definitions';
import { approvalDecisionSchema, reviewDecisionSchema, userMessageSchema } from '../../workflows/messages';
import type { Shape } from '../../recovery/shape';
import type { ToolPlanResult } from '../../workflows/tool-plan';
import { createScriptedPlanner } from '../../activities/planners/scripted';
import { createPlannerActivities } from '../../activities/planners/planner';
import type { AgentResult } from '../../workflows/agent';
import { testEnv, uniqueTaskQueue, writeKey } from '../setup/env';
import { eventTypes, FAST_BACKOFF, harness, okOutcome } from './harness';
import { exportReportTool } from './fixtures/export-report-tool';

let env: TestWorkflowEnvironment;
let service: ScriptedService;
let ledger: LedgerService;
beforeAll(async () => {
  env = await testEnv();
  service = await startScriptedService({});
  ledger = await startLedgerService();
});
afterAll(async () => {
  await service?.close();
  await ledger?.close();
  await env?.teardown();
});

const POISON_KEYS = ['toString', 'valueOf', 'constructor', '__proto__', 'toJSON', 'then', 'length'] as const;
const json = fc.jsonValue({ maxDepth: 3 });
/** An object whose conversion to a string throws, at the top or one level down. */
const poison = fc.oneof(
  fc.dictionary(fc.constantFrom(...POISON_KEYS), json, { minKeys: 1, maxKeys: 3 }),
  fc.record({ inner: fc.dictionary(fc.constantFrom(...POISON_KEYS), json, { minKeys: 1 }) }),
);
const anything = fc.oneof(json, poison, fc.array(poison, { maxLength: 3 }));
/** A message shaped like `real`, each field kept, dropped, or replaced by anything (never a valid message). */
function shaped(real: Record<string, unknown>, schema: Pick<Shape<unknown>, 'safeParse'>): fc.Arbitrary<unknown> {
  const fields = Object.fromEntries(
    Object.entries(real).map(([k, v]) => [k, fc.oneof(fc.constant(v), anything)] as const),
  );
  return fc
    .oneof(anything, fc.record(fields, { requiredKeys: [] }), fc.record({ ...fields, extra: anything }))
    .filter((m) => !schema.safeParse(m).success);
}

async function noTaskFailures(workflowId: string): Promise<void> {
  const events = (await env.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
  const types = eventTypes(events);
  expect(types.filter((t) => t === 'WORKFLOW_TASK_FAILED')).toEqual([]);
  expect(types.filter((t) => t === 'WORKFLOW_EXECUTION_UPDATE_ACCEPTED')).toEqual([]);
}

async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = await probe();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const exportTool = () => exportReportTool(() => service.url);

test('approval signal and update: 60 malformed decisions each → ignored or rejected; the run still answers and a valid update approves', async () => {
  service.reset({
    'GET /export': [
      { status: 403, body: { code: 'approval_required' } },
      { status: 200, body: { url: 'https://files/r.pdf' } },
    ],
  });
  const h = await harness(env, [exportTool()]);
  await h.run(async () => {
    const id = await h.startPlan({ calls: [{ tool: 'export_report', args: { month: '2026-11' } }] });
    const handle = env.client.workflow.getHandle(id);
    const [call] = await until(
      () => handle.query(pendingApprovalsQuery),
      (p) => p.length === 1,
      'the call waits',
    );
    const real = { callId: call!.callId, argsDigest: call!.argsDigest, approved: true, by: 'ops', reason: 'ok' };
    let rejected = 0;
    await fc.assert(
      fc.asyncProperty(shaped(real, approvalDecisionSchema()), async (m) => {
        await handle.signal(approvalSignal, m as never);
        await expect(handle.executeUpdate(decideApprovalUpdate, { args: [m as never] })).rejects.toThrow();
        rejected += 1;
      }),
      { numRuns: 60 },
    );
    expect(rejected).toBe(60);
    expect(await handle.query(pendingApprovalsQuery)).toHaveLength(1);
    await noTaskFailures(id);
    const grant = await handle.executeUpdate(decideApprovalUpdate, { args: [real] });
    expect(grant).toMatchObject({ callId: real.callId, approved: true, by: 'ops', via: 'update' });
    const result = (await handle.result()) as ToolPlanResult;
    expect(okOutcome(result.outcomes[0]).value).toEqual({ url: 'https://files/r.pdf' });
  });
  expect(service.hits('GET /export')).toBe(2);
});

test('review signal and update: 60 malformed decisions each → ignored or rejected; a valid decision still settles the case', async () => {
  const tools = ledgerTools(ledger.url).all;
  const h = await harness(env, tools, { config: { backoff: FAST_BACKOFF } });
  ledger.setLookupDown(true);
  ledger.fault({ kind: 'lose_response' });
  try {
    await h.run(async () => {
      const id = await h.startPlan({
        calls: [{ tool: 'issue_refund', args: { orderId: 'O-7001', amountCents: 500 }, stepId: 'refund' }],
        reconcile: { lookupBudget: 1, searchAttributes: false },
      });
      const operationId = await writeKey(env.client, id, 'refund');
      const child = env.client.workflow.getHandle(reconcileWorkflowId(operationId));
      await until(
        () => child.query(reviewCaseQuery).catch(() => undefined),
        (c) => c?.status === 'awaiting_review',
        'the case awaits review',
      );
      const real = {
        operationId,
        decision: 'mark_applied',
        by: 'ops',
        reason: 'seen in the ledger',
        resultRef: 're_1',
      };
      await fc.assert(
        fc.asyncProperty(shaped(real, reviewDecisionSchema()), async (m) => {
          await child.signal(reviewDecisionSignal, m as never);
          await expect(child.executeUpdate(decideReviewUpdate, { args: [m as never] })).rejects.toThrow();
        }),
        { numRuns: 60 },
      );
      expect((await child.query(reviewCaseQuery)).status).toBe('awaiting_review');
      await noTaskFailures(child.workflowId);
      await child.executeUpdate(decideReviewUpdate, { args: [real as never] });
      const result = (await env.client.workflow.getHandle(id).result()) as ToolPlanResult;
      expect(okOutcome(result.outcomes[0])).toMatchObject({
        value: { resultRef: 're_1' },
        reconciled: 'marked_applied',
      });
    });
  } finally {
    ledger.setLookupDown(false);
  }
});

test('agent user messages: 60 malformed ones → ignored; the run answers agent.state and goes on', async () => {
  service.reset({
    'GET /export': [
      { status: 403, body: { code: 'approval_required' } },
      { status: 200, body: { url: 'https://files/a.pdf' } },
    ],
  });
  const goal = 'Export the October report';
  const planner = createScriptedPlanner({
    goals: {
      [goal]: {
        steps: [{ id: 'export', tool: 'export_report', args: { month: '2026-10' } }],
        submit: { resultFrom: 'export' },
      },
    },
  });
  const h = await harness(env, [exportTool()], { activities: createPlannerActivities(planner) });
  await h.run(async () => {
    const workflowId = uniqueTaskQueue('agent-poison');
    const handle = await env.client.workflow.start('agentWorkflow', {
      taskQueue: h.taskQueue,
      workflowId,
      args: [goal, { ...h.plugin.workflowDefaults(), searchAttributes: false }],
    });
    const [call] = await until(
      () => handle.query(pendingApprovalsQuery),
      (p) => p.length === 1,
      'the call waits',
    );
    await fc.assert(
      fc.asyncProperty(shaped({ text: 'hello', by: 'user' }, userMessageSchema()), async (m) => {
        await handle.signal(userMessageSignal, m as never);
      }),
      { numRuns: 60 },
    );
    await noTaskFailures(workflowId);
    expect(await handle.query('agent.state')).toMatchObject({ phase: 'calling_tools', pendingUserMessages: 0 });
    await handle.executeUpdate(decideApprovalUpdate, {
      args: [{ callId: call!.callId, argsDigest: call!.argsDigest, approved: true, by: 'ops' }],
    });
    expect(((await handle.result()) as AgentResult).status).toBe('submitted');
  });
});

describe('callTool with any name, arguments and options', () => {
  let worker: Worker;
  let plugin: RecoveryPlugin;
  let running: Promise<void>;
  beforeAll(async () => {
    const taskQueue = uniqueTaskQueue('call-anything');
    plugin = new RecoveryPlugin({ tools: [exportTool()], config: { taskQueue, backoff: FAST_BACKOFF } });
    worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      plugins: [plugin],
      workflowsPath: require.resolve('./fixtures/call-anything'),
    });
    running = worker.run();
  });
  afterAll(async () => {
    worker?.shutdown();
    await running;
  });

  const call = fc.record({
    name: fc.oneof(fc.constant('export_report'), fc.string(), anything),
    args: fc.oneof(fc.record({ month: fc.oneof(fc.string(), anything) }), anything),
    options: fc.oneof(fc.constant(undefined), fc.constant(null), fc.constant({}), fc.string()),
  });

  test('names, arguments and non-object options: 10 runs × 8 calls, every run completes with 8 outcomes', async () => {
    service.reset({ 'GET /export': [{ status: 200, body: { url: 'https://files/x.pdf' } }] });
    await fc.assert(
      fc.asyncProperty(fc.array(call, { minLength: 8, maxLength: 8 }), async (calls) => {
        const handle = await env.client.workflow.start('callAnything', {
          taskQueue: plugin.config.taskQueue,
          workflowId: uniqueTaskQueue('any'),
          args: [{ catalog: plugin.catalog, calls }],
        });
        const outcomes = (await handle.result()) as { ok: boolean }[];
        expect(outcomes).toHaveLength(8);
        await noTaskFailures(handle.workflowId);
      }),
      { numRuns: 10 },
    );
  });

  test('poisoned stepId or callId options: the run fails cleanly (invalid_input), never its workflow task', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('stepId', 'callId'), poison, async (key, value) => {
        const handle = await env.client.workflow.start('callAnything', {
          taskQueue: plugin.config.taskQueue,
          workflowId: uniqueTaskQueue('any-options'),
          args: [{ catalog: plugin.catalog, calls: [{ name: 'export_report', args: {}, options: { [key]: value } }] }],
        });
        await expect(handle.result()).rejects.toMatchObject({ cause: { type: 'invalid_input' } });
        await noTaskFailures(handle.workflowId);
      }),
      { numRuns: 10 },
    );
  });
});
