/**
 * Chaos on the real stack: a worker process SIGKILLed after the write committed, and the dev server restarted in
 * the middle of a reconciliation. Each test asserts the rows in the ledger's SQLite database and the requests the
 * service received, not only the workflow's status.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { NativeConnection, Worker } from '@temporalio/worker';
import { toolCatalog } from '../../activities/define-tool';
import { startLedgerService, type LedgerService } from '../../examples/ledger-service';
import { ledgerTools, type LedgerToolOptions } from '../../examples/ledger-tools';
import { RecoveryPlugin } from '../../plugin/recovery-plugin';
import { ensureEmbeddedServer, type EmbeddedServer } from '../../server/dev-server';
import type { ReconcileResult } from '../../workflows/reconcile';
import { reconcileWorkflowId } from '../../workflows/definitions';
import type { ToolPlanInput, ToolPlanResult } from '../../workflows/tool-plan';
import type { ToolOutcome } from '../../workflows/tool-router';
import { testEnv, uniqueTaskQueue } from '../setup/env';
import { TS_CHILD_ARGS } from '../setup/ts-child';
import { eventTypes, FAST_BACKOFF, workflowBundle } from './harness';

const ROOT = resolve(__dirname, '..', '..');
const WORKER_SCRIPT = join(ROOT, 'test', 'fixtures', 'worker-process.ts');

let env: TestWorkflowEnvironment;
let tmp: string;
const children = new Set<ChildProcess>();
const ledgers = new Set<LedgerService>();
beforeAll(async () => {
  env = await testEnv();
  tmp = mkdtempSync(join(tmpdir(), 'rr-chaos-'));
});
afterAll(async () => {
  for (const child of children) killHard(child);
  for (const ledger of ledgers) await ledger.close();
  await env?.teardown();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const refundCall = (orderId: string) => ({
  tool: 'issue_refund',
  args: { orderId, amountCents: 5000 },
  stepId: `refund-${orderId}`,
});
const ok = (o: ToolOutcome | undefined) => {
  if (!o?.ok) throw new Error(`expected success, got ${JSON.stringify(o)}`);
  return o;
};
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` every 50 ms until it is true; throws after `timeoutMs` (ms) naming `what`. */
async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await pause(50);
  }
}

async function startLedger(): Promise<LedgerService> {
  const ledger = await startLedgerService();
  ledgers.add(ledger);
  return ledger;
}

async function stopLedger(ledger: LedgerService): Promise<void> {
  ledgers.delete(ledger);
  await ledger.close();
}

/** The refund row the service committed for `operationId`. */
function refundRow(ledger: LedgerService, operationId: string): { refundId: string; status: string } {
  return ledger.db.prepare('SELECT refund_id AS refundId, status FROM refunds WHERE op_key = ?').get(operationId) as {
    refundId: string;
    status: string;
  };
}

function killHard(child: ChildProcess): void {
  if (child.exitCode === null && child.signalCode === null && child.pid !== undefined)
    process.kill(child.pid, 'SIGKILL');
}

interface WorkerProcess {
  child: ChildProcess;
  /** Everything it printed, for failure messages. */
  output(): string;
  /** Resolves once it has exited, with the signal that ended it (or null). */
  exited: Promise<NodeJS.Signals | null>;
}

/**
 * Starts test/fixtures/worker-process.ts in a new Node process and waits until it prints `worker ready` (or exits):
 * no start-up deadline of its own (30 s ran out on a loaded machine); the test's timeout is the only bound.
 */
async function startWorkerProcess(env: Record<string, string>, readyTimeoutMs = Infinity): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [...TS_CHILD_ARGS, WORKER_SCRIPT], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString('utf8')));
  const exited = new Promise<NodeJS.Signals | null>((done) =>
    child.once('exit', (_code, signal) => {
      children.delete(child);
      done(signal);
    }),
  );
  const proc = { child, output: () => out, exited };
  await until(
    'the worker process to print "worker ready"',
    () => {
      if (child.exitCode !== null) throw new Error(`worker process exited with ${child.exitCode}:\n${out}`);
      return out.includes('worker ready');
    },
    readyTimeoutMs,
  );
  return proc;
}

/** The plugin's workflow bundle as a file, so worker processes do not bundle it again (seconds each). */
async function bundleFile(): Promise<string> {
  const path = join(tmp, 'workflow-bundle.js');
  writeFileSync(path, (await workflowBundle()).code);
  return path;
}

/** `n` distinct free loopback ports (each listened on with port 0, then released). */
async function freePorts(n: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const s = createServer();
      servers.push(s);
      await new Promise<void>((ok) => s.listen(0, '127.0.0.1', () => ok()));
    }
    return servers.map((s) => (s.address() as AddressInfo).port);
  } finally {
    await Promise.all(servers.map((s) => new Promise((done) => s.close(done))));
  }
}

/**
 * A dev server on two ports found free, tried up to 3 times: a port can be taken between the probe and the server's
 * bind, by another test file's server running in parallel (CI once saw start-dev exit with code 2 here).
 */
async function serverOnFreePorts(
  dbFilename: string,
): Promise<{ config: Parameters<typeof ensureEmbeddedServer>[0]; server: EmbeddedServer }> {
  for (let attempt = 1; ; attempt++) {
    const [port, uiPort] = await freePorts(2);
    const config = { ip: '127.0.0.1', port: port!, uiPort: uiPort!, namespace: 'default', dbFilename };
    try {
      return { config, server: await ensureEmbeddedServer(config) };
    } catch (err) {
      if (attempt === 3 || !/exited with code/.test(String(err))) throw err;
    }
  }
}

test('worker SIGKILLed after the refund committed and before the activity completed, a new worker started → exactly one row, one POST; the workflow completes with the committed refund via lookup', async () => {
  const ledger = await startLedger();
  // The tool waits 30 s for its answer, so the worker is surely mid-call when killed; the server notices the dead
  // attempt by its missed heartbeats (1 s), and the write's single attempt becomes outcome_unknown → reconcile.
  const toolOptions: LedgerToolOptions = { writeTimeoutMs: 30_000, startToCloseMs: 20_000, heartbeatMs: 1_000 };
  ledger.fault({ kind: 'late_response', delayMs: 30_000 });
  const taskQueue = uniqueTaskQueue('chaos-kill');
  const workerEnv = {
    TEMPORAL_ADDRESS: env.address,
    TASK_QUEUE: taskQueue,
    LEDGER_URL: ledger.url,
    LEDGER_TOOL_OPTIONS: JSON.stringify(toolOptions),
    WORKFLOW_BUNDLE: await bundleFile(),
  };
  const first = await startWorkerProcess(workerEnv);

  const workflowId = uniqueTaskQueue('kill');
  const call = refundCall('O-41');
  const input: ToolPlanInput = {
    catalog: toolCatalog(ledgerTools(ledger.url, toolOptions).all),
    calls: [call],
    reconcile: { lookupBudget: 3, lookupBackoff: { initialIntervalMs: 50, maximumIntervalMs: 200 } },
  };
  const handle = await env.client.workflow.start('toolPlanWorkflow', { taskQueue, workflowId, args: [input] });
  const operationId = `${workflowId}@${handle.firstExecutionRunId}:${call.stepId}`;

  await until('the refund row in SQLite', () => ledger.rows('refunds', operationId) === 1);
  process.kill(first.child.pid as number, 'SIGKILL');
  expect(await first.exited).toBe('SIGKILL');
  // Nothing answers the workflow while no worker runs: the committed call is still unresolved.
  await expect(handle.describe()).resolves.toMatchObject({ status: { name: 'RUNNING' } });

  const second = await startWorkerProcess(workerEnv);
  try {
    const r = (await handle.result()) as ToolPlanResult;

    const out = ok(r.outcomes[0]);
    expect(out.operationId).toBe(operationId);
    expect(out.reconciled).toBe('lookup');
    expect(out.activities).toBe(1);
    expect(ledger.rows('refunds')).toBe(1);
    expect(ledger.rows('refunds', operationId)).toBe(1);
    expect(ledger.hits('POST /refunds')).toBe(1);
    expect(ledger.hits('GET /refunds')).toBe(1);
    const row = refundRow(ledger, operationId);
    expect(out.value).toMatchObject({
      refundId: row.refundId,
      orderId: 'O-41',
      amountCents: 5000,
      status: 'succeeded',
    });

    // The dead attempt ended by the server's heartbeat timeout, and the reconciliation found the row at once.
    const events = (await handle.fetchHistory()).events ?? [];
    expect(eventTypes(events).filter((t) => t.startsWith('ACTIVITY_TASK_'))).toEqual([
      'ACTIVITY_TASK_SCHEDULED',
      'ACTIVITY_TASK_STARTED',
      'ACTIVITY_TASK_TIMED_OUT',
    ]);
    const timedOut = events.find((e) => e.activityTaskTimedOutEventAttributes)?.activityTaskTimedOutEventAttributes;
    expect(timedOut?.failure?.timeoutFailureInfo?.timeoutType).toBe(
      temporal.api.enums.v1.TimeoutType.TIMEOUT_TYPE_HEARTBEAT,
    );
    // As scheduled: the heartbeat timeout that ended it is the tool's 1 s (not its 20 s StartToClose), and a task
    // left on the dead worker's sticky queue expired by schedule-to-start (the worker's 1 s,
    // test/fixtures/worker-process.ts), never by a start-to-close on a dead worker.
    const hb = events.find((e) => e.activityTaskScheduledEventAttributes)!.activityTaskScheduledEventAttributes!
      .heartbeatTimeout!;
    expect(Number(hb.seconds) * 1_000 + Math.floor((hb.nanos ?? 0) / 1e6)).toBe(1_000);
    const taskTimeouts = events
      .filter((e) => e.workflowTaskTimedOutEventAttributes)
      .map((e) => e.workflowTaskTimedOutEventAttributes!.timeoutType);
    expect(taskTimeouts.every((t) => t === temporal.api.enums.v1.TimeoutType.TIMEOUT_TYPE_SCHEDULE_TO_START)).toBe(
      true,
    );
    const child = (await env.client.workflow.getHandle(reconcileWorkflowId(operationId)).result()) as ReconcileResult;
    expect(child).toMatchObject({ state: 'applied', via: 'lookup', replays: 0 });
    expect(child.lookups.map((l) => l.state)).toEqual(['applied']);
  } catch (err) {
    throw new Error(`${String(err)}\n--- second worker output ---\n${second.output()}`);
  } finally {
    killHard(second.child);
    await second.exited;
    await stopLedger(ledger);
  }
});

test('dev server restarted mid-reconcile with its SQLite file kept → the workflow resumes from its history and ends with one row, one POST, reconciled by lookup', async () => {
  const ledger = await startLedger();
  const { config, server: first } = await serverOnFreePorts(join(tmp, 'restart', 'dev.sqlite'));
  let server: EmbeddedServer | undefined = first;
  expect(server.started).toBe(true);
  const connection = await Connection.connect({ address: server.address });
  const client = new Client({ connection });
  const nativeConnection = await NativeConnection.connect({ address: server.address });
  const taskQueue = uniqueTaskQueue('chaos-restart');
  const tools = ledgerTools(ledger.url).all;
  const worker = await Worker.create({
    connection: nativeConnection,
    taskQueue,
    plugins: [new RecoveryPlugin({ tools, config: { taskQueue, backoff: FAST_BACKOFF } })],
    workflowBundle: await workflowBundle(),
  });
  let workerError: unknown;
  const running = worker.run().catch((err: unknown) => {
    workerError = err;
  });
  try {
    // Committed, answer lost → outcome_unknown → reconcile; the lookup is down, so the child polls every ~1 s.
    ledger.fault({ kind: 'lose_response' });
    ledger.setLookupDown(true);
    const workflowId = uniqueTaskQueue('restart');
    const call = refundCall('O-42');
    const input: ToolPlanInput = {
      catalog: toolCatalog(tools),
      calls: [call],
      reconcile: {
        lookupBudget: 8,
        lookupBackoff: { initialIntervalMs: 1_000, backoffCoefficient: 1.5, maximumIntervalMs: 3_000, jitterRatio: 0 },
      },
    };
    const started = await client.workflow.start('toolPlanWorkflow', { taskQueue, workflowId, args: [input] });
    const operationId = `${workflowId}@${started.firstExecutionRunId}:${call.stepId}`;
    const childHandle = () => client.workflow.getHandle(reconcileWorkflowId(operationId));
    // The first lookup answered `unknown` and the child recorded it: it now sleeps before the next one.
    await until('the first unknown lookup in the child history', async () => {
      try {
        return eventTypes((await childHandle().fetchHistory()).events ?? []).includes('ACTIVITY_TASK_COMPLETED');
      } catch {
        return false; // the child has not started yet
      }
    });
    expect(ledger.rows('refunds', operationId)).toBe(1);
    const lookupsBefore = ledger.hits('GET /refunds');
    expect(lookupsBefore).toBeGreaterThanOrEqual(1);
    const parentBefore = (await client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
    const childBefore = (await childHandle().fetchHistory()).events ?? [];

    await server.stop();
    server = undefined;
    // While the server is away the lookup comes back; whatever the child does next happens after the restart.
    ledger.setLookupDown(false);
    server = await ensureEmbeddedServer(config);
    expect(server.started).toBe(true);

    const r = (await client.workflow.getHandle(workflowId).result()) as ToolPlanResult;
    const out = ok(r.outcomes[0]);
    expect(out.reconciled).toBe('lookup');
    expect(ledger.rows('refunds')).toBe(1);
    expect(ledger.rows('refunds', operationId)).toBe(1);
    expect(ledger.hits('POST /refunds')).toBe(1);
    expect(out.value).toMatchObject({ refundId: refundRow(ledger, operationId).refundId, status: 'succeeded' });

    // The history fetched after the restart starts with exactly the events recorded before it.
    const parentAfter = (await client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
    const childAfter = (await childHandle().fetchHistory()).events ?? [];
    const ids = (events: typeof parentAfter) => events.map((e) => `${String(e.eventId)}:${eventTypes([e])[0]}`);
    expect(parentAfter.length).toBeGreaterThan(parentBefore.length);
    expect(ids(parentAfter).slice(0, parentBefore.length)).toEqual(ids(parentBefore));
    expect(eventTypes(parentBefore)).toContain('ACTIVITY_TASK_SCHEDULED');
    expect(eventTypes(parentBefore)).toContain('START_CHILD_WORKFLOW_EXECUTION_INITIATED');
    expect(ids(childAfter).slice(0, childBefore.length)).toEqual(ids(childBefore));
    const child = (await childHandle().result()) as ReconcileResult;
    expect(child).toMatchObject({ state: 'applied', via: 'lookup', replays: 0 });
    const states = child.lookups.map((l) => l.state);
    expect(states.at(-1)).toBe('applied');
    expect(states.slice(0, -1).every((s) => s === 'unknown')).toBe(true);
    expect(states.length).toBe(ledger.hits('GET /refunds'));
    // The same worker rode out the restart: the SDK's client retried its calls and reconnected by itself.
    expect(workerError).toBeUndefined();
    expect(worker.getState()).toBe('RUNNING');
  } finally {
    if (worker.getState() === 'RUNNING') worker.shutdown();
    await running;
    await nativeConnection.close();
    await connection.close();
    await server?.stop();
    await stopLedger(ledger);
  }
});
