/**
 * The shared breaker and the shared credential refresh on a real cluster: W = 3 worker processes
 * (test/fixtures/cluster-worker.ts) on the run's dev server, against a loopback service
 * (test/fixtures/cluster-service.ts). docs/DESIGN.md, "Circuit breaker" (shared mode).
 *
 * - Outage: 200 workflows against a service answering 503: the downstream sees at most threshold + W calls
 *   (here 5 + 3 = 8), not W × (threshold + concurrency); every workflow ends routed as transient.
 * - Recovery: once the service is up and the half-open time has passed, exactly one probe is granted and the
 *   circuit closes; then every call succeeds with one request each.
 * - 401 storm: 30 calls refused together across the workers, one-time refresh tokens: exactly 1 refresh call, and
 *   every call replays with the new token (version 2).
 * - The entities' histories, written by the 3 workers, replay against the current workflow code.
 * - SIGKILL of the worker holding the half-open probe (its request hangs): after the lease (3 000 ms here) the
 *   probe is granted again, once; the circuit closes and every workflow, the killed probe's included, succeeds.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { toolCatalog } from '../../activities/define-tool';
import { fetchHistoryJSON, replayWorkflowsFromServer } from '../../plugin/replay';
import {
  breakerEntityId,
  breakerStateQuery,
  credentialEntityId,
  credentialStateQuery,
} from '../../workflows/entity-definitions';
import type { ToolPlanResult } from '../../workflows/tool-plan';
import { startCluster, type Cluster } from '../fixtures/cluster';
import { startClusterService, type ClusterService } from '../fixtures/cluster-service';
import { clusterTools } from '../fixtures/cluster-tools';
import { testEnv, uniqueTaskQueue } from '../setup/env';
import { workflowBundle } from './harness';

const W = 3;
const THRESHOLD = 5;
/** The breakers' half-open time (ms): an opened circuit grants a probe this long after it opened, not before. */
const HALF_OPEN_AFTER_MS = 10_000;
/** How long a granted probe may stay unreported before it is granted again (ms). */
const PROBE_LEASE_MS = 3_000;
const KEY = 'cluster-test-key-0123456789abcdef-0123456789';

let env: TestWorkflowEnvironment;
let service: ClusterService;
let cluster: Cluster;
let tmp: string;
const taskQueue = uniqueTaskQueue('cluster');
const ns = uniqueTaskQueue('ns');
const downstream = `status-svc-${ns}`;
const catalog = () => toolCatalog(clusterTools(service.url, ns).all);

beforeAll(async () => {
  env = await testEnv();
  service = await startClusterService();
  tmp = mkdtempSync(join(tmpdir(), 'rr-cluster-'));
  const bundlePath = join(tmp, 'workflows.js');
  writeFileSync(bundlePath, (await workflowBundle()).code);
  cluster = await startCluster({
    workers: W,
    address: process.env.TEMPORAL_TEST_ADDRESS!,
    taskQueue,
    serviceUrl: service.url,
    ns,
    workflowBundlePath: bundlePath,
    // A generous bound on the loaded 2-core CI machine (three jest workers beside the cluster): a fallback to local
    // state here would be a test failure — at 2 s, a loaded run fell back and let 24 calls through.
    plugin: {
      // The entities on a queue of their own (a second Worker per process), so the burst cannot delay them.
      breaker: {
        shared: true,
        threshold: THRESHOLD,
        halfOpenAfterMs: HALF_OPEN_AFTER_MS,
        timeoutMs: 10_000,
        probeLeaseMs: PROBE_LEASE_MS,
        taskQueue: `${taskQueue}-entities`,
      },
      credentialRefresh: { shared: true, key: KEY, timeoutMs: 10_000, taskQueue: `${taskQueue}-entities` },
    },
  });
});
afterAll(async () => {
  await cluster?.stop();
  await service?.close();
  await env?.teardown();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

async function startPlans(n: number): Promise<string[]> {
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const workflowId = uniqueTaskQueue('cluster-kill');
      const calls = [{ tool: 'service_status', args: { region: `p${i}` } }];
      await env.client.workflow.start('toolPlanWorkflow', {
        taskQueue,
        workflowId,
        args: [{ catalog: catalog(), calls }],
      });
      return workflowId;
    }),
  );
}

async function runPlans(n: number, tool: string, args: (i: number) => object): Promise<ToolPlanResult[]> {
  const ids = await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const workflowId = uniqueTaskQueue('cluster-plan');
      await env.client.workflow.start('toolPlanWorkflow', {
        taskQueue,
        workflowId,
        args: [{ catalog: catalog(), calls: [{ tool, args: args(i) }] }],
      });
      return workflowId;
    }),
  );
  return Promise.all(ids.map((id) => env.client.workflow.getHandle(id).result() as Promise<ToolPlanResult>));
}

const breakerState = () => env.client.workflow.getHandle(breakerEntityId(downstream)).query(breakerStateQuery);

test('outage: 200 workflows on 3 workers cost the downstream ≤ threshold + W calls; recovery: exactly one probe, then closed', async () => {
  service.down = true;
  const outage = await runPlans(200, 'service_status', (i) => ({ region: `r${i % 3}` }));
  const outageCalls = service.statusHits;
  process.stdout.write(`cluster outage: ${outageCalls} downstream calls for 200 workflows on ${W} workers\n`);
  expect(outage).toHaveLength(200);
  for (const r of outage) expect(r.outcomes[0]).toMatchObject({ ok: false, failure: { class: 'transient' } });
  const open = await breakerState();
  // On a loaded machine the 200 runs can outlast the half-open time: each probe granted during the outage is one
  // more downstream call, fails, and reopens the circuit. The bound holds for any timing: threshold + W + probes.
  const outageProbes = open.totals.probesGranted;
  expect(open).toMatchObject({ state: 'open', consecutiveFailures: THRESHOLD, totals: { opens: 1 + outageProbes } });
  expect(outageCalls).toBeGreaterThanOrEqual(THRESHOLD + outageProbes);
  expect(outageCalls).toBeLessThanOrEqual(THRESHOLD + W + outageProbes);
  // A probe is granted from reopenAtMs on, and each opening (the first, and one per failed probe) schedules it a
  // whole half-open time after itself, on the entity's workflow clock: asserted as scheduled, never as the run's
  // measured length.
  expect(open.reopenAtMs! - open.openedAtMs!).toBe(HALF_OPEN_AFTER_MS);
  expect(open.totals.failures).toBe(outageCalls);

  // Recovery: the service is up; wait out the half-open time (workflow clock), then 30 calls at once.
  service.down = false;
  await new Promise((r) => setTimeout(r, Math.max(0, open.reopenAtMs! - Date.now()) + 200));
  const before = service.statusHits;
  const recovered = await runPlans(30, 'service_status', (i) => ({ region: `r${i % 3}` }));
  for (const r of recovered) expect(r.outcomes[0]).toMatchObject({ ok: true, value: { up: true } });
  expect(service.statusHits - before).toBe(30); // the probe, then one request per call: nothing else went out
  const closed = await breakerState();
  expect(closed).toMatchObject({
    state: 'closed',
    consecutiveFailures: 0,
    warm: true,
    totals: { opens: 1 + outageProbes, probesGranted: outageProbes + 1, leaseExpiries: 0 },
  });
  expect(closed.probe).toBeUndefined();
  const stats = await cluster.stats();
  expect(stats.map((s) => s.fallbacks)).toEqual([0, 0, 0]);
});

test('401 storm: 30 calls refused together across 3 workers, one-time refresh tokens → exactly 1 refresh; every call replays with the new token', async () => {
  // One call warms the circuit of crm_storm_read for every worker (a cold one lets one call per worker at a time).
  const [warmUp] = await runPlans(1, 'crm_storm_read', () => ({ id: 'warm-up' }));
  expect(warmUp?.outcomes[0]).toMatchObject({ ok: true });
  service.crm = { ok: 0, refused: 0, okTokens: new Set() };
  service.hold401s = 30;
  service.current.access = 'at-0-expired'; // the workers' at-0 is refused from now on: a refresh is needed
  const results = await runPlans(30, 'crm_storm_read', (i) => ({ id: `c${i}` }));
  process.stdout.write(`cluster 401 storm: ${service.token.calls} refresh calls, ${service.crm.refused} 401s\n`);
  expect(service.crm.refused).toBe(30);
  expect(service.token).toEqual({ calls: 1, rotations: 1, refused: 0, heldPids: [] });
  expect(service.crm.ok).toBe(30);
  expect([...service.crm.okTokens]).toEqual(['at-1']);
  // Each call: the refused activity, then the replay with evidence credential_refreshed and the new token.
  for (const r of results) expect(r.outcomes[0]).toMatchObject({ ok: true, value: { ok: true }, activities: 2 });
  const state = await env.client.workflow.getHandle(credentialEntityId(`crm-${ns}`)).query(credentialStateQuery);
  expect(state).toMatchObject({ credential: `crm-${ns}`, version: 2, refreshes: 1, dead: false, refreshing: false });
});

test("the entities' real histories, written by 3 workers, replay without a determinism error", async () => {
  const ids = [breakerEntityId(downstream), credentialEntityId(`crm-${ns}`)];
  const outcomes = await replayWorkflowsFromServer(env.client, ids);
  expect(outcomes.map((o) => [o.workflowId, o.error?.message])).toEqual(ids.map((id) => [id, undefined]));
  // `RECORD_ENTITY_HISTORIES=1` keeps them for test/temporal/replay.test.ts (as breaker-entity.json, credential-entity.json).
  if (process.env.RECORD_ENTITY_HISTORIES === '1') {
    const dir = join(__dirname, '..', 'histories');
    writeFileSync(join(dir, 'breaker-entity.json'), await fetchHistoryJSON(env.client, ids[0]!));
    writeFileSync(join(dir, 'credential-entity.json'), await fetchHistoryJSON(env.client, ids[1]!));
  }
});

test('SIGKILL of the worker holding the probe: the probe is granted again after its lease, the circuit closes, nothing is stuck', async () => {
  service.down = true;
  await runPlans(10, 'service_status', (i) => ({ region: `k${i}` })); // opens the (warm) circuit again
  const open = await breakerState();
  expect(open.state).toBe('open');
  service.down = false;
  service.hang = true; // the probe's request will get no answer
  await new Promise((r) => setTimeout(r, Math.max(0, open.reopenAtMs! - Date.now()) + 200));
  const [hungId] = await startPlans(1);
  let probe = (await breakerState()).probe;
  for (let i = 0; !probe && i < 100; i++) {
    await new Promise((r) => setTimeout(r, 100));
    probe = (await breakerState()).probe;
  }
  const holderPid = Number(probe!.holder.split(':').pop());
  expect(cluster.pids).toContain(holderPid);
  cluster.kill(holderPid); // SIGKILL, mid-probe
  service.hang = false;
  // Until the instant the entity scheduled for the lease's end (its leaseUntilMs: the grant + PROBE_LEASE_MS).
  await new Promise((r) => setTimeout(r, Math.max(0, probe!.leaseUntilMs - Date.now()) + 200));
  const after = await Promise.all([
    env.client.workflow.getHandle(hungId!).result() as Promise<ToolPlanResult>,
    ...(await startPlans(5)).map((id) => env.client.workflow.getHandle(id).result() as Promise<ToolPlanResult>),
  ]);
  for (const r of after) expect(r.outcomes[0]).toMatchObject({ ok: true, value: { up: true } });
  const closed = await breakerState();
  expect(closed).toMatchObject({ state: 'closed', consecutiveFailures: 0 });
  expect(closed.probe).toBeUndefined();
  expect(closed.totals.leaseExpiries).toBe(1);
  expect(closed.totals.probesGranted - open.totals.probesGranted).toBe(2);
});
