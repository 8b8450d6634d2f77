/**
 * `npm run bench -- --only cluster [--quick]`: the shared breaker and refresh against per-worker ones
 * (docs/DESIGN.md, "Circuit breaker": shared mode). W = 3 worker processes (test/fixtures/cluster-worker.ts, 10
 * activity slots each) on a fresh dev server, against the loopback service of test/fixtures/cluster-service.ts, once
 * per mode (`perWorker`: the local default; `shared`):
 *   1. outage from cold: 200 workflows against a service answering 503 from the start: calls that reached it
 *      (`downstreamCalls`); then recovery, and sequential one-call workflows against the healthy service on the warm
 *      circuit, end to end (client start → result), in ms: the added latency per call is the shared median minus
 *      the per-worker median;
 *   2. 401 storm: 30 calls refused together, one-time refresh tokens: calls to the token endpoint;
 *   3. outage mid-traffic: 200 more workflows once the service dies on a warm circuit (`downstreamCallsMidTraffic`:
 *      the calls in flight when it dies reach it in either mode).
 * Writes bench/results/cluster.json. Gate: shared outage calls ≤ threshold + W and exactly 1 shared refresh.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Client } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { startBenchServer } from './dev-server';
import { bundleWorkflowCode } from '@temporalio/worker';
import { toolCatalog } from '../activities/define-tool';
import { DEFAULT_SHARED_TIMEOUT_MS } from '../activities/shared-state';
import { RECOVERY_PRELOAD_MODULES, RECOVERY_WORKFLOWS_PATH } from '../plugin/recovery-plugin';
import { startCluster } from '../test/fixtures/cluster';
import { startClusterService, type ClusterService } from '../test/fixtures/cluster-service';
import { clusterTools } from '../test/fixtures/cluster-tools';
import type { ToolPlanResult } from '../workflows/tool-plan';
import { machineFacts } from './report';
import { percentile } from './stats';

const RESULTS_FILE = join(__dirname, 'results', 'cluster.json');
const W = 3;
const THRESHOLD = 5;
const CONCURRENCY = 10;
const WORKFLOWS = 200;
const STORM = 30;
/**
 * The shared breaker's bound on waits, ms: the default (DEFAULT_SHARED_TIMEOUT_MS, 2 000), or
 * `CLUSTER_SHARED_TIMEOUT_MS` to measure another. Each wait that runs out sends the worker to local state for 5 s.
 */
const SHARED_TIMEOUT_MS = Number(process.env.CLUSTER_SHARED_TIMEOUT_MS ?? DEFAULT_SHARED_TIMEOUT_MS);
/** Longer than the 200 outage workflows take, so no probe goes out during the outage (ms). */
const HALF_OPEN_AFTER_MS = 10_000;
const KEY = 'bench-cluster-key-0123456789abcdef-0123456789';
const quiet = { log: () => undefined, trace: () => undefined, debug: () => undefined, info: () => undefined };

type Mode = 'perWorker' | 'shared';
interface ModeResult {
  downstreamCalls: number;
  downstreamCallsWarm: number;
  refreshCalls: number;
  /** Waits on the shared state that ran out (the shared breaker then used local state). */
  fallbacks: number;
  latencyMs: { p50: number; p95: number };
}

async function runPlans(client: Client, ctx: PlanContext, n: number, tool: string): Promise<ToolPlanResult[]> {
  const ids = await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const workflowId = `cluster-${ctx.ns}-${tool}-${ctx.seq++}`;
      const args = tool.startsWith('crm_') ? { id: `c${i}` } : { region: `r${i % 3}` };
      await client.workflow.start('toolPlanWorkflow', {
        taskQueue: ctx.taskQueue,
        workflowId,
        args: [{ catalog: ctx.catalog, calls: [{ tool, args }] }],
      });
      return workflowId;
    }),
  );
  return Promise.all(ids.map((id) => client.workflow.getHandle(id).result() as Promise<ToolPlanResult>));
}

interface PlanContext {
  ns: string;
  taskQueue: string;
  catalog: ReturnType<typeof toolCatalog>;
  seq: number;
}

async function runMode(
  mode: Mode,
  env: TestWorkflowEnvironment,
  service: ClusterService,
  bundlePath: string,
  samples: number,
): Promise<ModeResult> {
  const ns = `${mode}-${process.pid}`;
  const ctx: PlanContext = {
    ns,
    taskQueue: `bench-cluster-${ns}`,
    catalog: toolCatalog(clusterTools(service.url, ns).all),
    seq: 0,
  };
  const breaker = { threshold: THRESHOLD, halfOpenAfterMs: HALF_OPEN_AFTER_MS };
  const cluster = await startCluster({
    workers: W,
    address: env.address,
    taskQueue: ctx.taskQueue,
    serviceUrl: service.url,
    ns,
    workflowBundlePath: bundlePath,
    maxActivities: CONCURRENCY,
    plugin:
      mode === 'shared'
        ? {
            // The entities on `<taskQueue>-entities` (the default), polled by the Worker the plugin runs beside each.
            breaker: { ...breaker, shared: true, timeoutMs: SHARED_TIMEOUT_MS },
            credentialRefresh: { shared: true, key: KEY },
          }
        : { breaker },
  });
  try {
    // 1. Outage on a cold circuit: the service is down when the workflows start.
    service.reset();
    await runPlans(env.client, ctx, WORKFLOWS, 'service_status');
    const downstreamCalls = service.statusHits;
    // Recovery: up again; after the half-open time the first call probes and the circuit closes.
    service.down = false;
    await new Promise((done) => setTimeout(done, HALF_OPEN_AFTER_MS + 500));
    await runPlans(env.client, ctx, 10, 'service_status'); // warm: the probe, then every worker's bundle loaded
    const latencies: number[] = [];
    for (let i = 0; i < samples; i++) {
      const t0 = performance.now();
      await runPlans(env.client, ctx, 1, 'service_status');
      latencies.push(performance.now() - t0);
    }
    // 2. 401 storm.
    await runPlans(env.client, ctx, 1, 'crm_storm_read'); // warm crm's circuit
    service.hold401s = STORM;
    service.current.access = 'at-0-expired';
    await runPlans(env.client, ctx, STORM, 'crm_storm_read');
    const refreshCalls = service.token.calls;
    // 3. Outage mid-traffic: the circuit is warm, every activity slot may hold a call when the service dies.
    service.down = true;
    const before = service.statusHits;
    await runPlans(env.client, ctx, WORKFLOWS, 'service_status');
    const round = (x: number) => Math.round(x * 10) / 10;
    const fallbacks = (await cluster.stats()).reduce((n, st) => n + st.fallbacks, 0);
    return {
      downstreamCalls,
      downstreamCallsWarm: service.statusHits - before,
      refreshCalls,
      fallbacks,
      latencyMs: { p50: round(percentile(latencies, 0.5)), p95: round(percentile(latencies, 0.95)) },
    };
  } finally {
    await cluster.stop();
  }
}

export async function clusterBench(o: { quick: boolean }): Promise<number> {
  const samples = o.quick ? 20 : 50;
  const tmp = mkdtempSync(join(tmpdir(), 'rr-bench-cluster-'));
  const env = await startBenchServer();
  const service = await startClusterService();
  try {
    const bundle = await bundleWorkflowCode({
      workflowsPath: RECOVERY_WORKFLOWS_PATH,
      preloadModules: [...RECOVERY_PRELOAD_MODULES, RECOVERY_WORKFLOWS_PATH],
      logger: { ...quiet, warn: () => undefined, error: console.error },
    });
    const bundlePath = join(tmp, 'workflows.js');
    writeFileSync(bundlePath, bundle.code);
    const perWorker = await runMode('perWorker', env, service, bundlePath, samples);
    const shared = await runMode('shared', env, service, bundlePath, samples);
    const report = {
      workers: W,
      workflows: WORKFLOWS,
      threshold: THRESHOLD,
      concurrencyPerWorker: CONCURRENCY,
      bound: { shared: THRESHOLD + W, perWorker: W * (THRESHOLD + CONCURRENCY) },
      downstreamCalls: { shared: shared.downstreamCalls, perWorker: perWorker.downstreamCalls },
      downstreamCallsMidTraffic: { shared: shared.downstreamCallsWarm, perWorker: perWorker.downstreamCallsWarm },
      sharedTimeoutMs: SHARED_TIMEOUT_MS,
      sharedFallbacks: shared.fallbacks,
      storm401s: STORM,
      refreshCalls: { shared: shared.refreshCalls, perWorker: perWorker.refreshCalls },
      latencyMs: { shared: shared.latencyMs, perWorker: perWorker.latencyMs, samples },
      addedLatencyMsPerCall: Math.round((shared.latencyMs.p50 - perWorker.latencyMs.p50) * 10) / 10,
      machine: machineFacts(),
    };
    mkdirSync(dirname(RESULTS_FILE), { recursive: true });
    writeFileSync(RESULTS_FILE, `${JSON.stringify(report, null, 2)}\n`);
    const row = (m: ModeResult) => ({
      cold: m.downstreamCalls,
      midTraffic: m.downstreamCallsWarm,
      refreshCalls: m.refreshCalls,
      fallbacks: m.fallbacks,
      ...m.latencyMs,
    });
    console.table({ perWorker: row(perWorker), shared: row(shared) });
    console.log(`added latency per call (p50, warm circuit): ${report.addedLatencyMsPerCall} ms → ${RESULTS_FILE}`);
    return shared.downstreamCalls <= THRESHOLD + W && shared.refreshCalls === 1 ? 0 : 1;
  } finally {
    await service.close();
    await env.teardown();
    rmSync(tmp, { recursive: true, force: true });
  }
}
