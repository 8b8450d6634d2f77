/**
 * `npm run bench -- --only promises [--runs N]`: what one run of each scale workload (bench/scale/workloads.ts)
 * creates in workflow code — promises, and the bytes the worker allocates — against its baseline. Temporal's
 * workflow VM captures and source-maps a stack for every promise workflow code creates (for its stack-trace
 * query), so each `await` and each async helper costs CPU and garbage (docs/DESIGN.md, "Performance").
 *
 * Method: one worker per arm with `debugMode: true`, so workflows run in this process's main thread, where a promise
 * hook sees the workflow VM's promises (bench/promises/count.ts); each workload runs `warmup` times, then `runs`
 * times one after another, each run counted once the worker is quiet after it. The bytes come from V8's sampling heap profiler counting the
 * objects garbage collection took back too (the inspector's `HeapProfiler.startSampling`), over the measured runs of
 * the whole process (worker, client and the inventory service), and the part allocated inside the VM's promise
 * hook; and the last run's history (events, protobuf bytes: what the server stores and sends back). Writes
 * bench/results/promises.json (`rows`: one per workload, bench/promises/rows.ts) and prints the table.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Worker, type WorkflowBundle } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createPlannerActivities } from '../activities/planners/planner';
import { supportTools } from '../examples/support-tools';
import { RecoveryPlugin } from '../plugin/recovery-plugin';
import { createBaselineActivities } from './activities';
import { startBenchServer } from './dev-server';
import { countDuring, type WorkloadCount } from './promises/count';
import { formatPromises, promiseRowOf } from './promises/rows';
import { machineFacts } from './report';
import { BASELINE_OF, type Baseline, type Subject, type Workload } from './scale/rows';
import { inventoryServer, scalePlanner, workloadArgs, workloadBundles } from './scale/workloads';

const RESULTS_FILE = join(__dirname, 'results', 'promises.json');
/** Each subject and its baseline. */
const PAIRS = (Object.entries(BASELINE_OF) as [Subject, Baseline][]).map(
  ([subject, baseline]) => [baseline, subject] as const,
);

export async function promisesBench(o: { runs: number; warmup: number }): Promise<number> {
  const { url, server } = await inventoryServer();
  const env = await startBenchServer();
  try {
    const counts = await countWorkloads(env, url, await workloadBundles(), o);
    const rows = PAIRS.map(([baseline, subject]) => promiseRowOf(counts[baseline], counts[subject]));
    const out = { benchmark: 'promises', date: new Date().toISOString(), machine: machineFacts(), ...o, rows };
    mkdirSync(dirname(RESULTS_FILE), { recursive: true });
    writeFileSync(RESULTS_FILE, `${JSON.stringify(out, null, 2)}\n`);
    console.log(formatPromises(rows));
    console.log(`\nwrote ${RESULTS_FILE}`);
    return 0;
  } finally {
    await env.teardown();
    server.close();
  }
}

/**
 * Each workload counted on a debug-mode worker of its arm (one per arm: a worker runs once), against the
 * inventory service at `url`; `bundles` are the bare workflows' (bench/workflows.ts) and the plugin's. Also run by
 * test/temporal/promise-count.test.ts.
 */
export async function countWorkloads(
  env: TestWorkflowEnvironment,
  url: string,
  bundles: { bare: WorkflowBundle; plugin: WorkflowBundle },
  o: { runs: number; warmup: number },
): Promise<Record<Workload, WorkloadCount>> {
  const planner = scalePlanner();
  const tool = supportTools(url).checkInventory;
  const common = { connection: env.nativeConnection, debugMode: true };
  const pluginQueue = `promises-plugin-${process.pid}`;
  const bare = await Worker.create({
    ...common,
    taskQueue: `promises-bare-${process.pid}`,
    workflowBundle: bundles.bare,
    activities: { ...createBaselineActivities(url), ...createPlannerActivities(planner) },
  });
  const plugin = await Worker.create({
    ...common,
    taskQueue: pluginQueue,
    workflowBundle: bundles.plugin,
    plugins: [new RecoveryPlugin({ tools: [tool], planner, config: { taskQueue: pluginQueue } })],
  });
  const argsOf = workloadArgs(url);
  const counts = {} as Record<Workload, WorkloadCount>;
  for (const [worker, workloads] of [
    [bare, PAIRS.map(([baseline]) => baseline)],
    [plugin, PAIRS.map(([, subject]) => subject)],
  ] as const) {
    await worker.runUntil(async () => {
      for (const w of workloads) {
        const runOnce = async (tag: string, i: number) => {
          const handle = await env.client.workflow.start(w, {
            taskQueue: worker.options.taskQueue,
            workflowId: `promises-${process.pid}-${tag}-${w}-${i}`,
            args: argsOf(w),
          });
          await handle.result();
          return handle;
        };
        counts[w] = await countDuring(w, o, runOnce);
      }
    });
  }
  return counts;
}
