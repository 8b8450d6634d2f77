/**
 * `npm run bench -- --only scale [--quick]`: throughput at many concurrent agents. For N concurrent runs of each
 * workflow — `toolPlanWorkflow` with one `check_inventory` call against `bareActivityWorkflow` (one plain activity),
 * and `agentWorkflow` with a scripted planner that makes that call and submits against `bareAgentWorkflow` (the same
 * planner activity and loop, a plain activity for the call; bench/workflows.ts) — on one worker per arm (bare or
 * plugin), each in a process of its own (bench/scale/worker-process.ts): runs/s, p95 end to end (client start →
 * result), the worker's peak RSS and its CPU time per call. At each N the four arms run in turn, `repeat` times
 * (3; `--quick` 1), interleaved and in alternating order (ABCD, DCBA, …) so a slow spell of the machine falls on
 * both sides of a ratio; every figure is the median over the repeats, and each row also keeps the throughput ratio
 * of every repeat. Writes bench/results/scale.json (one row per N and subject, bench/scale/rows.ts) and prints the
 * table. Never gated: these machines are noisy (one run's ratios moved by ±0.1 between runs of the same code).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startBenchServer } from './dev-server';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { supportTools } from '../examples/support-tools';
import { permittedCapabilities } from '../recovery/tool-spec';
import { RecoveryPlugin } from '../plugin/recovery-plugin';
import { builtWorkflowSources } from './built-package';
import { INVENTORY } from './scenarios';
import { machineFacts } from './report';
import { SCALE_GOAL } from './scale/worker-process';
import { percentile } from './stats';
import { formatScale, scaleRowOf, type Measured, type ScaleRow, type Workload } from './scale/rows';
import type { BareAgentOptions } from './workflows';

const RESULTS_FILE = join(__dirname, 'results', 'scale.json');
const WORKER_SCRIPT = join(__dirname, 'scale', 'worker-process.ts');
/** Most workflow start requests in flight at once (the runs themselves are all in flight). */
const START_CONCURRENCY = 100;
/** Bundler output at ERROR level only. */
const quiet = new DefaultLogger('ERROR');

interface ScaleWorker {
  child: ChildProcess;
  taskQueue: string;
  report(): Promise<{ cpuMs: number; peakRssMiB: number }>;
  stop(): Promise<void>;
}

function startWorker(arm: 'bare' | 'plugin', env: Record<string, string>): Promise<ScaleWorker> {
  const taskQueue = `bench-scale-${arm}-${process.pid}`;
  const child = fork(WORKER_SCRIPT, [], {
    execArgv: ['-r', 'ts-node/register'],
    env: { ...process.env, ...env, ARM: arm, TASK_QUEUE: taskQueue },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const next = (type: string) =>
    new Promise<Record<string, number>>((done) => {
      const on = (m: { type?: string } & Record<string, number>) => {
        if (m?.type !== type) return;
        child.off('message', on);
        done(m);
      };
      child.on('message', on);
    });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return next('ready').then(() => ({
    child,
    taskQueue,
    async report() {
      const answer = next('report');
      child.send({ type: 'report' });
      const r = await answer;
      return { cpuMs: r.cpuMs ?? 0, peakRssMiB: r.peakRssMiB ?? 0 };
    },
    async stop() {
      child.send({ type: 'stop' });
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  }));
}

async function inventoryServer(): Promise<{ url: string; server: Server }> {
  const body = JSON.stringify(INVENTORY);
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** Runs `count` tasks with at most `limit` in flight; resolves with their results in order. */
async function pool<T>(count: number, limit: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array<T>(count);
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < count; i = next++) out[i] = await task(i);
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, lane));
  return out;
}

export async function scale(o: { quick: boolean; repeat?: number }): Promise<number> {
  const ns = o.quick ? [100, 1_000] : [100, 500, 1_000];
  const repeat = o.repeat ?? (o.quick ? 1 : 3);
  const tmp = mkdtempSync(join(tmpdir(), 'rr-bench-scale-'));
  const env = await startBenchServer();
  const { url, server } = await inventoryServer();
  const workers: ScaleWorker[] = [];
  try {
    const [bareCode, pluginCode] = await Promise.all([
      bundleWorkflowCode({ workflowsPath: require.resolve('./workflows'), logger: quiet }),
      // The plugin's workflows as a user's worker bundles them: the compiled package (bench/built-package.ts).
      bundleWorkflowCode({ ...builtWorkflowSources(), logger: quiet }),
    ]);
    writeFileSync(join(tmp, 'bare.js'), bareCode.code);
    writeFileSync(join(tmp, 'plugin.js'), pluginCode.code);
    const common = { TEMPORAL_ADDRESS: env.address, SERVICE_URL: url };
    const bare = await startWorker('bare', { ...common, WORKFLOW_BUNDLE: join(tmp, 'bare.js') });
    workers.push(bare);
    const plugin = await startWorker('plugin', { ...common, WORKFLOW_BUNDLE: join(tmp, 'plugin.js') });
    workers.push(plugin);
    const defaults = new RecoveryPlugin({ tools: [supportTools(url).checkInventory] }).workflowDefaults();

    const tool = {
      startToCloseTimeoutMs: 5_000,
      retry: { maximumAttempts: 4, initialInterval: 50, backoffCoefficient: 2, maximumInterval: 1_000 },
    };
    // agentWorkflow's planner defaults (workflows/agent.ts) and the capabilities it shows (no scopes granted).
    const bareAgent: BareAgentOptions = {
      capabilities: permittedCapabilities(defaults.catalog, []),
      planner: { startToCloseTimeoutMs: 150_000, heartbeatTimeoutMs: 10_000, maximumAttempts: 4 },
      tool,
    };
    const isBare = (w: Workload) => w === 'bareActivityWorkflow' || w === 'bareAgentWorkflow';
    const argsOf = (w: Workload): unknown[] => {
      switch (w) {
        case 'bareActivityWorkflow':
          return [{ sku: 'SKU-1', ...tool }];
        case 'bareAgentWorkflow':
          return [SCALE_GOAL, bareAgent];
        case 'toolPlanWorkflow':
          return [{ ...defaults, calls: [{ tool: 'check_inventory', args: { sku: 'SKU-1' } }] }];
        case 'agentWorkflow':
          return [SCALE_GOAL, { ...defaults, searchAttributes: false }];
      }
    };
    const start = (w: Workload, id: string) =>
      env.client.workflow.start(w, {
        taskQueue: isBare(w) ? bare.taskQueue : plugin.taskQueue,
        workflowId: id,
        args: argsOf(w),
      });
    const run = async (w: Workload, n: number, tag: string): Promise<Measured> => {
      const worker = isBare(w) ? bare : plugin;
      await worker.report(); // resets the worker's CPU and peak RSS
      const startedAt = performance.now();
      // All N in flight at once: every run is started (at most START_CONCURRENCY start requests at a time), and
      // only then are the results awaited — the N runs are concurrent on the worker, not START_CONCURRENCY at a time.
      const started = await pool(n, START_CONCURRENCY, async (i) => {
        const t0 = performance.now();
        return { t0, handle: await start(w, `${tag}-${w}-${n}-${i}`) };
      });
      const latencies = await Promise.all(
        started.map(async ({ t0, handle }) => {
          await handle.result();
          return performance.now() - t0;
        }),
      );
      const wallMs = performance.now() - startedAt;
      const usage = await worker.report();
      return {
        runsPerSec: (n * 1000) / wallMs,
        p95Ms: percentile(latencies, 0.95),
        peakRssMiB: usage.peakRssMiB,
        cpuMsPerCall: usage.cpuMs / n,
      };
    };
    const arms = ['bareActivityWorkflow', 'toolPlanWorkflow', 'bareAgentWorkflow', 'agentWorkflow'] as const;
    for (const w of arms) await run(w, 50, 'warmup');

    const rows: ScaleRow[] = [];
    for (const n of ns) {
      const repeats = Object.fromEntries(arms.map((w) => [w, [] as Measured[]])) as Record<Workload, Measured[]>;
      for (let r = 0; r < repeat; r++) {
        for (const w of r % 2 === 0 ? arms : [...arms].reverse()) repeats[w].push(await run(w, n, `m${r}`));
      }
      rows.push(scaleRowOf(n, 'toolPlanWorkflow', repeats), scaleRowOf(n, 'agentWorkflow', repeats));
    }
    const out = {
      benchmark: 'scale',
      date: new Date().toISOString(),
      machine: machineFacts(),
      quick: o.quick,
      repeat,
      rows,
    };
    mkdirSync(dirname(RESULTS_FILE), { recursive: true });
    writeFileSync(RESULTS_FILE, `${JSON.stringify(out, null, 2)}\n`);
    console.log(formatScale(rows));
    console.log(`\nwrote ${RESULTS_FILE}`);
    return 0;
  } finally {
    for (const w of workers) await w.stop();
    server.close();
    await env.teardown();
    rmSync(tmp, { recursive: true, force: true });
  }
}
