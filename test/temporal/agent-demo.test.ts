/**
 * The main job's scenarios (examples/agent-demo/scenarios/*.json), run as in `npm start` but on the test dev server:
 * each is an agentWorkflow with the scripted planner against the real demo services, and its expectations (status,
 * the action of every recovery record, requests and rows counted by the services themselves) must hold.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { createPlannerActivities } from '../../activities/planners/planner';
import { createScriptedPlanner } from '../../activities/planners/scripted';
import { builtInScenarios } from '../../examples/agent-demo/builtin';
import { startDemoFixtures, type DemoFixtures } from '../../examples/agent-demo/fixtures';
import { runScenario, type ScenarioReport } from '../../examples/agent-demo/run';
import { recordingPlanner } from '../../examples/agent-demo/told';
import { checkScenarios, withPlaceholders } from '../../examples/agent-demo/scenario';
import { RecoveryPlugin } from '../../plugin/recovery-plugin';
import { testEnv, uniqueTaskQueue } from '../setup/env';
import { FAST_BACKOFF, workflowBundle } from './harness';

let env: TestWorkflowEnvironment;
let fixtures: DemoFixtures;
const reports = new Map<string, ScenarioReport>();
const builtIn = builtInScenarios();

beforeAll(async () => {
  env = await testEnv();
  fixtures = await startDemoFixtures();
  checkScenarios(
    builtIn,
    fixtures.tools.map((t) => t.spec.name),
  );
  const scenarios = builtIn.map(({ scenario }) => ({
    ...scenario,
    script: withPlaceholders(scenario.script, fixtures.folders),
  }));
  const taskQueue = uniqueTaskQueue('demo');
  const plugin = new RecoveryPlugin({ tools: fixtures.tools, config: { backoff: FAST_BACKOFF, taskQueue } });
  const recorder = recordingPlanner(
    createScriptedPlanner({ goals: Object.fromEntries(scenarios.map((s) => [s.goal, s.script])) }),
  );
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    plugins: [plugin],
    workflowBundle: await workflowBundle(),
    activities: createPlannerActivities(recorder.planner),
  });
  await worker.runUntil(async () => {
    for (const scenario of scenarios) {
      reports.set(
        scenario.name,
        await runScenario(scenario, {
          client: env.client,
          plugin,
          fixtures,
          searchAttributes: false,
          toldFor: recorder.toldFor,
        }),
      );
    }
  });
}, 180_000);

afterAll(async () => {
  await fixtures?.close();
  await env?.teardown();
});

test('the built-in scenarios, one per kind the issues name', () => {
  expect(builtIn.map((b) => b.scenario.name)).toEqual([
    'calendar-race',
    'refund-lost-answer',
    'email-lost-answer',
    'missing-file-replan',
    'outside-path-stop',
    'inventory-transient',
    'invoice-repair',
    'hallucinated-tool',
    'business-rejection-gives-up',
    'already-in-list',
  ]);
});

test.each(builtIn.map((b) => b.scenario.name))('scenario %s ends as expected', (name) => {
  const report = reports.get(name)!;
  expect(report.mismatches).toEqual([]);
  expect(report.passed).toBe(true);
});

test('already-in-list: the 422 "already in the list" is verified, not replanned: one success, already_satisfied', () => {
  const report = reports.get('already-in-list')!;
  expect(report.records).toEqual([
    expect.objectContaining({
      tool: 'add_list_item',
      terminal: 'succeeded',
      class: 'semantic_rejection',
      evidence: 'state_verified',
      reconciled: 'already_satisfied',
      activities: 2,
    }),
  ]);
});

test('calendar-race: the stolen slot is a 409 routed to replan; the booking that landed is ours at 11:00', () => {
  const r = reports.get('calendar-race')!;
  expect(r.actual.result).toEqual({ bookingId: 'bk_2', day: '2026-12-01', slot: '11:00', customerId: 'cus_7' });
  expect(r.records.map((x) => [x.tool, x.class ?? null, x.action ?? null, x.terminal])).toEqual([
    ['list_free_slots', null, null, 'succeeded'],
    ['book_calendar_slot', 'semantic_rejection', 'replan', 'fed_back'],
    ['book_calendar_slot', null, null, 'succeeded'],
  ]);
  expect(r.actual.rows).toEqual({ 'calendar:bookings': 2 });
});

test('refund-lost-answer: settled by lookup (state_verified), 1 POST and 1 row; the report entry has its shape', () => {
  const r = reports.get('refund-lost-answer')!;
  expect(r.records).toHaveLength(1);
  expect(r.records[0]).toMatchObject({ tool: 'issue_refund', evidence: 'state_verified', terminal: 'succeeded' });
  expect(r.actual).toMatchObject({
    status: 'submitted',
    turns: 2,
    hits: { 'ledger:POST /refunds': 1 },
    rows: { 'ledger:refunds': 1 },
  });
  expect(Object.keys(r).sort()).toEqual(
    [
      'actual',
      'description',
      'durationMs',
      'expected',
      'goal',
      'mismatches',
      'name',
      'passed',
      'records',
      'summary',
      'told',
      'workflowId',
    ].sort(),
  );
});

test('outside-path-stop: the run ends at the first call; the message names no path', () => {
  const r = reports.get('outside-path-stop')!;
  expect(r.actual.endedBy).toMatchObject({ tool: 'fs_read_text_file', class: 'authorization', action: 'stop' });
  expect(r.actual.reason).not.toContain(fixtures.folders.outside);
  expect(r.actual.reason).not.toContain('/tmp');
});

test('what the planner was told: calendar-race sees the 409 as class, action, message and the free slots', () => {
  const told = reports.get('calendar-race')!.told;
  expect(told.map((t) => [t.turn, t.tool, t.kind, t.kind === 'failure' ? `${t.class} → ${t.action}` : null])).toEqual([
    [1, 'list_free_slots', 'result', null],
    [2, 'book_calendar_slot', 'failure', 'semantic_rejection → replan'],
    [3, 'book_calendar_slot', 'result', null],
  ]);
  const failure = told[1] as Extract<(typeof told)[number], { kind: 'failure' }>;
  expect(failure.message).toMatch(/^book_calendar_slot: HTTP 409/);
  expect(JSON.stringify(failure.observedState)).toContain('11:00');
});

test('what the planner was told: every failure it saw has a class and an action; invoice-repair names the two fields to fix', () => {
  const failures = [...reports.values()].flatMap((r) => r.told.filter((t) => t.kind === 'failure'));
  expect(failures.length).toBeGreaterThanOrEqual(5);
  for (const f of failures) expect(f).toMatchObject({ class: expect.any(String), action: expect.any(String) });
  const repair = reports.get('invoice-repair')!.told.find((t) => t.kind === 'failure');
  expect(repair).toMatchObject({ turn: 1, tool: 'create_invoice', class: 'invalid_arguments', action: 'repair' });
  expect(repair?.kind === 'failure' && repair.issues?.map((i) => [i.path, i.expected, i.received])).toEqual([
    [['amountCents'], 'positive integer', '"12.50"'],
    [['currency'], 'one of usd|eur', '"USD"'],
  ]);
});
