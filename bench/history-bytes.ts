/**
 * `npm run bench -- --only history`: what one run writes to Temporal with 1, 10 and 50 tools in the worker's catalog
 * (issue 29): the start input's bytes (the WorkflowExecutionStarted event's input payloads) and the whole history's
 * (encoded, payloads included), for `toolPlanWorkflow` with one `check_inventory` call started two ways — with
 * `plugin.workflowDefaults()` in its input (the catalog in every run's input, as before) and with its calls only (the
 * catalog and policy from the worker: docs/DESIGN.md, "Workflow code and the worker") — against
 * `bareActivityWorkflow` (one plain activity). Each of the n − 1 extra tools has an input schema of six described
 * fields (≈ 1.5 KB of JSON Schema), as a real API's tools do. Writes bench/results/history-bytes.json.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { z } from 'zod';
import { defineTool, type AnyTool } from '../activities/define-tool';
import { startScriptedService } from '../examples/scripted-service';
import { supportTools } from '../examples/support-tools';
import { RecoveryPlugin } from '../plugin/recovery-plugin';
import { createBaselineActivities } from './activities';
import { startBenchServer } from './dev-server';
import { historyBytes } from './events';
import { alignedTable } from './table';

const TOOL_COUNTS = [1, 10, 50] as const;

/** The i-th extra tool: a read with six described fields. Never called. */
function extraTool(i: number): AnyTool {
  const text = (what: string) => z.string().min(1).max(200).describe(`The ${what} of the record, as the API names it.`);
  return defineTool({
    name: `lookup_record_${i}`,
    description: `Reads record kind ${i} of the account: its status, owner and the last change, for the planner.`,
    input: z.object({
      accountId: text('account id'),
      recordId: text('record id'),
      region: z.enum(['eu-west-1', 'us-east-1', 'ap-south-1']).describe('Where the record is stored.'),
      includeHistory: z.boolean().describe('Whether to return the change history too.'),
      limit: z.number().int().min(1).max(100).describe('At most this many history entries.'),
      fields: z.array(text('field name')).max(20).describe('The fields to return; all when empty.'),
    }),
    output: z.object({ status: z.string() }),
    effect: 'read',
    async execute() {
      return { status: 'never called' };
    },
  });
}

interface Row {
  tools: number;
  arm: string;
  startInputBytes: number;
  historyBytes: number;
  events: number;
}

async function measure(env: TestWorkflowEnvironment, workflowId: string): Promise<Omit<Row, 'tools' | 'arm'>> {
  const history = await env.client.workflow.getHandle(workflowId).fetchHistory();
  const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
  const payloads = started?.input?.payloads ?? [];
  const startInputBytes = payloads.reduce((n, p) => n + (p.data?.length ?? 0) + (p.metadata?.encoding?.length ?? 0), 0);
  return { startInputBytes, historyBytes: historyBytes(history), events: history.events?.length ?? 0 };
}

/** Runs each start in turn on one `worker` (a Worker runs once) and measures each run. */
async function runArms(env: TestWorkflowEnvironment, worker: Worker, starts: ((id: string) => Promise<unknown>)[]) {
  const ids: string[] = [];
  await worker.runUntil(async () => {
    for (const start of starts) {
      const workflowId = `history-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
      ids.push(workflowId);
      await start(workflowId);
    }
  });
  return Promise.all(ids.map((id) => measure(env, id)));
}

export async function historyBench(): Promise<number> {
  const env = await startBenchServer();
  const service = await startScriptedService({ 'GET /inventory': [{ status: 200, body: { items: [{ id: 'a' }] } }] });
  const rows: Row[] = [];
  try {
    const queue = 'history-bare';
    const bare = await Worker.create({
      connection: env.nativeConnection,
      taskQueue: queue,
      workflowsPath: require.resolve('./workflows'),
      activities: createBaselineActivities(service.url),
    });
    const retry = { maximumAttempts: 4, initialInterval: 500, backoffCoefficient: 2, maximumInterval: 10_000 };
    const args = [{ sku: 'SKU-1', startToCloseTimeoutMs: 5_000, retry }];
    const [bareRow] = await runArms(env, bare, [
      (workflowId) => env.client.workflow.execute('bareActivityWorkflow', { taskQueue: queue, workflowId, args }),
    ]);
    for (const n of TOOL_COUNTS) {
      const tools = [
        supportTools(service.url).checkInventory,
        ...Array.from({ length: n - 1 }, (_, i) => extraTool(i)),
      ];
      const taskQueue = `history-${n}`;
      const plugin = new RecoveryPlugin({ tools, config: { taskQueue }, searchAttributes: false });
      const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, plugins: [plugin] });
      const calls = [{ tool: 'check_inventory', args: { sku: 'SKU-1' } }];
      const plan = (input: object) => (workflowId: string) =>
        env.client.workflow.execute('toolPlanWorkflow', { taskQueue, workflowId, args: [input] });
      const [inInput, fromWorker] = await runArms(env, worker, [
        plan({ ...plugin.workflowDefaults(), calls }),
        plan({ calls }),
      ]);
      rows.push({ tools: n, arm: 'bareActivityWorkflow', ...bareRow! });
      rows.push({ tools: n, arm: 'catalog in the input', ...inInput! });
      rows.push({ tools: n, arm: 'catalog from the worker', ...fromWorker! });
    }
  } finally {
    await service.close();
    await env.teardown();
  }
  const table = rows.map((r) => {
    const bare = rows.find((b) => b.tools === r.tools && b.arm === 'bareActivityWorkflow')!;
    return [r.tools, r.arm, r.startInputBytes, r.historyBytes, r.events, r.historyBytes - bare.historyBytes].map(
      String,
    );
  });
  const head = ['tools', 'run', 'start input bytes', 'history bytes', 'events', 'history over bare'];
  console.log(alignedTable('One run: start input and history, by tools in the catalog', head, table));
  writeFileSync(join(__dirname, 'results', 'history-bytes.json'), `${JSON.stringify({ rows }, null, 2)}\n`);
  return 0;
}
