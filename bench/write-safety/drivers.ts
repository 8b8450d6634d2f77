/**
 * The workers (and, for some rows, the dev server) behind one cell, and what the row's driver does to them while
 * the runs are watched: shut a worker down mid-request, stop the dev server, SIGKILL a worker process during its
 * lookup, heal a partition, send a storm of review decisions, or time a worker process's shutdown.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { type NativeConnection, Worker } from '@temporalio/worker';
import { RecoveryPlugin } from '../../plugin/recovery-plugin';
import { decideReviewUpdate, reconcileWorkflowId, reviewDecisionSignal } from '../../workflows/definitions';
import { TS_CHILD_ARGS } from '../../test/setup/ts-child';
import type { Driver } from './fault-kinds';
import { ownServer } from './own-server';
import { toolsOf, type PayRecipe } from './pay-tools';
import type { PaymentsService } from './payments-service';
import type { PartitionProxy } from './partition-proxy';
import { pause, within } from './time';

const ROOT = resolve(__dirname, '..', '..');
const WORKER_SCRIPT = join(ROOT, 'bench', 'write-safety', 'worker-process.ts');
/** How long a worker may take to finish `shutdown()` before the cell calls it hung, ms (grace times here are ≤ 2 s). */
export const SHUTDOWN_LIMIT_MS = 12_000;
/** The `shutdownGraceTime` of worker processes (worker-process.ts), ms. */
export const SHUTDOWN_GRACE_MS = 2_000;

export interface CellEnv {
  client: Client;
  connection: NativeConnection;
  address: string;
  /** A prebuilt workflow bundle (the plugin's workflows). */
  bundlePath: string;
  /** A directory the cell may write into. */
  dir: string;
  /**
   * How many times its row's budget a run may take before it counts as wedged (a liveness bound, not a measurement):
   * 1 in the full matrix; the quick gate and the tests, on a shared 2-core CI machine, give 3. @default 1
   */
  budgetScale?: number;
}

export interface Setup {
  client: Client;
  /** Acts while the runs are watched; resolves once done. */
  during(): Promise<void>;
  onReview?: (opId: string) => Promise<void>;
  /** Stops the workers: did a shutdown outlive `SHUTDOWN_LIMIT_MS`, and how long it took (ms). */
  stop(): Promise<{ shutdownHung: boolean; shutdownMs: number }>;
  /** Closes what the setup opened for itself (its own dev server and connections). */
  close(): Promise<void>;
}

/**
 * A worker in this process, with the SDK's default shutdown grace time (0: running activities are cancelled at once,
 * as a deploy's SIGTERM does); `stop()` shuts it down and times it.
 */
export async function inProcessWorker(
  connection: NativeConnection,
  taskQueue: string,
  recipe: PayRecipe,
  bundlePath: string,
) {
  const worker = await Worker.create({
    connection,
    taskQueue,
    plugins: [new RecoveryPlugin({ tools: toolsOf(recipe), config: { taskQueue } })],
    workflowBundle: { codePath: bundlePath },
    stickyQueueScheduleToStartTimeout: '1s',
  });
  const done = worker.run().catch(() => undefined);
  return {
    worker,
    async stop() {
      const at = Date.now();
      if (worker.getState() === 'RUNNING') worker.shutdown();
      const finished = await within(
        done.then(() => true),
        SHUTDOWN_LIMIT_MS,
        false,
      );
      return { shutdownHung: !finished, shutdownMs: Date.now() - at };
    },
  };
}

/** A worker in its own process (worker-process.ts); resolves once it polls. */
export async function processWorker(
  address: string,
  taskQueue: string,
  recipe: PayRecipe,
  bundlePath: string,
  slots?: number,
) {
  const child: ChildProcess = spawn(process.execPath, [...TS_CHILD_ARGS, WORKER_SCRIPT], {
    cwd: ROOT,
    env: {
      ...process.env,
      TEMPORAL_ADDRESS: address,
      TASK_QUEUE: taskQueue,
      PAY_RECIPE: JSON.stringify(recipe),
      WORKFLOW_BUNDLE: bundlePath,
      SHUTDOWN_GRACE_MS: String(SHUTDOWN_GRACE_MS),
      ...(slots ? { SLOTS: String(slots) } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString('utf8')));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  // A hang detector, as the integration tier's 180 s (jest.config.js): 60 s ran out on a loaded 2-core machine.
  const deadline = Date.now() + 180_000;
  while (!out.includes('worker ready')) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`worker process did not start: ${out.slice(-500)}`);
    await pause(100);
  }
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  return {
    kill,
    /** SIGTERM, then waits for the exit; SIGKILL after `SHUTDOWN_LIMIT_MS`. */
    async stop() {
      const at = Date.now();
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const finished = await within(
        exited.then(() => true),
        SHUTDOWN_LIMIT_MS,
        false,
      );
      if (!finished) await kill();
      return { shutdownHung: !finished, shutdownMs: Date.now() - at };
    },
  };
}

/** `decisions` concurrent `replay` decisions for `opId`: every other one a signal, the rest updates. */
function reviewStorm(client: Client, decisions: number) {
  return async (opId: string): Promise<void> => {
    const h = client.workflow.getHandle(reconcileWorkflowId(opId));
    const d = {
      operationId: opId,
      decision: 'replay' as const,
      by: 'ops@example',
      reason: 'the provider shows nothing',
    };
    await Promise.allSettled(
      Array.from({ length: decisions }, (_, i) =>
        i % 2 === 0 ? h.signal(reviewDecisionSignal, d) : h.executeUpdate(decideReviewUpdate, { args: [d] }),
      ),
    );
  };
}

const noClose = async () => undefined;

/** The setup of one cell under `driver`. */
export async function setUp(
  driver: Driver,
  env: CellEnv,
  taskQueue: string,
  recipe: PayRecipe,
  service: PaymentsService,
  proxy: PartitionProxy | undefined,
): Promise<Setup> {
  const firstPost = service.nextPost();
  const firstRead = service.nextRead();
  switch (driver.kind) {
    case 'plain':
    case 'review_storm':
    case 'partition': {
      const w = await inProcessWorker(env.connection, taskQueue, recipe, env.bundlePath);
      const during = async () => {
        if (driver.kind !== 'partition' || !proxy) return;
        await proxy.partitioned;
        await pause(driver.healMs);
        proxy.heal();
      };
      const onReview = driver.kind === 'review_storm' ? reviewStorm(env.client, driver.decisions) : undefined;
      return { client: env.client, during, ...(onReview ? { onReview } : {}), stop: w.stop, close: noClose };
    }
    case 'worker_shutdown': {
      const first = await inProcessWorker(env.connection, taskQueue, recipe, env.bundlePath);
      let second: Awaited<ReturnType<typeof inProcessWorker>> | undefined;
      const during = async () => {
        await firstPost;
        await first.stop();
        second = await inProcessWorker(env.connection, taskQueue, recipe, env.bundlePath);
      };
      const stop = async () => (second ?? first).stop();
      return { client: env.client, during, stop, close: noClose };
    }
    case 'server_stop':
      return serverStopSetup(driver, env, taskQueue, recipe, firstPost);
    case 'worker_sigkill_during_lookup': {
      const first = await processWorker(env.address, taskQueue, recipe, env.bundlePath);
      let second: Awaited<ReturnType<typeof processWorker>> | undefined;
      const during = async () => {
        await firstRead;
        await first.kill();
        second = await processWorker(env.address, taskQueue, recipe, env.bundlePath);
      };
      const stop = async () => {
        await first.kill();
        return second ? second.stop() : { shutdownHung: false, shutdownMs: 0 };
      };
      return { client: env.client, during, stop, close: noClose };
    }
    case 'slots': {
      const w = await processWorker(env.address, taskQueue, recipe, env.bundlePath, driver.slots);
      return { client: env.client, during: async () => undefined, stop: w.stop, close: noClose };
    }
  }
}

/** A dev server of the cell's own, stopped once the first POST reached the service, and restarted `downMs` ms later. */
async function serverStopSetup(
  driver: Extract<Driver, { kind: 'server_stop' }>,
  env: CellEnv,
  taskQueue: string,
  recipe: PayRecipe,
  firstPost: Promise<string>,
): Promise<Setup> {
  const server = await ownServer(env.dir);
  await server.start();
  const connection = await Connection.connect({ address: server.address });
  const client = new Client({ connection });
  // A worker process: one whose shutdown hangs on a server that went away can still be killed (an in-process
  // worker's pollers would retry the dead address for ever and keep the process alive).
  const w = await processWorker(server.address, taskQueue, recipe, env.bundlePath);
  return {
    client,
    during: async () => {
      await firstPost;
      await server.stop(driver.signal);
      await pause(driver.downMs);
      await server.start();
    },
    stop: w.stop,
    close: async () => {
      await connection.close();
      await server.stop('SIGTERM');
    },
  };
}
