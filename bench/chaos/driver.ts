/**
 * The chaos driver: refunds on the SQLite ledger through `toolPlanWorkflow`, `inFlight` runs at a time, while worker
 * processes are SIGKILLed at random moments and replaced, and (optionally) the dev server is restarted. The
 * ledger loses, delays or drops answers by a seeded mix, and its lookups are slow, so kills land inside
 * reconciliations: in lookups, in replays, between them. Used by test/temporal/chaos-kills.test.ts (assertions)
 * and bench/chaos.ts (`npm run bench -- --only chaos`: the table and bench/results/chaos.json).
 *
 * What it counts, from the ledger's rows and each run's own result:
 * - `duplicates`: orders with more than one refund row;
 * - `lost`: runs that reported the refund applied although no row exists;
 * - `failedWithRow`: runs that FAILED, or reported a failure other than an escalation, while their row exists;
 * - `stuck`: runs still open once none ended for `drainTimeoutMs` after the last kill, with the last workers up;
 * - `maxReplaysPerOperation`: the most write requests one operation_id received, minus the first.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import type { Client } from '@temporalio/client';
import type { Fault, LedgerService } from '../../examples/ledger-service';
import type { ToolSpec } from '../../recovery/tool-spec';
import type { ToolPlanResult } from '../../workflows/tool-plan';
import { TS_CHILD_ARGS } from '../../test/setup/ts-child';

const ROOT = resolve(__dirname, '..', '..');
const WORKER_SCRIPT = join(ROOT, 'test', 'fixtures', 'worker-process.ts');

export interface ChaosOptions {
  client: Client;
  address: string;
  taskQueue: string;
  ledger: LedgerService;
  catalog: ToolSpec[];
  /** A prebuilt workflow bundle (`bundleWorkflowCode(...).code` written to a file): workers start in about 1 s. */
  workflowBundlePath: string;
  /** Worker kills before the driver stops starting runs. */
  kills: number;
  /** Runs kept in flight. */
  inFlight: number;
  /**
   * Worker processes kept running. A kill picks one that polls, and never the last one polling, so runs make
   * progress between kills. @default 3
   */
  workers?: number;
  /** Pause between kills, in ms, drawn uniformly. @default [400, 1200] */
  killEveryMs?: [number, number];
  /** Seed of the fault mix and the kill timing. */
  seed: number;
  /** Restarts the dev server this many times, evenly spread (needs `restartServer`). @default 0 */
  restarts?: number;
  restartServer?: () => Promise<void>;
  /** How long to wait for the next open run to end after the last kill (no run ending this long: stuck), in ms. @default 90_000 */
  drainTimeoutMs?: number;
}

export interface ChaosReport {
  runs: number;
  kills: number;
  restarts: number;
  applied: number;
  escalated: number;
  /** Escalated runs whose row exists: honest ("a person must check whether it was applied"), but counted. */
  escalatedWithRow: number;
  otherFailures: number;
  /** Failed runs by `<action>/<class>/<reason>` (escalations included), or `workflow_failed`. */
  failures: Record<string, number>;
  duplicates: number;
  lost: number;
  failedWithRow: number;
  stuck: number;
  maxReplaysPerOperation: number;
  durationMs: number;
}

/** mulberry32: a small seeded PRNG (public domain), so a failing seed can be run again. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The fault mix: 40 % lost answers, 10 % late ones, 10 % dropped before commit, 10 % lost in transit. */
function faultMix(random: () => number): (key: string) => Fault | undefined {
  return () => {
    const r = random();
    if (r < 0.4) return { kind: 'lose_response' };
    if (r < 0.5) return { kind: 'late_response', delayMs: 1_500 };
    if (r < 0.6) return { kind: 'fail_before_commit' };
    if (r < 0.7) return { kind: 'lost_in_transit' };
    return undefined;
  };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms).unref());

/** Starts a workflow, trying again every 500 ms for 60 s while the server restarts. */
async function startWithRetry(client: Client, type: string, options: Parameters<Client['workflow']['start']>[1]) {
  for (let i = 0; ; i++) {
    try {
      return await client.workflow.start(type, options);
    } catch (err) {
      if (i >= 120) throw err;
      await pause(500);
    }
  }
}

interface WorkerProcess {
  child: ChildProcess;
  exited: Promise<void>;
  /** True once it printed `worker ready` (it polls). */
  ready(): boolean;
  /** True once it exited. */
  gone(): boolean;
  /** The end of what it wrote to stderr. */
  stderr(): string;
}

function startWorker(o: ChaosOptions): WorkerProcess {
  const child = spawn(process.execPath, [...TS_CHILD_ARGS, WORKER_SCRIPT], {
    cwd: ROOT,
    env: {
      ...process.env,
      TEMPORAL_ADDRESS: o.address,
      TASK_QUEUE: o.taskQueue,
      LEDGER_URL: o.ledger.url,
      WORKFLOW_BUNDLE: o.workflowBundlePath,
      // A killed attempt is noticed by its heartbeat within 2 s; the client gives up on a write after 1 s.
      LEDGER_TOOL_OPTIONS: JSON.stringify({ writeTimeoutMs: 1_000, startToCloseMs: 5_000, heartbeatMs: 2_000 }),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let ready = false;
  let gone = false;
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    if (chunk.toString('utf8').includes('worker ready')) ready = true;
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-2_000);
  });
  const exited = new Promise<void>((done) =>
    child.once('exit', () => {
      gone = true;
      done();
    }),
  );
  return { child, exited, ready: () => ready, gone: () => gone, stderr: () => stderr };
}

export async function runChaos(o: ChaosOptions): Promise<ChaosReport> {
  const random = seeded(o.seed);
  o.ledger.setFaultPicker(faultMix(random));
  o.ledger.setLookupDelayMs(150);
  const startedMs = Date.now();
  const workers = Array.from({ length: o.workers ?? 3 }, () => startWorker(o));
  const results = new Map<string, { orderId: string; key: string; result: Promise<ToolPlanResult | 'failed'> }>();
  let kills = 0;
  let restarts = 0;
  let crashes = 0;
  let stop = false;
  let seq = 0;

  const startRun = async (): Promise<void> => {
    while (!stop) {
      const orderId = `O-${o.seed}${String(seq++).padStart(5, '0')}`;
      const workflowId = `chaos-${o.seed}-${orderId}`;
      const handle = await startWithRetry(o.client, 'toolPlanWorkflow', {
        taskQueue: o.taskQueue,
        workflowId,
        args: [
          {
            catalog: o.catalog,
            calls: [{ tool: 'issue_refund', args: { orderId, amountCents: 500 }, stepId: orderId }],
            reconcile: { lookupBackoff: { initialIntervalMs: 100, maximumIntervalMs: 500 }, reviewTimeoutMs: 10_000 },
          },
        ],
      });
      const result = handle.result().then(
        (r) => r as ToolPlanResult,
        () => 'failed' as const,
      );
      // A write's key names its intent, the run that began it (docs/tools.md, "One intent, one key").
      results.set(workflowId, { orderId, key: `${workflowId}@${handle.firstExecutionRunId}:${orderId}`, result });
      await result;
    }
  };
  const slots = Array.from({ length: o.inFlight }, () => startRun());

  const [minMs, maxMs] = o.killEveryMs ?? [400, 1_200];
  const restartAt = new Set(
    Array.from({ length: o.restarts ?? 0 }, (_, i) => Math.floor(((i + 1) * o.kills) / ((o.restarts ?? 0) + 1))),
  );
  while (kills < o.kills) {
    await pause(minMs + random() * (maxMs - minMs));
    // A worker that died on its own (its server restarted, say) is replaced; it is not a kill.
    for (const [i, w] of workers.entries()) {
      if (!w.gone()) continue;
      crashes += 1;
      if (crashes > 5 * o.kills) throw new Error(`chaos: workers keep exiting on their own:\n${w.stderr()}`);
      workers[i] = startWorker(o);
    }
    const polling = workers.map((w, i) => (w.ready() ? i : -1)).filter((i) => i >= 0);
    if (polling.length < 2) continue;
    const i = polling[Math.floor(random() * polling.length)]!;
    const victim = workers[i]!;
    victim.child.kill('SIGKILL');
    await victim.exited;
    kills += 1;
    workers[i] = startWorker(o);
    if (restartAt.has(kills) && o.restartServer) {
      await o.restartServer();
      restarts += 1;
    }
  }
  // The last workers stay up; no new runs start.
  stop = true;
  const drainTimeoutMs = o.drainTimeoutMs ?? 90_000;
  const open = new Set(results.keys());
  // Stuck means no progress: the wait ends when every run ended, or when none ended for `drainTimeoutMs` (a loaded
  // machine finishes runs slowly, but finishes them).
  let progressed: () => void = () => undefined;
  for (const [id, r] of results)
    void r.result.then(() => {
      open.delete(id);
      progressed();
    });
  while (open.size > 0) {
    const ended = new Promise<boolean>((ok) => (progressed = () => ok(true)));
    if (!(await Promise.race([ended, pause(drainTimeoutMs).then(() => false)]))) break;
  }
  const stuck = open.size;
  for (const w of workers) w.child.kill('SIGKILL');
  await Promise.all(workers.map((w) => w.exited));
  await Promise.race([Promise.all(slots), pause(1_000)]);

  const report: ChaosReport = {
    runs: results.size,
    kills,
    restarts,
    applied: 0,
    escalated: 0,
    escalatedWithRow: 0,
    otherFailures: 0,
    failures: {},
    duplicates: 0,
    lost: 0,
    failedWithRow: 0,
    stuck,
    maxReplaysPerOperation: 0,
    durationMs: Date.now() - startedMs,
  };
  const rowsOf = o.ledger.db.prepare('SELECT COUNT(*) AS n FROM refunds WHERE order_id = ?');
  for (const [id, { orderId, key, result }] of results) {
    if (open.has(id)) continue;
    const rows = (rowsOf.get(orderId) as { n: number }).n;
    if (rows > 1) report.duplicates += 1;
    report.maxReplaysPerOperation = Math.max(report.maxReplaysPerOperation, o.ledger.writes(key) - 1);
    const r = await result;
    const outcome = r === 'failed' ? undefined : r.outcomes[0];
    if (!outcome?.ok) {
      const kind = outcome ? `${outcome.action}/${outcome.failure.class}/${outcome.failure.reason}` : 'workflow_failed';
      report.failures[kind] = (report.failures[kind] ?? 0) + 1;
    }
    if (outcome?.ok) {
      report.applied += 1;
      if (rows === 0) report.lost += 1;
    } else if (outcome && outcome.action === 'escalate') {
      report.escalated += 1;
      if (rows > 0) report.escalatedWithRow += 1;
    } else {
      report.otherFailures += 1;
      if (rows > 0) report.failedWithRow += 1;
    }
  }
  return report;
}
