/**
 * Continue-as-new when Temporal suggests it: a dev server of its own with `limit.historyCount.suggestContinueAsNew`
 * at 40 events (Temporal's default is 4,096), so an agent run crosses several runs in a few turns. Nothing may be
 * re-executed and no budget may start over across the runs.
 */
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { createPlannerActivities } from '../../activities/planners/planner';
import { createScriptedPlanner } from '../../activities/planners/scripted';
import { startScriptedService, type ScriptedService } from '../../examples/scripted-service';
import { supportTools } from '../../examples/support-tools';
import { temporalBinaries } from '../../scripts/temporal-binaries';
import type { AgentResult } from '../../workflows/agent';
import { uniqueTaskQueue, writeKey } from '../setup/env';
import { harness } from './harness';
import { SEARCH_ATTRIBUTES } from '../../workflows/search-attributes';

let env: TestWorkflowEnvironment;
let service: ScriptedService;
beforeAll(async () => {
  env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: temporalBinaries().cli },
      ip: '127.0.0.1',
      extraArgs: ['--dynamic-config-value', 'limit.historyCount.suggestContinueAsNew=40'],
      searchAttributes: [...SEARCH_ATTRIBUTES],
    },
  });
  service = await startScriptedService({});
});
afterAll(async () => {
  await service?.close();
  await env?.teardown();
});

const SLOTS = ['09:00', '10:00', '11:00', '12:00', '13:00', '14:00', '15:00', '16:00'];
const GOAL = 'Book eight calls for cus_7';

test('Temporal suggests continue-as-new: the run continues as new, each booking is sent once with its own key, the budgets and records carry on', async () => {
  service.reset({
    'POST /calendar/book': [
      { status: 503, body: { error: 'unavailable' } },
      ...SLOTS.map((slot) => ({ status: 201, body: { bookingId: `bk_${slot}` } })),
    ],
  });
  const policy = {
    goals: {
      [GOAL]: {
        steps: SLOTS.map((slot, i) => ({ id: `b${i}`, tool: 'book_slot', args: { slot, customerId: 'cus_7' } })),
        submit: { resultFrom: 'b7' },
      },
    },
  };
  const h = await harness(env, supportTools(service.url).all, {
    activities: createPlannerActivities(createScriptedPlanner(policy)),
  });
  const workflowId = uniqueTaskQueue('agent-can');
  const result = await h.run(async () => {
    const handle = await env.client.workflow.start('agentWorkflow', {
      taskQueue: h.taskQueue,
      workflowId,
      args: [GOAL, { ...h.plugin.workflowDefaults(), searchAttributes: false }],
    });
    return (await handle.result()) as AgentResult;
  });
  expect(result.status).toBe('submitted');
  expect(result.result).toEqual({ bookingId: 'bk_16:00' });
  expect(result.turns).toBe(9);
  expect(result.continuedAsNew).toBeGreaterThanOrEqual(2);
  // Every call once (the first also after a 503: book_slot's receiver deduplicates by key, so the router retries it
  // with the same key), each under its own operation_id, none re-sent by a new run.
  const keys = service.received
    .filter((r) => r.route === 'POST /calendar/book')
    .map((r) => r.headers['idempotency-key']);
  // Every run of the chain keys its writes for the chain's intent, its first run (docs/tools.md, "One intent, one key").
  const key = (step: string) => writeKey(env.client, workflowId, step);
  expect(keys).toEqual([await key('book_slot#0'), ...(await Promise.all(SLOTS.map((_s, i) => key(`book_slot#${i}`))))]);
  // The records of every run, in order; the run-attempt budget went down across the runs, never back up.
  expect(result.records.map((r) => [r.tool, r.terminal, r.turn])).toEqual(
    SLOTS.map((_s, i) => ['book_slot', 'succeeded', i + 1]),
  );
  expect(result.records.map((r) => r.attempts)).toEqual([2, 1, 1, 1, 1, 1, 1, 1]);
  expect(result.records[0]!.budgetsLeft.retries).toBe(2);
  // perRunAttempts counts the activities the router scheduled: a write runs one attempt per activity (the router,
  // not Temporal, retries it: docs/DESIGN.md, "Phases"), so the first booking's retry spent one more.
  expect(result.records.map((r) => r.budgetsLeft.runAttempts)).toEqual([48, 47, 46, 45, 44, 43, 42, 41]);
  // Several runs exist under the one workflow id.
  const runs: string[] = [];
  for await (const w of env.client.workflow.list({ query: `WorkflowId = "${workflowId}"` })) runs.push(w.runId);
  expect(runs.length).toBe(result.continuedAsNew + 1);
});
