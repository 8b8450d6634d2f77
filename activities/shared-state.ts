/**
 * How the activity side reaches the cluster-wide entities (docs/DESIGN.md, "Circuit breaker": shared mode): an
 * update-with-start on the entity's workflow id (`WithStartWorkflowOperation`, `workflowIdConflictPolicy:
 * 'USE_EXISTING'`: the first caller creates the entity, the others update the running one), never waiting longer
 * than `timeoutMs`. When the entity does not answer in time (the server is unreachable, no worker polls the
 * entity's task queue, the namespace is overloaded), the caller falls back to its local state and the shared state
 * is left alone for `backoffMs`, so an outage of the shared state costs one bounded wait per `backoffMs`, not one
 * per call. Node-side only.
 */
import { Context } from '@temporalio/activity';
import { WithStartWorkflowOperation, type Client } from '@temporalio/client';
import { WorkflowNotFoundError, type UpdateDefinition, type Workflow } from '@temporalio/common';
import { Runtime } from '@temporalio/worker';
import { hostname } from 'node:os';

/**
 * What shared mode's entities need, for the breaker and the refresh alike: client, task queue, and the waits'
 * bounds in ms.
 */
export interface SharedStateOptions {
  /**
   * The client to reach the entities with. @default the worker's client of the running activity
   * (`Context.current().client`, @temporalio/activity ≥ 1.24)
   */
  client?: Client;
  /** Task queue of the entity workflows. @default the plugin's task queue */
  taskQueue?: string;
  /**
   * Longest wait on the shared state in one call before falling back to local state, in ms. @default 2_000:
   * measured in the cluster bench (docs/benchmarks.md, "Shared mode"), an update round trip on a loaded 2-core machine
   * often passed 250 ms (7 fallbacks in one run, 40 outage calls instead of 7); at 2 000 ms, 0 fallbacks.
   */
  timeoutMs?: number;
  /** After a wait ran out, how long calls use local state without trying the shared one, in ms. @default 5_000 */
  backoffMs?: number;
}

/** The shared state did not answer within the bound (or refused): the caller uses its local state. */
export class SharedStateUnavailable extends Error {
  override readonly name = 'SharedStateUnavailable';
  constructor(
    message: string,
    options?: { cause?: unknown },
    /** The entity accepted the update before the wait ran out: its work (e.g. a refresh) may be under way. */
    readonly accepted = false,
  ) {
    super(message, options);
  }
}

/**
 * The entities' workflow task timeout, ms (Temporal's default is 10 000). An entity's task does no I/O (its refresh
 * is an activity), so it ends in milliseconds; when the worker holding one dies (SIGKILL), every update to that
 * entity waits this long to be accepted, and one not accepted within `timeoutMs` falls back to local state
 * (test/temporal/cluster-refresh-kill.test.ts). Set when the entity starts; continue-as-new keeps it.
 */
export const ENTITY_WORKFLOW_TASK_TIMEOUT_MS = 2_000;

/** The default bound on one call's waits on the shared state, ms (`SharedStateOptions.timeoutMs`). */
export const DEFAULT_SHARED_TIMEOUT_MS = 2_000;

/** Who reports: shown in the entity's state (`worker@host:pid`). */
export const HOLDER = `worker@${hostname()}:${process.pid}`;

/**
 * How a worker reaches one kind of entity (update-with-start, queries), with its fallback to local state:
 * `fallbacks` counts the calls that used local state because a wait ran out.
 */
export class SharedStateChannel {
  readonly timeoutMs: number;
  readonly backoffMs: number;
  private unreachableUntilMs = 0;
  /** How many waits ran out or failed (for tests and operators). */
  fallbacks = 0;

  constructor(
    private readonly options: SharedStateOptions & { taskQueue: string },
    private readonly now: () => number = Date.now,
  ) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_SHARED_TIMEOUT_MS;
    this.backoffMs = options.backoffMs ?? 5_000;
  }

  /** The entities' task queue (where update-with-start starts an entity). */
  get taskQueue(): string {
    return this.options.taskQueue;
  }

  /** False while a recent wait ran out: calls go straight to local state. */
  reachable(): boolean {
    return this.now() >= this.unreachableUntilMs;
  }

  /**
   * Sends `update` to the entity `workflowId`, starting it with `startArgs` if it is not running; resolves with the
   * update's result within `boundMs` (default `timeoutMs`); an update that itself waits on work (a refresh) is
   * accepted within `boundMs`, then answers within `waitMs`.
   * @throws SharedStateUnavailable when it did not answer in time or the call failed.
   */
  async update<Ret, Args extends unknown[], W extends Workflow>(
    workflow: W,
    workflowId: string,
    startArgs: [Parameters<W>[0]],
    update: UpdateDefinition<Ret, Args>,
    args: Args,
    waitMs?: number,
    boundMs = this.timeoutMs,
  ): Promise<Ret> {
    if (!this.reachable()) throw new SharedStateUnavailable(`shared state for ${workflowId} backing off`);
    const client = this.client();
    const startWorkflowOperation = new WithStartWorkflowOperation(workflow as Workflow, {
      workflowId,
      taskQueue: this.options.taskQueue,
      args: startArgs as unknown[],
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowTaskTimeout: ENTITY_WORKFLOW_TASK_TIMEOUT_MS,
    });
    if (waitMs === undefined) {
      return this.bounded(
        workflowId,
        () => client.workflow.executeUpdateWithStart<Workflow, Ret, Args>(update, { args, startWorkflowOperation }),
        boundMs,
      );
    }
    // Accepted within the bound (the entity is reachable), then its result within `waitMs`.
    const handle = await this.bounded(workflowId, () =>
      client.workflow.startUpdateWithStart<Workflow, Ret, Args>(update, {
        args,
        startWorkflowOperation,
        waitForStage: 'ACCEPTED',
      }),
    );
    // Accepted: the entity is reachable, so a late result does not send later calls to local state (no backoff):
    // a local refresh would spend a rotating refresh token the entity may be spending (a refresh whose worker died
    // answers only after its lease and the sticky queue's timeout; test/temporal/cluster-refresh-kill.test.ts).
    try {
      return await within(workflowId, handle.result(), waitMs);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      throw new SharedStateUnavailable(`accepted, then: ${message}`, { cause: err }, true);
    }
  }

  /**
   * A query on a running entity, within the bound; undefined when there is no such entity, or its latest run is
   * closed (terminated, failed, timed out): a closed run's state is history, and the next update-with-start starts
   * a new run (`USE_EXISTING` only joins a running one). One describe before the query.
   */
  async query<Ret>(
    workflowId: string,
    run: (client: Client) => Promise<Ret>,
    boundMs = this.timeoutMs,
  ): Promise<Ret | undefined> {
    if (!this.reachable()) throw new SharedStateUnavailable(`shared state for ${workflowId} backing off`);
    const client = this.client();
    const ifRunning = async (): Promise<Ret | undefined> => {
      const { status } = await client.workflow.getHandle(workflowId).describe();
      return status.name === 'RUNNING' ? run(client) : undefined;
    };
    try {
      return await this.bounded(workflowId, ifRunning, boundMs);
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return undefined;
      throw err;
    }
  }

  private client(): Client {
    try {
      return this.options.client ?? Context.current().client;
    } catch (err) {
      throw new SharedStateUnavailable('no Temporal client for the shared state', { cause: err });
    }
  }

  /** `run()` within `ms` (default `timeoutMs`); a late answer is dropped; a failure backs off for `backoffMs`. */
  private async bounded<T>(workflowId: string, run: () => Promise<T>, ms = this.timeoutMs): Promise<T> {
    try {
      return await within(workflowId, run(), ms);
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) throw err; // reachable: the entity does not exist yet
      this.fallbacks += 1;
      this.unreachableUntilMs = this.now() + this.backoffMs;
      // Once per fallback (then shared state is skipped for backoffMs): a silent fallback hides a wiring mistake,
      // e.g. a worker whose bundle does not export the entity workflows.
      Runtime.instance().logger.warn('recovery-router: shared state unreachable, calls use local state', {
        workflowId,
        backoffMs: this.backoffMs,
        reason: err instanceof Error ? err.message : String(err),
      });
      if (err instanceof SharedStateUnavailable) throw err;
      throw new SharedStateUnavailable(`shared state for ${workflowId} failed`, { cause: err });
    }
  }
}

/**
 * `answer` within `ms`.
 * @throws SharedStateUnavailable when it did not settle in time; its own error when it rejected.
 */
async function within<T>(workflowId: string, answer: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new SharedStateUnavailable(`shared state for ${workflowId} did not answer in ${ms} ms`)),
      ms,
    );
  });
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}
