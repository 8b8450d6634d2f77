/**
 * A long agent's state stays bounded (docs/DESIGN.md, "Long-lived agents"): 240 calls over 15 runs of one chain
 * (continue-as-new every 2 turns). The planner sees the newest observations of the window and how many were dropped;
 * each run's carried state holds only the open steps' budgets and operation ids, at most the window's observations
 * and at most 200 records; the result's records and `recordsOmitted` add up to every call.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Planner } from '../../activities/planners/planner';
import { createPlannerActivities } from '../../activities/planners/planner';
import { startScriptedService, type ScriptedService } from '../../examples/scripted-service';
import { supportTools } from '../../examples/support-tools';
import { fetchHistoryJSON, replayHistoryFiles } from '../../plugin/replay';
import type { AgentCarry, AgentResult } from '../../workflows/agent';
import { BOUNDED_CARRY_PATCH } from '../../workflows/agent-window';
import { MAX_CARRIED_RECORDS } from '../../workflows/router/compact';
import { testEnv, uniqueTaskQueue } from '../setup/env';
import { harness } from './harness';

const PER_TURN = 8;
const TURNS = 30;
const WINDOW = 20;

let env: TestWorkflowEnvironment;
let service: ScriptedService;
beforeAll(async () => {
  env = await testEnv();
  service = await startScriptedService({ 'GET /inventory': [{ status: 200, body: { items: [{ id: 'a' }] } }] });
});
afterAll(async () => {
  await service?.close();
});

/** `PER_TURN` reads a turn for `TURNS` turns, then a submit; notes what each turn's input held. */
function countingPlanner(seen: Map<number, [number, number]>): Planner {
  return {
    plan(input) {
      seen.set(input.turn, [input.observations.length, input.omittedObservations ?? 0]);
      if (input.turn > TURNS) return Promise.resolve({ kind: 'submit', result: { turns: TURNS } });
      const first = (input.turn - 1) * PER_TURN;
      const calls = Array.from({ length: PER_TURN }, (_, i) => ({
        callId: `c${first + i}`,
        tool: 'check_inventory',
        args: { sku: `SKU-${first + i}` },
      }));
      return Promise.resolve({ kind: 'tool_calls', calls });
    },
  };
}

/** The chain's run ids, oldest first. */
async function runIds(workflowId: string): Promise<string[]> {
  const runs: { runId: string; at: number }[] = [];
  for await (const w of env.client.workflow.list({ query: `WorkflowId = "${workflowId}"` })) {
    runs.push({ runId: w.runId, at: w.startTime.getTime() });
  }
  return runs.sort((a, b) => a.at - b.at).map((r) => r.runId);
}

/** The state each continued run started with (agentWorkflow's third argument), oldest first. */
async function carries(workflowId: string, runs: readonly string[]): Promise<AgentCarry[]> {
  const out: AgentCarry[] = [];
  for (const runId of runs.slice(1)) {
    const history = await env.client.workflow.getHandle(workflowId, runId).fetchHistory();
    const data = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[2]?.data;
    out.push(JSON.parse(Buffer.from(data!).toString('utf8')) as AgentCarry);
  }
  return out;
}

test('240 calls over 15 runs: the window, the carried state and the records stay bounded, and add up', async () => {
  const seen = new Map<number, [number, number]>();
  const h = await harness(env, [supportTools(service.url).checkInventory], {
    activities: createPlannerActivities(countingPlanner(seen)),
  });
  const workflowId = uniqueTaskQueue('agent-long');
  const options = {
    maxTurns: TURNS + 1,
    continueAsNewAfterTurns: 2,
    observationWindow: { maxObservations: WINDOW },
    budgets: { perRunAttempts: 1_000 },
  };
  const result = await h.run(async () => {
    const handle = await env.client.workflow.start('agentWorkflow', {
      taskQueue: h.taskQueue,
      workflowId,
      args: ['Make the calls', { ...h.plugin.workflowDefaults(), ...options, searchAttributes: false }],
    });
    return (await handle.result()) as AgentResult;
  });
  const calls = PER_TURN * TURNS;
  expect(result).toMatchObject({ status: 'submitted', turns: TURNS + 1, continuedAsNew: TURNS / 2 });
  expect(service.hits('GET /inventory')).toBe(calls);
  // Turn t saw the newest observations of the (t - 1) × 8 so far, at most 20, and the count of the others.
  for (let t = 1; t <= TURNS + 1; t += 1) {
    const total = (t - 1) * PER_TURN;
    expect([t, seen.get(t)]).toEqual([t, [Math.min(total, WINDOW), Math.max(0, total - WINDOW)]]);
  }
  expect(result.records.length + (result.recordsOmitted ?? 0)).toBe(calls);
  expect(result.records.at(-1)).toMatchObject({ callId: `c${calls - 1}`, terminal: 'succeeded' });
  expect(result.records[0]).toMatchObject({ callId: `c${calls - MAX_CARRIED_RECORDS}` });
  // The last run only submits: its records are the 200 carried.
  expect(result.recordsOmitted).toBe(calls - MAX_CARRIED_RECORDS);

  const runs = await runIds(workflowId);
  const carried = await carries(workflowId, runs);
  expect(carried).toHaveLength(TURNS / 2);
  for (const [i, c] of carried.entries()) {
    const callsBefore = (i + 1) * 2 * PER_TURN;
    expect(c.observations).toHaveLength(Math.min(callsBefore, WINDOW));
    expect(c.omittedObservations ?? 0).toBe(Math.max(0, callsBefore - WINDOW));
    expect(c.router.records).toHaveLength(Math.min(callsBefore, MAX_CARRIED_RECORDS));
    // Every step so far succeeded (closed) and the next one has not started: no step budgets or operation ids.
    expect(c.router.budgets.calls).toEqual([]);
    expect(c.router.stepArgs).toEqual({});
    expect(c.toolSuccesses).toEqual({ check_inventory: callsBefore });
  }
  // From the run after the records filled, a run's start input no longer grows with the calls before it.
  const full = carried
    .filter((_c, i) => (i + 1) * 2 * PER_TURN >= MAX_CARRIED_RECORDS)
    .map((c) => JSON.stringify(c).length);
  expect(full).toHaveLength(3);
  expect(Math.max(...full) - Math.min(...full)).toBeLessThan(200);

  // Every run of the chain, each with the bounded-carry marker but the last, replays against the current code.
  const dir = mkdtempSync(join(tmpdir(), 'rr-long-'));
  try {
    const files = await Promise.all(
      runs.map(async (runId, i) => {
        const file = join(dir, `run-${i}.json`);
        writeFileSync(file, await fetchHistoryJSON(env.client, workflowId, runId));
        return file;
      }),
    );
    const marked = [];
    for (const runId of runs) {
      const history = await env.client.workflow.getHandle(workflowId, runId).fetchHistory();
      const markers = (history.events ?? []).flatMap((e) =>
        Object.values(e.markerRecordedEventAttributes?.details ?? {}).flatMap((p) => p.payloads ?? []),
      );
      if (
        markers.some((p) =>
          Buffer.from(p.data ?? [])
            .toString('utf8')
            .includes(BOUNDED_CARRY_PATCH),
        )
      ) {
        marked.push(runId);
      }
    }
    expect(marked).toEqual(runs.slice(0, -1));
    const outcomes = await replayHistoryFiles(files);
    expect(outcomes.map((o) => o.error?.message)).toEqual(runs.map(() => undefined));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
