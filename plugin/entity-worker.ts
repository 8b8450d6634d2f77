/**
 * The Workers of the entities' own task queues (docs/operating.md, "Shared mode: several workers"), run by the
 * plugin alongside each Worker it is used in (Temporal's worker-plugin hook `runWorker(worker, next)`,
 * @temporalio/plugin `SimplePlugin`): the same connection and namespace as that Worker, the entity workflows only
 * (workflows/entities.ts) and the shared refresh activity. They run together: when one stops (shutdown or failure),
 * the others are shut down, and `run()` rejects with the first error. Node-side only.
 */
import { Worker, type WorkerOptions, type WorkflowBundleOption } from '@temporalio/worker';

/** The entity workflows alone, bundled for the entities' Worker. */
export const ENTITY_WORKFLOWS_PATH = require.resolve('../workflows/entities');

/**
 * How long an entity's workflow task waits on the sticky queue of the worker that ran its last one before any worker
 * may take it, ms. Short: when that worker died (SIGKILL mid-refresh), every update waits this long to be accepted,
 * and one not accepted within `timeoutMs` falls back to local state (Temporal docs: "Sticky Execution"; the SDK's
 * default is 10 000 ms).
 */
export const ENTITY_STICKY_TIMEOUT_MS = 1_000;

/** How the plugin runs the Worker of shared mode's entities beside a Worker it is used in. */
export interface EntityWorkerOptions {
  /** The entities' task queues; none is run for the running Worker's own queue. */
  taskQueues: string[];
  /** What the entities run: the shared refresh activity (`recoveryRefreshCredential`), when refresh is shared. */
  activities: NonNullable<WorkerOptions['activities']>;
  /** A prebuilt bundle exporting the entity workflows. @default workflows/entities.ts, bundled at start */
  workflowBundle?: WorkflowBundleOption;
}

const stop = (w: Worker): void => {
  if (w.getState() === 'RUNNING') w.shutdown();
};

/**
 * Runs `next(worker)` (the user's Worker) and a Worker per entity task queue that is not its own, when it has a
 * connection (a replay worker has none).
 * @throws the user's Worker's error, else an entities' Worker's (when one run ends, the others are shut down
 *   first); Error `recovery-router: the Worker of the entities' task queue … did not start` before the user's Worker
 *   runs (its bundle failed, or a Worker of this process already polls that queue).
 */
export async function runWithEntityWorkers(
  worker: Worker,
  next: (w: Worker) => Promise<void>,
  entity: EntityWorkerOptions,
): Promise<void> {
  const connection = worker.connection;
  const queues = [...new Set(entity.taskQueues)].filter((q) => q !== worker.options.taskQueue);
  if (!connection || queues.length === 0) return next(worker);
  const created = await Promise.allSettled(
    queues.map((taskQueue) => createEntityWorker({ ...entity, connection, worker, taskQueue })),
  );
  const entities = created.flatMap((c) => (c.status === 'fulfilled' ? [c.value] : []));
  const failed = created.find((c): c is PromiseRejectedResult => c.status === 'rejected');
  if (failed) {
    // A created Worker holds native resources and a workflow thread until it has run: run each one and stop it at
    // once, the user's too, so a failed start leaks nothing (and the process can exit); then report the failure.
    await Promise.all([release(worker, next), ...entities.map((e) => release(e, (w) => w.run()))]);
    throw failed.reason;
  }
  const runs = [next(worker), ...entities.map((e) => e.run())];
  // Whichever ends first (resolved or rejected), the others are shut down; then all are awaited.
  await Promise.race(runs).catch(() => undefined);
  for (const w of [worker, ...entities]) stop(w);
  const settled = await Promise.allSettled(runs);
  const runFailed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (runFailed) throw runFailed.reason;
}

/** The Worker of one entity task queue. @throws Error naming the queue when it cannot be created. */
async function createEntityWorker(
  entity: EntityWorkerOptions & { connection: NonNullable<Worker['connection']>; worker: Worker; taskQueue: string },
): Promise<Worker> {
  const { connection, worker, taskQueue } = entity;
  const code = entity.workflowBundle
    ? { workflowBundle: entity.workflowBundle }
    : { workflowsPath: ENTITY_WORKFLOWS_PATH };
  return Worker.create({
    connection,
    namespace: worker.options.namespace,
    taskQueue,
    ...code,
    activities: entity.activities,
    identity: `${worker.options.identity}/entities`,
    stickyQueueScheduleToStartTimeout: ENTITY_STICKY_TIMEOUT_MS,
  }).catch((err: unknown) => {
    const why = err instanceof Error ? err.message : String(err);
    throw new Error(
      `recovery-router: the Worker of the entities' task queue ${taskQueue} did not start (if a Worker of yours ` +
        `polls that queue in this process, set entityWorker: false): ${why}`,
      { cause: err },
    );
  });
}

/**
 * Runs a Worker that must not work and stops it at once: the SDK releases a Worker's native worker, its connection
 * reference and its workflow threads only at the end of `run()` (a Worker never run keeps them, and the process
 * alive). `run` may pass through other plugins' `runWorker`, so the state is awaited for a few turns of the loop.
 */
export async function release(w: Worker, run: (w: Worker) => Promise<void>): Promise<void> {
  const ended = run(w).catch(() => undefined);
  for (let i = 0; i < 20 && w.getState() === 'INITIALIZED'; i++) await new Promise((r) => setImmediate(r));
  stop(w);
  await ended;
}
