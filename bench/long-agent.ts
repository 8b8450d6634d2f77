/**
 * `npm run bench -- --only long-agent [--calls N] [--quick]`: one long-lived `agentWorkflow` making N tool calls
 * (10,000 by default; `--quick` 1,000), `callsPerTurn` a turn, continuing as new every `turnsPerRun` turns (issue 29).
 * A scripted planner answers from the turn number alone; the tool is a read on a loopback service that always
 * answers 200. The worker (the plugin, with the planner activity) runs in this process; the dev server is its own.
 * Reports:
 *   - per run of the chain: its calls, events, history bytes (encoded, payloads included) and start input bytes
 *     (the state continue-as-new carried), with the carried state's largest parts (characters of JSON);
 *   - the longest history's replay time (`Worker.runReplayHistory` with the plugin, on a bundle built once: the
 *     bundling is timed apart), ms, median of 3;
 *   - the process's RSS at every tenth of the calls (sampled every 250 ms; MiB, after a GC when `--expose-gc`).
 * Prints a table and writes bench/results/long-agent.json. Gate (issue 29: history bytes per run bounded): the
 * chain submits after all its calls, and from the second run on a run's start input grows by at most
 * `MAX_CARRY_GROWTH_BYTES` a run.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import type { Planner } from '../activities/planners/planner';
import { startScriptedService, type ScriptedService } from '../examples/scripted-service';
import { supportTools } from '../examples/support-tools';
import { RECOVERY_WORKFLOWS_PATH, RecoveryPlugin } from '../plugin/recovery-plugin';
import type { AgentOptions, AgentResult } from '../workflows/agent-types';
import { startBenchServer } from './dev-server';
import { historyBytes } from './events';
import { summarize } from './stats';
import { alignedTable } from './table';

export interface LongAgentOptions {
  /** Tool calls in the whole chain. */
  calls: number;
  /** Calls the planner asks for each turn. @default 10 */
  callsPerTurn?: number;
  /** Turns before the agent continues as new. @default 25 */
  turnsPerRun?: number;
}

/** The most a run's start input may grow over the run before it, in bytes, for the history to count as bounded. */
const MAX_CARRY_GROWTH_BYTES = 1_024;

interface RunRow {
  run: number;
  calls: number;
  events: number;
  historyBytes: number;
  startInputBytes: number;
  /** Characters of JSON of the carried state's parts: `observations`, `router.<key>`, `other`. */
  carried: Record<string, number>;
}

interface RssRow {
  calls: number;
  seconds: number;
  rssMiB: number;
}

/** Asks for `perTurn` reads a turn until `total` were asked for, then submits: a function of the turn alone. */
function countingPlanner(total: number, perTurn: number): Planner {
  return {
    plan(input) {
      const done = (input.turn - 1) * perTurn;
      if (done >= total) return Promise.resolve({ kind: 'submit', result: { calls: done } });
      const calls = Array.from({ length: Math.min(perTurn, total - done) }, (_, i) => ({
        callId: `c${done + i}`,
        tool: 'check_inventory',
        args: { sku: `SKU-${done + i}` },
      }));
      return Promise.resolve({ kind: 'tool_calls', calls });
    },
  };
}

/**
 * Every run of `workflowId`'s chain, oldest first, with its history. Read on a connection of its own that accepts
 * answers up to 256 MiB: a page of a long run's history exceeds gRPC's default 4 MiB.
 */
async function chainHistories(env: TestWorkflowEnvironment, workflowId: string) {
  const connection = await Connection.connect({
    address: env.address,
    channelArgs: { 'grpc.max_receive_message_length': 256 * 2 ** 20 },
  });
  try {
    const client = new Client({ connection, ...(env.namespace ? { namespace: env.namespace } : {}) });
    const runs: { runId: string; startMs: number }[] = [];
    for await (const w of client.workflow.list({ query: `WorkflowId = "${workflowId}"` })) {
      runs.push({ runId: w.runId, startMs: w.startTime.getTime() });
    }
    runs.sort((a, b) => a.startMs - b.startMs);
    const histories = [];
    for (const r of runs) histories.push(await client.workflow.getHandle(workflowId, r.runId).fetchHistory());
    return histories;
  } finally {
    await connection.close();
  }
}

/** The carried state (agentWorkflow's third argument, JSON) by part, in characters of JSON. */
function carriedParts(data: Uint8Array | null | undefined): Record<string, number> {
  if (!data) return {};
  const carry = JSON.parse(Buffer.from(data).toString('utf8')) as Record<string, unknown>;
  const parts: Record<string, number> = { other: 0 };
  for (const [key, value] of Object.entries(carry)) {
    if (key === 'router' && value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) parts[`router.${k}`] = JSON.stringify(v ?? null).length;
    } else if (key === 'observations') parts[key] = JSON.stringify(value).length;
    else parts.other! += JSON.stringify(value ?? null).length;
  }
  return parts;
}

function rowOf(run: number, history: Awaited<ReturnType<typeof chainHistories>>[number]): RunRow {
  const events = history.events ?? [];
  const payloads = events[0]?.workflowExecutionStartedEventAttributes?.input?.payloads ?? [];
  return {
    run,
    calls: events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'invokeTool').length,
    events: events.length,
    historyBytes: historyBytes(history),
    startInputBytes: payloads.reduce((n, p) => n + (p.data?.length ?? 0), 0),
    carried: carriedParts(payloads[2]?.data),
  };
}

/**
 * The largest growth of the carried state from one run to the next, in bytes: from the second run on (the first
 * starts with the goal alone; the first carry fills the windows of docs/DESIGN.md, "Long-lived agents").
 */
function carryGrowth(runs: readonly RunRow[]): number {
  const carried = runs.slice(1);
  return Math.max(0, ...carried.slice(1).map((r, i) => r.startInputBytes - carried[i]!.startInputBytes));
}

/** Samples this process's RSS every 250 ms with the calls the service has answered so far. */
function sampleRss(service: ScriptedService, startMs: number) {
  const samples: RssRow[] = [];
  const gc = (globalThis as { gc?: () => void }).gc;
  const timer = setInterval(() => {
    gc?.();
    samples.push({
      calls: service.hits('GET /inventory'),
      seconds: (Date.now() - startMs) / 1000,
      rssMiB: process.memoryUsage().rss / 2 ** 20,
    });
  }, 250);
  return { samples, stop: () => clearInterval(timer) };
}

/** The sample nearest each tenth of `total` calls (the calls the service answered). */
function tenths(samples: readonly RssRow[], total: number): RssRow[] {
  return Array.from({ length: 10 }, (_, i) => {
    const at = ((i + 1) * total) / 10;
    return samples.reduce((best, s) => (Math.abs(s.calls - at) < Math.abs(best.calls - at) ? s : best), samples[0]!);
  });
}

/** The replay time of `history` on a bundle built once with the plugin (median of 3), and that bundling's, in ms. */
async function replayMs(plugin: RecoveryPlugin, history: Awaited<ReturnType<typeof chainHistories>>[number]) {
  const silent = () => undefined;
  const logger = { log: silent, trace: silent, debug: silent, info: silent, warn: silent, error: console.error };
  const b0 = performance.now();
  const workflowBundle: WorkflowBundleWithSourceMap = await bundleWorkflowCode({
    workflowsPath: RECOVERY_WORKFLOWS_PATH,
    plugins: [plugin],
    logger,
  });
  const bundleMs = performance.now() - b0;
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    await Worker.runReplayHistory({ plugins: [plugin], workflowBundle }, history);
    times.push(performance.now() - t0);
  }
  return { ms: summarize(times).median, bundleMs };
}

export async function longAgent(o: LongAgentOptions): Promise<number> {
  const perTurn = o.callsPerTurn ?? 10;
  const turnsPerRun = o.turnsPerRun ?? 25;
  const env = await startBenchServer();
  const service = await startScriptedService({ 'GET /inventory': [{ status: 200, body: { items: [{ id: 'a' }] } }] });
  const taskQueue = 'long-agent';
  const plugin = new RecoveryPlugin({
    tools: [supportTools(service.url).checkInventory],
    planner: countingPlanner(o.calls, perTurn),
    config: { taskQueue },
  });
  const workflowId = `long-agent-${Date.now()}`;
  const options: AgentOptions = {
    maxTurns: 10_000,
    continueAsNewAfterTurns: turnsPerRun,
    budgets: { perRunAttempts: o.calls + 1 },
  };
  try {
    const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, plugins: [plugin] });
    const t0 = Date.now();
    const rss = sampleRss(service, t0);
    const result = await worker.runUntil(
      env.client.workflow.execute('agentWorkflow', { taskQueue, workflowId, args: ['Make the calls', options] }),
    );
    rss.stop();
    const seconds = (Date.now() - t0) / 1000;
    const histories = await chainHistories(env, workflowId);
    const runs = histories.map((h, i) => rowOf(i + 1, h));
    const longest = histories.reduce((a, b) => ((b.events?.length ?? 0) > (a.events?.length ?? 0) ? b : a));
    const replay = { events: longest.events?.length ?? 0, ...(await replayMs(plugin, longest)) };
    return report(o, result as AgentResult, {
      runs,
      replay,
      rss: tenths(rss.samples, service.hits('GET /inventory')),
      seconds,
    });
  } finally {
    await service.close();
    await env.teardown();
  }
}

function report(
  o: LongAgentOptions,
  result: AgentResult,
  m: { runs: RunRow[]; replay: { events: number; ms: number; bundleMs: number }; rss: RssRow[]; seconds: number },
): number {
  const calls = m.runs.reduce((n, r) => n + r.calls, 0);
  const runTable = m.runs.map((r) => [r.run, r.calls, r.events, r.historyBytes, r.startInputBytes].map(String));
  console.log(
    alignedTable(
      `One agent, ${calls} tool calls in ${m.runs.length} runs (${m.seconds.toFixed(0)} s): ${result.status}`,
      ['run', 'calls', 'events', 'history bytes', 'start input bytes'],
      runTable,
    ),
  );
  const rssTable = m.rss.map((r) => [String(r.calls), r.seconds.toFixed(0), r.rssMiB.toFixed(1)]);
  console.log(alignedTable('Worker process RSS', ['calls answered', 's', 'RSS MiB'], rssTable));
  console.log(
    `Longest history (${m.replay.events} events) replays in ${m.replay.ms.toFixed(0)} ms (median of 3; ` +
      `the bundle it replays on took ${m.replay.bundleMs.toFixed(0)} ms to build)`,
  );
  const last = m.runs.filter((r) => r.calls > 0).at(-1);
  const parts = Object.entries(last?.carried ?? {}).sort((a, b) => b[1] - a[1]);
  console.log(`Carried into run ${last?.run}: ${parts.map(([k, n]) => `${k} ${n}`).join(', ')} (characters of JSON)`);
  const growth = carryGrowth(m.runs);
  const bounded = growth <= MAX_CARRY_GROWTH_BYTES;
  console.log(
    `Start input growth per run: at most ${growth} bytes (bounded: ≤ ${MAX_CARRY_GROWTH_BYTES}) → ${bounded}`,
  );
  const reason = result.status === 'submitted' ? undefined : result.reason;
  if (reason) console.log(`The agent ended ${result.status}: ${reason}`);
  const out = { calls: o.calls, status: result.status, reason, continuedAsNew: result.continuedAsNew, growth, ...m };
  writeFileSync(join(__dirname, 'results', 'long-agent.json'), `${JSON.stringify(out, null, 2)}\n`);
  return result.status === 'submitted' && calls === o.calls && bounded ? 0 : 1;
}
