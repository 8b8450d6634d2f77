/**
 * SIGKILL of the worker running the shared refresh (docs/DESIGN.md, "Circuit breaker": shared mode; issue 15, "Worker
 * killed mid-refresh"): W = 3 worker processes (test/fixtures/cluster-worker.ts) on the run's dev server, a token
 * endpoint with one-time refresh tokens (test/fixtures/cluster-service.ts) that holds the refresh request open while
 * the test kills, by pid, the worker that sent it.
 *
 * - Killed before the endpoint answered (the refresh token not spent): the refresh is granted again after its lease
 *   (`refreshLeaseMs`, 3 000 ms here), runs once more and succeeds; every call replays with the new token. Token
 *   endpoint: exactly 2 calls, 1 rotation, 0 refused.
 * - Killed after the endpoint spent the token (the new one died with the worker): the refresh granted again after the
 *   lease presents the spent token and is refused (`invalid_grant`); the credential is dead — a stated terminal
 *   state: every call ends `authentication/refresh_failed` ("a person must re-authorise"), and later calls are refused
 *   at once without another endpoint call. Token endpoint: exactly 2 more calls, 1 more rotation, 1 refused.
 * Nothing waits past its bound: every workflow ends, and no worker fell back to a local refresh.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { toolCatalog } from '../../activities/define-tool';
import { credentialEntityId, credentialStateQuery } from '../../workflows/entity-definitions';
import type { ToolPlanResult } from '../../workflows/tool-plan';
import { startCluster, type Cluster } from '../fixtures/cluster';
import { startClusterService, type ClusterService } from '../fixtures/cluster-service';
import { clusterTools } from '../fixtures/cluster-tools';
import { testEnv, uniqueTaskQueue } from '../setup/env';
import { workflowBundle } from './harness';

const W = 3;
/** How long a refresh whose worker died holds its lease before it is granted again (ms). */
const REFRESH_LEASE_MS = 3_000;
const KEY = 'cluster-test-key-0123456789abcdef-0123456789';

let env: TestWorkflowEnvironment;
let service: ClusterService;
let cluster: Cluster;
let tmp: string;
const taskQueue = uniqueTaskQueue('cluster-refresh');
const ns = uniqueTaskQueue('ns');
const credential = `crm-${ns}`;
const catalog = () => toolCatalog(clusterTools(service.url, ns).all);

beforeAll(async () => {
  env = await testEnv();
  service = await startClusterService();
  tmp = mkdtempSync(join(tmpdir(), 'rr-cluster-refresh-'));
  const bundlePath = join(tmp, 'workflows.js');
  writeFileSync(bundlePath, (await workflowBundle()).code);
  cluster = await startCluster({
    workers: W,
    address: process.env.TEMPORAL_TEST_ADDRESS!,
    taskQueue,
    serviceUrl: service.url,
    ns,
    workflowBundlePath: bundlePath,
    plugin: {
      credentialRefresh: {
        shared: true,
        key: KEY,
        // Generous: after the kill, the entity's next workflow task first waits out the dead worker's sticky queue
        // (1 000 ms here) and then replays elsewhere; a request not accepted in time would refresh locally and spend
        // the rotating token on its own (counted in refreshFallbacks, asserted 0).
        timeoutMs: 5_000,
        refreshLeaseMs: REFRESH_LEASE_MS,
        taskQueue: `${taskQueue}-entities`,
      },
    },
  });
});
afterAll(async () => {
  await cluster?.stop();
  await service?.close();
  await env?.teardown();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

async function startPlans(n: number, prefix: string): Promise<string[]> {
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const workflowId = uniqueTaskQueue('cluster-refresh-plan');
      await env.client.workflow.start('toolPlanWorkflow', {
        taskQueue,
        workflowId,
        args: [{ catalog: catalog(), calls: [{ tool: 'crm_read', args: { id: `${prefix}${i}` } }] }],
      });
      return workflowId;
    }),
  );
}
const results = (ids: string[]) =>
  Promise.all(ids.map((id) => env.client.workflow.getHandle(id).result() as Promise<ToolPlanResult>));
const entityState = () => env.client.workflow.getHandle(credentialEntityId(credential)).query(credentialStateQuery);

/** Starts 6 calls refused with a 401, waits for the held refresh request, and SIGKILLs the worker that sent it. */
async function killMidRefresh(prefix: string): Promise<{ ids: string[]; killed: number }> {
  const held = service.token.heldPids.length;
  const ids = await startPlans(6, prefix);
  for (let i = 0; service.token.heldPids.length === held && i < 200; i++) await new Promise((r) => setTimeout(r, 50));
  const killed = service.token.heldPids[held];
  expect(cluster.pids).toContain(killed);
  cluster.kill(killed!); // SIGKILL, while the endpoint holds its refresh request open
  return { ids, killed: killed! };
}

test('killed before the endpoint answered: the refresh is granted again after its lease and succeeds; 2 endpoint calls', async () => {
  const [warmUp] = await results(await startPlans(1, 'warm')); // every later 401 is a worker's at-0 refused
  expect(warmUp?.outcomes[0]).toMatchObject({ ok: true });
  service.current.access = 'at-0-expired';
  service.holdToken = 'unspent';
  const { ids, killed } = await killMidRefresh('a');
  const ended = await results(ids);
  process.stdout.write(`refresh killed unspent: ${JSON.stringify(service.token)} (killed ${killed})\n`);
  for (const r of ended) expect(r.outcomes[0]).toMatchObject({ ok: true, value: { ok: true } });
  expect(service.token).toEqual({ calls: 2, rotations: 1, refused: 0, heldPids: [killed] });
  expect([...service.crm.okTokens]).toEqual(['at-0', 'at-1']);
  expect(await entityState()).toMatchObject({ version: 2, refreshes: 1, dead: false, refreshing: false });
  expect((await cluster.stats()).map((s) => s.refreshFallbacks)).toEqual([0, 0]); // no local refresh anywhere
});

test('killed after the endpoint spent the token: the refresh granted again is refused; the credential ends dead, no loop', async () => {
  const [killedFirst] = service.token.heldPids; // the counts go on from the test above: 2 calls, 1 rotation
  service.current.access = 'at-1-expired';
  service.holdToken = 'spent';
  const { ids, killed } = await killMidRefresh('b');
  const ended = await results(ids);
  process.stdout.write(`refresh killed spent: ${JSON.stringify(service.token)} (killed ${killed})\n`);
  for (const r of ended)
    expect(r.outcomes[0]).toMatchObject({
      ok: false,
      failure: { class: 'authentication', reason: 'refresh_failed' },
    });
  expect(service.token).toEqual({ calls: 4, rotations: 2, refused: 1, heldPids: [killedFirst, killed] });
  expect(await entityState()).toMatchObject({
    version: 2,
    refreshes: 1,
    dead: true,
    refreshing: false,
    lastFailure: 'the provider refused the refresh',
  });
  expect((await cluster.stats()).map((s) => s.refreshFallbacks)).toEqual([0]);
  // Dead is final until an operator resets it: a later call ends at once, with no endpoint call.
  const [later] = await results(await startPlans(1, 'later'));
  expect(later?.outcomes[0]).toMatchObject({
    ok: false,
    failure: { class: 'authentication', reason: 'refresh_failed' },
  });
  expect(service.token.calls).toBe(4);
});
