/**
 * Records an agent chain that crosses the `recovery-router:bounded-carry` patch, for the replay test
 * (test/temporal/replay.test.ts replays every file in test/histories):
 * - run 1 (turns 1–2) and the first half of run 2 (turn 3, and turn 4's planner step) run on the workflow code of
 *   main 2fefb5f, before the patch: no window, full carry; 70 reads a turn, so 210 observations (over the default
 *   window of 200) when turn 4 is planned;
 * - then that worker stops and one on the current code takes run 2 over (it replays turn 1–4's start with the new
 *   code, checking the carry run 1 made), runs turn 4's calls and continues as new with the patch (marker, bounded
 *   carry); run 3 repeats a call whose repairs were spent in runs 1 and 2, and stops (`per_call_repairs`).
 *
 * Run from the repository root, with the old code unpacked beside it:
 *   mkdir -p /tmp/attack-old && git archive 2fefb5f | tar -x -C /tmp/attack-old
 *   ln -s "$PWD/node_modules" /tmp/attack-old/node_modules
 *   npx ts-node notes/attack-probes/record-cross-patch.ts /tmp/attack-old
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { z } from 'zod';
import { defineTool } from '../../activities/define-tool';
import { createPlannerActivities, type Planner } from '../../activities/planners/planner';
import { RecoveryPlugin } from '../../plugin/recovery-plugin';
import { fetchHistoryJSON } from '../../plugin/replay';
import { temporalBinaries } from '../../scripts/temporal-binaries';
import { bundleRecoveryWorkflows } from '../../test/setup/shared-bundle';
import type { AgentResult } from '../../workflows/agent';
import { SEARCH_ATTRIBUTES } from '../../workflows/search-attributes';

const OLD = resolve(process.argv[2] ?? '/tmp/attack-old');
const OUT = resolve(__dirname, '..', '..', 'test', 'histories');
const WORKFLOW_ID = 'cross-patch-agent';
const READS_PER_TURN = 70;

const echo = defineTool({
  name: 'echo',
  description: 'Echoes n.',
  input: z.object({ n: z.number().int() }).strict(),
  output: z.object({ n: z.number() }),
  effect: 'read',
  execute: async (args) => ({ n: args.n }),
});
const strictTool = defineTool({
  name: 'strict_tool',
  description: 'Needs code "ok".',
  input: z.object({ code: z.literal('ok') }).strict(),
  output: z.object({ done: z.boolean() }),
  effect: 'read',
  execute: async () => ({ done: true }),
});

/** Turns 1 and 3: a bad strict_tool call (a repair each) and the reads; turn 5: the bad call again. */
function planner(gate: Promise<void>): Planner {
  return {
    async plan(input) {
      if (input.turn === 4) await gate;
      const reads = Array.from({ length: READS_PER_TURN }, (_, i) => ({
        callId: `r${input.turn}-${i}`,
        tool: 'echo',
        args: { n: input.turn * 1000 + i },
      }));
      const bad = { callId: `s${input.turn}`, tool: 'strict_tool', args: { code: `bad-${input.turn}` } };
      if (input.turn === 5) return { kind: 'tool_calls', calls: [bad] };
      if (input.turn > 5) return { kind: 'submit', result: 'the repair budget held across the patch?' };
      return { kind: 'tool_calls', calls: input.turn % 2 === 1 ? [bad, ...reads] : reads };
    },
  };
}

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: temporalBinaries().cli },
      searchAttributes: [...SEARCH_ATTRIBUTES],
    },
  });
  try {
    const taskQueue = 'cross-patch';
    const plannerQueue = 'cross-patch-planner';
    const plugin = () => new RecoveryPlugin({ tools: [echo, strictTool], config: { taskQueue } });
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    let turn4 = false;
    const p = plugin();
    const plannerWorker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue: plannerQueue,
      activities: createPlannerActivities({
        plan: (input, o) => {
          if (input.turn === 4) turn4 = true;
          return planner(gate).plan(input, o);
        },
      }, { catalog: p.catalog }),
    });
    const oldBundle = await bundleWorkflowCode({
      workflowsPath: join(OLD, 'workflows'),
      preloadModules: [join(OLD, 'workflow'), join(OLD, 'workflows')],
      logger: new DefaultLogger('ERROR'),
    });
    const defaults = p.workflowDefaults();
    const options = {
      ...defaults,
      budgets: { ...defaults.budgets, perRunAttempts: 1_000 },
      searchAttributes: false,
      continueAsNewAfterTurns: 2,
      maxTurns: 10,
      planner: { taskQueue: plannerQueue },
    };
    const result = await plannerWorker.runUntil(async () => {
      const oldWorker = await Worker.create({
        connection: env.nativeConnection,
        taskQueue,
        plugins: [p],
        workflowBundle: oldBundle,
      });
      await oldWorker.runUntil(async () => {
        await env.client.workflow.start('agentWorkflow', { taskQueue, workflowId: WORKFLOW_ID, args: ['cross', options] });
        const handle = env.client.workflow.getHandle(WORKFLOW_ID);
        while (!turn4) {
          const { status } = await handle.describe();
          if (status.name !== 'RUNNING') throw new Error(`the chain ended before turn 4: ${status.name}`);
          await new Promise((r) => setTimeout(r, 200));
        }
      });
      const newWorker = await Worker.create({
        connection: env.nativeConnection,
        taskQueue,
        plugins: [plugin()],
        workflowBundle: await bundleRecoveryWorkflows(),
      });
      return await newWorker.runUntil(async () => {
        open();
        return (await env.client.workflow.getHandle(WORKFLOW_ID).result()) as AgentResult;
      });
    });
    console.log(JSON.stringify({ status: result.status, turns: result.turns, endedBy: result.endedBy }));
    const runs: { runId: string; at: number }[] = [];
    for await (const w of env.client.workflow.list({ query: `WorkflowId = "${WORKFLOW_ID}"` })) {
      runs.push({ runId: w.runId, at: w.startTime.getTime() });
    }
    runs.sort((a, b) => a.at - b.at);
    for (const [i, { runId }] of runs.entries()) {
      const json = await fetchHistoryJSON(env.client, WORKFLOW_ID, runId);
      writeFileSync(join(OUT, `${WORKFLOW_ID}.run${i + 1}.json`), json);
    }
    console.log(`wrote ${runs.length} histories`);
  } finally {
    await env.teardown();
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
