/**
 * Shared state that cannot be reached (docs/DESIGN.md, "Circuit breaker": shared mode): calls proceed on the
 * worker's local breaker and local refresh, and no call waits on the shared state longer than the stated bound,
 * `timeoutMs` = 2 000 ms (the default of both), asserted as the bound each wait was scheduled with (the worker's log)
 * and on the breaker's injected clock, never as a measured wait. Two ways to be unreachable, on the run's dev server:
 * - no worker polls the entities' task queue (the update is never accepted);
 * - the Temporal frontend itself is unreachable (a client of a loopback port that accepts TCP and never answers).
 * After one wait runs out, the shared state is left alone for `backoffMs` (5 000 ms): the next calls wait 0 ms.
 */
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { Client, Connection } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { CircuitOpen, DownstreamFault } from '../../activities/breaker';
import { CredentialBroker } from '../../activities/credentials';
import { SharedBreaker } from '../../activities/shared-breaker';
import { sharedRefresh } from '../../activities/shared-credentials';
import { DEFAULT_SHARED_TIMEOUT_MS } from '../../activities/shared-state';
import { breakerEntityId, credentialEntityId } from '../../workflows/entity-definitions';
import type { ToolPlanResult } from '../../workflows/tool-plan';
import { startClusterService, type ClusterService } from '../fixtures/cluster-service';
import { clusterTools } from '../fixtures/cluster-tools';
import { Runtime } from '@temporalio/worker';
import { testEnv, uniqueTaskQueue } from '../setup/env';
import { harness } from './harness';

/** The stated bound on one wait for the shared state, ms: the default (breaker and refresh). */
const BOUND_MS = DEFAULT_SHARED_TIMEOUT_MS;
/** The stated backoff after a wait ran out, ms (`SharedStateOptions.backoffMs`' default). */
const BACKOFF_MS = 5_000;

let env: TestWorkflowEnvironment;
let service: ClusterService;
let blackhole: Server;
let silent: Client;
const sockets = new Set<Socket>();
beforeAll(async () => {
  env = await testEnv();
  service = await startClusterService();
  blackhole = createServer((s) => void sockets.add(s.on('error', () => undefined)));
  await new Promise<void>((done) => blackhole.listen(0, '127.0.0.1', done));
  const address = `127.0.0.1:${(blackhole.address() as AddressInfo).port}`;
  // No retry interceptor: nothing of this client keeps running after the test.
  silent = new Client({ connection: Connection.lazy({ address, interceptors: [] }) });
});
/** Entities created on a queue nobody polls: terminated at the end, which ends the client's wait on their updates. */
const created: string[] = [];
afterAll(async () => {
  for (const id of created)
    await env.client.workflow
      .getHandle(id)
      .terminate('test over')
      .catch(() => undefined);
  await new Promise((done) => setTimeout(done, 500));
  await silent?.connection.close();
  for (const s of sockets) s.destroy();
  await new Promise((done) => blackhole?.close(done));
  await service?.close();
  await env?.teardown();
});

/**
 * Why each call fell back to local state, as the worker's log says it: the bound a wait was scheduled with is in
 * the reason (`… did not answer in 2000 ms`), so the test asserts the scheduled bound, never a measured wait.
 */
function fallbackReasons(): { reasons: string[]; restore: () => void } {
  const reasons: string[] = [];
  const spy = jest.spyOn(Runtime.instance().logger, 'warn').mockImplementation((message, meta) => {
    if (message.startsWith('recovery-router: shared state unreachable'))
      reasons.push(String((meta as { reason?: unknown } | undefined)?.reason));
  });
  return { reasons, restore: () => spy.mockRestore() };
}

type Where = () => { client: Client; taskQueue: string };
const unreachable: [string, Where][] = [
  ['no worker polls the entity task queue', () => ({ client: env.client, taskQueue: uniqueTaskQueue('nobody') })],
  ['the frontend does not answer', () => ({ client: silent, taskQueue: uniqueTaskQueue('closed') })],
];

describe.each(unreachable)('%s', (_name, where) => {
  test('calls run on the local breaker after one wait scheduled for the 2 000 ms bound, then without waiting for 5 000 ms; the local breaker still opens', async () => {
    const downstream = uniqueTaskQueue('svc'); // entity ids are namespace-wide: one per test
    created.push(breakerEntityId(downstream));
    let clockMs = 1_000_000; // the breaker's clock, which decides the backoff (SharedBreaker's `now`)
    const breaker = new SharedBreaker(
      { shared: true, threshold: 3, halfOpenAfterMs: 60_000, ...where() },
      undefined,
      () => clockMs,
    );
    const log = fallbackReasons();
    try {
      expect(await breaker.execute(downstream, async () => 'answered')).toBe('answered');
      expect(log.reasons).toEqual([`shared state for ${breakerEntityId(downstream)} did not answer in ${BOUND_MS} ms`]);
      expect(breaker.channel.fallbacks).toBe(1);
      // Backing off: the next calls do not touch the shared state at all until exactly 5 000 ms later.
      expect(breaker.channel.reachable()).toBe(false);
      expect(await breaker.execute(downstream, async () => 'answered')).toBe('answered');
      const fault = () =>
        breaker
          .execute(downstream, async () => Promise.reject(new DownstreamFault(new Error('503'))))
          .catch((err: unknown) => err);
      for (let i = 0; i < 3; i++) expect(((await fault()) as Error).message).toBe('503');
      expect(await fault()).toBeInstanceOf(CircuitOpen);
      expect(breaker.local.state(downstream)).toBe('open');
      expect(breaker.channel.fallbacks).toBe(1);
      clockMs += BACKOFF_MS - 1;
      expect(breaker.channel.reachable()).toBe(false);
      clockMs += 1;
      expect(breaker.channel.reachable()).toBe(true);
    } finally {
      log.restore();
    }
  });

  test('a 401 refreshes locally after one wait scheduled for the 2 000 ms bound: one provider refresh, the next version', async () => {
    let refreshes = 0;
    const crm = uniqueTaskQueue('crm');
    created.push(credentialEntityId(crm));
    const broker = new CredentialBroker({
      [crm]: { initial: async () => ({ token: 't0' }), refresh: async () => ({ token: `t${++refreshes}` }) },
    });
    const shared = sharedRefresh({ shared: true, key: 'k'.repeat(32), ...where() });
    broker.shareRefreshes(shared.refresh);
    expect(await broker.current(crm)).toEqual({ token: 't0', version: 1 });
    const log = fallbackReasons();
    try {
      expect(await Promise.all([broker.refresh(crm, 1), broker.refresh(crm, 1)])).toEqual([2, 2]);
      expect(log.reasons).toEqual([`shared state for ${credentialEntityId(crm)} did not answer in ${BOUND_MS} ms`]);
    } finally {
      log.restore();
    }
    expect(refreshes).toBe(1);
    expect(shared.channel.fallbacks).toBe(1);
    expect(await broker.current(crm)).toEqual({ token: 't1', version: 2 });
  });
});

test('through the plugin: a worker whose entities nobody runs still serves every call, one wait of ≤ 2 000 ms in all', async () => {
  service.down = false;
  const ns = uniqueTaskQueue('ns');
  created.push(breakerEntityId(`status-svc-${ns}`));
  const { status } = clusterTools(service.url, ns);
  const h = await harness(env, [status], {
    breaker: { shared: true, threshold: 5, taskQueue: uniqueTaskQueue('nobody') },
    entityWorker: false, // else the plugin itself would poll that queue
  });
  const results = await h.run(async () => {
    const ids = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        h.startPlan({ calls: [{ tool: 'service_status', args: { region: `r${i}` } }] }),
      ),
    );
    return Promise.all(ids.map((id) => env.client.workflow.getHandle(id).result() as Promise<ToolPlanResult>));
  });
  for (const r of results) expect(r.outcomes[0]).toMatchObject({ ok: true, value: { up: true }, attempts: 1 });
  expect(service.statusHits).toBe(20);
  expect((h.plugin.breakers as SharedBreaker).channel.fallbacks).toBe(1);
});
