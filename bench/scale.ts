/**
 * `npm run bench -- --only scale [--quick] [--repeat R] [--sizes 100,500,1000]`: throughput at many concurrent
 * agents. For N concurrent runs of each workflow — `toolPlanWorkflow` with one `check_inventory` call against
 * `bareActivityWorkflow` (one plain activity), and `agentWorkflow` with a scripted planner that makes that call and
 * submits against `bareAgentWorkflow` (the same planner activity and loop, a plain activity for the call;
 * bench/workflows.ts) — on one worker per arm (bare or plugin), each in a process of its own
 * (bench/scale/worker-process.ts): runs/s, p95 end to end (client start → result), the worker's peak and mean RSS,
 * its CPU time per call and the dev server's. Each N has a dev server of its own, and each subject and its baseline
 * a pair of workers of their own; the pair runs `repeat` times (4; `--quick` 1), interleaved and in alternating
 * order (AB, BA, …) so a slow spell of the machine falls on both sides of a ratio; every figure is the median over
 * the repeats but the throughput ratio, the geometric mean of the repeats' own ratios (kept in each row). Writes
 * bench/results/scale.json (one row per N and subject, bench/scale/rows.ts) and prints the table. Never gated: these
 * machines are noisy (single repeats of the same code spread from ×0.54 to ×1.6).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startBenchServer } from './dev-server';
import { machineFacts } from './report';
import { childPidNamed, cpuMsOf } from './scale/process-cpu';
import { percentile } from './stats';
import { inventoryServer, workloadArgs, workloadBundles } from './scale/workloads';
import { BASELINE_OF, formatScale, scaleRowOf, type Measured, type ScaleRow, type Workload } from './scale/rows';

const RESULTS_FILE = join(__dirname, 'results', 'scale.json');
const WORKER_SCRIPT = join(__dirname, 'scale', 'worker-process.ts');
/** Most workflow start requests in flight at once (the runs themselves are all in flight). */
const START_CONCURRENCY = 100;

interface ScaleWorker {
  child: ChildProcess;
  taskQueue: string;
  report(): Promise<{ cpuMs: number; peakRssMiB: number; meanRssMiB: number }>;
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
      return { cpuMs: r.cpuMs ?? 0, peakRssMiB: r.peakRssMiB ?? 0, meanRssMiB: r.meanRssMiB ?? 0 };
    },
    async stop() {
      child.send({ type: 'stop' });
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  }));
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

/** The prebuilt workflow bundles' paths and the inventory service both arms call. */
interface Fixture {
  bareBundle: string;
  pluginBundle: string;
  url: string;
}

export async function scale(o: { quick: boolean; repeat?: number; sizes?: readonly number[] }): Promise<number> {
  const ns = o.sizes ?? (o.quick ? [1_000] : [100, 500, 1_000]);
  const repeat = o.repeat ?? (o.quick ? 1 : 4);
  const tmp = mkdtempSync(join(tmpdir(), 'rr-bench-scale-'));
  const { url, server } = await inventoryServer();
  try {
    const bundles = await workloadBundles();
    const fixture = { bareBundle: join(tmp, 'bare.js'), pluginBundle: join(tmp, 'plugin.js'), url };
    writeFileSync(fixture.bareBundle, bundles.bare.code);
    writeFileSync(fixture.pluginBundle, bundles.plugin.code);
    const rows: ScaleRow[] = [];
    const warmup = o.quick ? 20 : 50;
    for (const n of ns) rows.push(...(await measureAt(n, { repeat, warmup }, fixture)));
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
    server.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * Every arm at one N, `repeat` times, on a dev server of its own: the dev server's CPU per run grows with the runs
 * it holds (measured: 21 → 29 ms per `bareActivityWorkflow` run over 8 000 runs), so a fresh one per N keeps the
 * 1 000 row from being measured on a server already holding the smaller Ns' runs. Each subject and its baseline get
 * a bare and a plugin worker of their own, started for them, so a row's RSS is that workflow's alone (a worker that
 * served the other workload first keeps the heap that one grew). The pair runs in alternating order (AB, BA, …) so
 * that, over an even `repeat`, a steady slowdown within the N cancels out of each repeat's ratio
 * (bench/scale/rows.ts).
 */
async function measureAt(
  n: number,
  { repeat, warmup }: { repeat: number; warmup: number },
  fixture: Fixture,
): Promise<ScaleRow[]> {
  const env = await startBenchServer();
  const serverPid = childPidNamed('temporal');
  const repeats = Object.fromEntries(ARMS.map((w) => [w, [] as Measured[]])) as Record<Workload, Measured[]>;
  try {
    for (const subject of SUBJECTS) {
      const pair = [BASELINE_OF[subject], subject] as const;
      await measurePair(pair, { n, repeat, warmup, fixture, env, serverPid, into: repeats });
    }
    return SUBJECTS.map((subject) => scaleRowOf(n, subject, repeats));
  } finally {
    await env.teardown();
  }
}

interface PairRun {
  n: number;
  repeat: number;
  fixture: Fixture;
  env: Awaited<ReturnType<typeof startBenchServer>>;
  serverPid: number | undefined;
  /** Warm-up runs per arm before the measured ones (50; `--quick` 20). */
  warmup: number;
  /** Each workload's repeats, appended to. */
  into: Record<Workload, Measured[]>;
}

/** A baseline and its subject, each on a fresh worker: `warmup` runs each, then `repeat` interleaved rounds of N. */
async function measurePair(pair: readonly [Workload, Workload], o: PairRun): Promise<void> {
  const common = { TEMPORAL_ADDRESS: o.env.address, SERVICE_URL: o.fixture.url };
  const workers: ScaleWorker[] = [];
  try {
    const [bare, plugin] = await Promise.all([
      startWorker('bare', { ...common, WORKFLOW_BUNDLE: o.fixture.bareBundle }),
      startWorker('plugin', { ...common, WORKFLOW_BUNDLE: o.fixture.pluginBundle }),
    ]);
    workers.push(bare, plugin);
    const argsOf = workloadArgs(o.fixture.url);
    const run = async (w: Workload, count: number, tag: string): Promise<Measured> => {
      const worker = isBare(w) ? bare : plugin;
      const start = (id: string) =>
        o.env.client.workflow.start(w, { taskQueue: worker.taskQueue, workflowId: id, args: argsOf(w) });
      return measureRuns(worker, count, (i) => start(`${tag}-${w}-${count}-${i}`), o.serverPid);
    };
    for (const w of pair) await run(w, o.warmup, 'warmup');
    for (let r = 0; r < o.repeat; r++) {
      for (const w of r % 2 === 0 ? pair : [...pair].reverse()) o.into[w].push(await run(w, o.n, `m${r}`));
    }
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
  }
}

const SUBJECTS = ['toolPlanWorkflow', 'agentWorkflow'] as const;
const ARMS = ['bareActivityWorkflow', 'toolPlanWorkflow', 'bareAgentWorkflow', 'agentWorkflow'] as const;
const isBare = (w: Workload) => w === 'bareActivityWorkflow' || w === 'bareAgentWorkflow';

/**
 * `count` runs all in flight at once on `worker`: every run is started (at most START_CONCURRENCY start requests
 * at a time), and only then are the results awaited — the runs are concurrent on the worker, not
 * START_CONCURRENCY at a time. Returns runs/s, p95 end to end, and the worker's and the server's CPU per run.
 */
async function measureRuns(
  worker: ScaleWorker,
  count: number,
  start: (i: number) => Promise<{ result(): Promise<unknown> }>,
  serverPid: number | undefined,
): Promise<Measured> {
  await worker.report(); // resets the worker's CPU and its RSS window
  const serverFrom = cpuMsOf(serverPid);
  const startedAt = performance.now();
  const started = await pool(count, START_CONCURRENCY, async (i) => {
    const t0 = performance.now();
    return { t0, handle: await start(i) };
  });
  const latencies = await Promise.all(
    started.map(async ({ t0, handle }) => {
      await handle.result();
      return performance.now() - t0;
    }),
  );
  const wallMs = performance.now() - startedAt;
  const serverTo = cpuMsOf(serverPid);
  const usage = await worker.report();
  return {
    runsPerSec: (count * 1000) / wallMs,
    p95Ms: percentile(latencies, 0.95),
    peakRssMiB: usage.peakRssMiB,
    meanRssMiB: usage.meanRssMiB,
    cpuMsPerCall: usage.cpuMs / count,
    ...(serverFrom !== undefined && serverTo !== undefined
      ? { serverCpuMsPerCall: (serverTo - serverFrom) / count }
      : {}),
  };
}
