/**
 * `RecoveryMetrics`: the worker side of recovery telemetry, on prom-client. Workflow code hands every recovery
 * record to a Temporal sink (workflows/telemetry-sinks.ts); `sinks()` turns them into Prometheus metrics in a
 * registry of its own (never prom-client's global one), and `text()` / `serve()` expose them.
 *
 *   const metrics = new RecoveryMetrics();
 *   const plugin = new RecoveryPlugin({ tools, telemetry: metrics }); // registers the sinks and its tool names
 *   const server = await metrics.serve(9464);              // GET http://127.0.0.1:9464/metrics
 *
 * What it counts, and the dashboards of docs/DESIGN.md, "Telemetry" (replan rate per class per turn, time to replan
 * after a semantic failure, retry budget use per tool, escalations that reach a person), in PromQL:
 *   replan rate per class per turn   sum by (class) (rate(recovery_replans_total[1h])) / scalar(rate(recovery_turns_total[1h]))
 *   time to replan after a semantic failure   histogram_quantile(0.9, rate(recovery_time_to_replan_ms_bucket{class="semantic_rejection"}[1h]))
 *   retry budget use per tool        rate(recovery_retries_used_sum[1h]) / rate(recovery_retries_used_count[1h])
 *   retry-then-succeed rate          rate(recovery_retry_then_succeed_total[1h]) / rate(recovery_retry_needed_total[1h])
 *   escalations                      increase(recovery_escalations_total[1d])
 *   writes settled without a replay  sum by (how) (increase(recovery_reconciled_total[1d]))  (how="already_satisfied": the
 *                                    goal already held, docs/DESIGN.md, "Already done is done")
 * Each record is judged by the predicates of recovery/telemetry.ts, so these agree with `summarizeRecords`.
 *
 * Labels are bounded: `tool` is a name registered with `addTools` (the plugin registers its catalog) or
 * `(unknown)` — a model may name any tool, and that name must not become a time series; `class`, `action`,
 * `terminal` and `status` are values of fixed sets, `none` when absent and `(unknown)` when outside the set. Never
 * a call id, arguments or a workflow id.
 *
 * Sinks run with `callDuringReplay: false`: a record counts once however often its history is replayed (a worker
 * restart, a sticky-cache eviction, `Worker.runReplayHistory`). Temporal's caveat applies: a workflow task that
 * fails after a sink call and is retried (not replayed) calls it again.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { InjectedSinks } from '@temporalio/worker';

/** The values of `RecoveryRecord.reconciled`: the `how` label of `recovery_reconciled_total`. */
const RECONCILED_HOW = ['lookup', 'replay', 'review_replay', 'marked_applied', 'already_satisfied'] as const;
import type { WorkflowInfo } from '@temporalio/workflow';
import { Counter, Histogram, Registry } from 'prom-client';
import { FAILURE_CLASSES } from '../recovery/failure';
import { TerminalState, type RecoveryRecord } from '../recovery/records';
import { RECOVERY_ACTIONS } from '../recovery/routes';
import {
  hasDispatched,
  isEscalation,
  isReplan,
  neededRetry,
  replanClass,
  retriedThenSucceeded,
  retriesUsed,
  retryBudgetExhausted,
} from '../recovery/telemetry';
import type { RecoverySinks, RunEnded } from '../workflows/telemetry-sinks';
import type { RecoveryTelemetry } from './telemetry';
import { RecoveryError } from '../recovery/recovery-error';

/** How an agent run may end (`RunEnded.status`); any other value is counted as `(unknown)`. */
export const RUN_STATUSES = ['submitted', 'no_submission', 'stopped', 'escalated'] as const;

/** The label value of a tool name not registered with `addTools`, or of a value outside its fixed set. */
export const UNKNOWN_LABEL = '(unknown)';
/** The label value of an absent class or action (a success has neither). */
export const NONE_LABEL = 'none';

/** Default buckets of `recovery_time_to_replan_ms` and `recovery_call_duration_ms`, in ms (10 ms to 5 min). */
export const DEFAULT_DURATION_BUCKETS_MS: readonly number[] = Object.freeze([
  10, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000, 60_000, 300_000,
]);
/** Buckets of `recovery_retries_used` (retries per call; the default per-call budget is 3). */
export const RETRIES_USED_BUCKETS: readonly number[] = Object.freeze([0, 1, 2, 3, 5, 10]);
/** Buckets of `recovery_run_turns` (planner turns per agent run). */
export const RUN_TURNS_BUCKETS: readonly number[] = Object.freeze([1, 2, 3, 5, 8, 13, 21, 34, 55]);

export interface RecoveryMetricsOptions {
  /** Tool names allowed as `tool` label values (more can be added with `addTools`). @default [] */
  tools?: readonly string[];
  /**
   * Workflows whose last counted turn is remembered, to count each turn once (`recovery_turns_total`); the least
   * recently seen is forgotten first. A forgotten workflow's next record counts its turn again, so keep this above
   * the number of workflows with tool calls in flight on one worker. A positive integer. @default 10_000
   */
  maxTrackedWorkflows?: number;
  /** Buckets of `recovery_time_to_replan_ms`, in ms: ascending, finite, ≥ 0. @default DEFAULT_DURATION_BUCKETS_MS */
  timeToReplanBucketsMs?: readonly number[];
  /** Buckets of `recovery_call_duration_ms`, in ms: ascending, finite, ≥ 0. @default DEFAULT_DURATION_BUCKETS_MS */
  callDurationBucketsMs?: readonly number[];
}

/** A `RecoveryMetrics` option that cannot be used. */
export class RecoveryMetricsOptionsError extends RecoveryError<'invalid_metrics_options'> {
  override readonly name = 'RecoveryMetricsOptionsError';
  static override readonly codes: readonly string[] = ['invalid_metrics_options'];
  constructor(message: string) {
    super('invalid_metrics_options', message);
  }
}

/** A running `/metrics` endpoint. */
export interface MetricsServer {
  /** `http://<host>:<port>/metrics`, with the port actually bound (useful with port 0). */
  url: string;
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
}

/** The workflow a record came from, as far as turn counting needs it (a subset of Temporal's `WorkflowInfo`). */
export type RecordSource = Pick<WorkflowInfo, 'namespace' | 'firstExecutionRunId'>;

export class RecoveryMetrics implements RecoveryTelemetry {
  /** The registry every metric lives in: this instance's own, never prom-client's global `register`. */
  readonly registry = new Registry();

  private readonly knownTools = new Set<string>();
  /** `<namespace>/<firstExecutionRunId>` → the last turn counted, in least-recently-seen order (a Map keeps order). */
  private readonly lastTurn = new Map<string, number>();
  private readonly maxTrackedWorkflows: number;

  private readonly records: Counter<'tool' | 'class' | 'action' | 'terminal'>;
  private readonly turns: Counter;
  private readonly replans: Counter<'tool' | 'class'>;
  private readonly timeToReplan: Histogram<'class'>;
  private readonly retries: Histogram<'tool'>;
  private readonly retryExhausted: Counter<'tool'>;
  private readonly retryNeeded: Counter<'tool'>;
  private readonly retryThenSucceed: Counter<'tool'>;
  private readonly escalations: Counter<'tool' | 'class'>;
  private readonly reconciled: Counter<'tool' | 'how'>;
  private readonly callDuration: Histogram<'tool' | 'terminal'>;
  private readonly runs: Counter<'status'>;
  private readonly runTurns: Histogram<'status'>;
  private readonly injected: InjectedSinks<RecoverySinks>;

  /** @throws RecoveryMetricsOptionsError when an option is out of its bounds (the message names it). */
  constructor(options: RecoveryMetricsOptions = {}) {
    if (typeof options !== 'object' || options === null) {
      throw new RecoveryMetricsOptionsError('RecoveryMetrics: options must be an object');
    }
    this.maxTrackedWorkflows = options.maxTrackedWorkflows ?? 10_000;
    if (!Number.isSafeInteger(this.maxTrackedWorkflows) || this.maxTrackedWorkflows < 1) {
      throw new RecoveryMetricsOptionsError(
        `RecoveryMetrics: maxTrackedWorkflows must be a positive integer (got ${String(options.maxTrackedWorkflows)})`,
      );
    }
    const replanBuckets = checkBuckets('timeToReplanBucketsMs', options.timeToReplanBucketsMs);
    const durationBuckets = checkBuckets('callDurationBucketsMs', options.callDurationBucketsMs);
    this.addTools(options.tools ?? []);

    const registers = [this.registry];
    this.records = new Counter({
      name: 'recovery_records_total',
      help: 'Recovery records (one per tool call) by tool, failure class, action and terminal state.',
      labelNames: ['tool', 'class', 'action', 'terminal'],
      registers,
    });
    this.turns = new Counter({
      name: 'recovery_turns_total',
      help: 'Planner turns with at least one tool call (each counted once per workflow).',
      registers,
    });
    this.replans = new Counter({
      name: 'recovery_replans_total',
      help: 'Calls routed to another way (action replan or reject) by tool and failure class.',
      labelNames: ['tool', 'class'],
      registers,
    });
    this.timeToReplan = new Histogram({
      name: 'recovery_time_to_replan_ms',
      help: 'Workflow time from a failure routed to replan/reject to the start of the next call, in ms, by the class that asked for the replan.',
      labelNames: ['class'],
      buckets: replanBuckets,
      registers,
    });
    this.retries = new Histogram({
      name: 'recovery_retries_used',
      help: 'Attempts after the first (attempts - 1) per tool call that dispatched, by tool.',
      labelNames: ['tool'],
      buckets: [...RETRIES_USED_BUCKETS],
      registers,
    });
    this.retryExhausted = new Counter({
      name: 'recovery_retry_budget_exhausted_total',
      help: 'Calls that ended on a transient failure with no per-call retry left, by tool.',
      labelNames: ['tool'],
      registers,
    });
    this.retryNeeded = new Counter({
      name: 'recovery_retry_needed_total',
      help: 'Calls that needed a retry (more than one attempt, time_elapsed evidence, or a transient failure), by tool.',
      labelNames: ['tool'],
      registers,
    });
    this.retryThenSucceed = new Counter({
      name: 'recovery_retry_then_succeed_total',
      help: 'Calls that succeeded after a retry (more than one attempt or time_elapsed evidence), by tool.',
      labelNames: ['tool'],
      registers,
    });
    this.escalations = new Counter({
      name: 'recovery_escalations_total',
      help: 'Calls routed to escalate (a person must act), by tool and failure class.',
      labelNames: ['tool', 'class'],
      registers,
    });
    this.reconciled = new Counter({
      name: 'recovery_reconciled_total',
      help: 'Writes settled after a refusal or an unknown outcome, by tool and how (lookup, replay, review_replay, marked_applied, already_satisfied).',
      labelNames: ['tool', 'how'],
      registers,
    });
    this.callDuration = new Histogram({
      name: 'recovery_call_duration_ms',
      help: 'Workflow time from a tool call start to its record, in ms, by tool and terminal state.',
      labelNames: ['tool', 'terminal'],
      buckets: durationBuckets,
      registers,
    });
    this.runs = new Counter({
      name: 'recovery_runs_total',
      help: 'Agent runs ended, by status.',
      labelNames: ['status'],
      registers,
    });
    this.runTurns = new Histogram({
      name: 'recovery_run_turns',
      help: 'Planner turns per ended agent run (all its continue-as-new runs), by status.',
      labelNames: ['status'],
      buckets: [...RUN_TURNS_BUCKETS],
      registers,
    });

    this.injected = {
      recoveryTelemetry: {
        record: { fn: (info, record) => this.observeRecord(record, info), callDuringReplay: false },
        runEnded: { fn: (info, event) => this.observeRunEnded(event, info), callDuringReplay: false },
      },
    };
  }

  /**
   * Allows tool names as `tool` label values (the plugin adds its catalog). Names that are not strings of 1–64
   * characters are ignored.
   */
  addTools(names: Iterable<string>): void {
    for (const name of names)
      if (typeof name === 'string' && name.length > 0 && name.length <= 64) this.knownTools.add(name);
  }

  /**
   * The sinks to give a worker (`Worker.create({ sinks })`; `RecoveryPlugin` merges them for you). Both run with
   * `callDuringReplay: false`. The same object on every call.
   */
  sinks(): InjectedSinks<RecoverySinks> {
    return this.injected;
  }

  /**
   * Counts one record (what the `record` sink does). `source` identifies the workflow for turn counting: a turn
   * counts when it is the first record of the workflow this instance sees, or when its turn is above the last
   * counted one. Never throws: a value that is not an object is ignored; a malformed record is counted with
   * `(unknown)` labels and its non-numeric fields skipped.
   */
  observeRecord(record: RecoveryRecord, source: RecordSource): void {
    if (typeof record !== 'object' || record === null) return;
    const tool = this.toolLabel(record.tool);
    const cls = oneOf(record.class, FAILURE_CLASSES);
    this.records.inc({
      tool,
      class: cls,
      action: oneOf(record.action, RECOVERY_ACTIONS),
      terminal: oneOf(record.terminal, TERMINAL_STATES),
    });
    this.countTurn(record.turn, source);
    if (isReplan(record)) this.replans.inc({ tool, class: oneOf(replanClass(record), FAILURE_CLASSES) });
    if (isMs(record.replanLatencyMs)) {
      this.timeToReplan.observe(
        { class: oneOf(record.replanAfter ?? 'unrecoverable', FAILURE_CLASSES) },
        record.replanLatencyMs,
      );
    }
    if (hasDispatched(record) && Number.isFinite(record.attempts)) this.retries.observe({ tool }, retriesUsed(record));
    if (record.budgetsLeft && retryBudgetExhausted(record)) this.retryExhausted.inc({ tool });
    if (neededRetry(record)) this.retryNeeded.inc({ tool });
    if (retriedThenSucceeded(record)) this.retryThenSucceed.inc({ tool });
    if (isEscalation(record)) this.escalations.inc({ tool, class: cls });
    if (record.reconciled !== undefined) this.reconciled.inc({ tool, how: oneOf(record.reconciled, RECONCILED_HOW) });
    if (isMs(record.durationMs)) {
      this.callDuration.observe({ tool, terminal: oneOf(record.terminal, TERMINAL_STATES) }, record.durationMs);
    }
  }

  /** Counts an ended agent run (what the `runEnded` sink does) and forgets the workflow's turn count. Never throws. */
  observeRunEnded(event: RunEnded, source: RecordSource): void {
    if (typeof event !== 'object' || event === null) return;
    const status = oneOf(event.status, RUN_STATUSES);
    this.runs.inc({ status });
    if (typeof event.turns === 'number' && Number.isFinite(event.turns) && event.turns >= 0) {
      this.runTurns.observe({ status }, event.turns);
    }
    this.lastTurn.delete(workflowKey(source));
  }

  /** The metrics in Prometheus text exposition format (version 0.0.4). */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  /** The `Content-Type` of `text()`. */
  get contentType(): string {
    return this.registry.contentType;
  }

  /**
   * Serves `GET /metrics` (and `HEAD`) on a node:http server; any other path is 404, any other method 405.
   * @param port TCP port; 0 picks a free one (see `url`).
   * @param host address to bind. @default '127.0.0.1' (loopback: expose it further only on purpose)
   * @throws RecoveryMetricsOptionsError when `port` is not an integer in 0–65535.
   * @returns a promise that rejects with the listen error (e.g. EADDRINUSE).
   */
  serve(port: number, host = '127.0.0.1'): Promise<MetricsServer> {
    if (!Number.isInteger(port) || port < 0 || port > 65_535) {
      return Promise.reject(
        new RecoveryMetricsOptionsError(`RecoveryMetrics.serve: port must be an integer in 0–65535 (got ${port})`),
      );
    }
    const server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      if (path !== '/metrics') {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: GET /metrics\n');
        return;
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('method not allowed\n');
        return;
      }
      this.text().then(
        (body) =>
          res.writeHead(200, { 'content-type': this.contentType }).end(req.method === 'HEAD' ? undefined : body),
        (err: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`${String(err)}\n`),
      );
    });
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        const { port: bound } = server.address() as AddressInfo;
        const shownHost = host.includes(':') ? `[${host}]` : host;
        resolve({
          url: `http://${shownHost}:${bound}/metrics`,
          close: () =>
            new Promise<void>((done, fail) => {
              server.close((err) => (err ? fail(err) : done()));
              server.closeAllConnections();
            }),
        });
      });
    });
  }

  private toolLabel(tool: unknown): string {
    return typeof tool === 'string' && this.knownTools.has(tool) ? tool : UNKNOWN_LABEL;
  }

  private countTurn(turn: unknown, source: RecordSource): void {
    if (typeof turn !== 'number' || !Number.isFinite(turn)) return;
    const key = workflowKey(source);
    const last = this.lastTurn.get(key);
    if (last !== undefined && turn <= last) {
      this.touch(key, last);
      return;
    }
    this.turns.inc();
    this.touch(key, turn);
  }

  /** Marks the workflow as most recently seen; forgets the least recently seen beyond `maxTrackedWorkflows`. */
  private touch(key: string, turn: number): void {
    this.lastTurn.delete(key);
    this.lastTurn.set(key, turn);
    if (this.lastTurn.size > this.maxTrackedWorkflows) {
      const oldest = this.lastTurn.keys().next();
      if (!oldest.done) this.lastTurn.delete(oldest.value);
    }
  }
}

const TERMINAL_STATES = Object.values(TerminalState);

function workflowKey(source: RecordSource | undefined): string {
  return `${source?.namespace ?? ''}/${source?.firstExecutionRunId ?? ''}`;
}

/** `value` if it is one of `allowed`, `none` when absent, `(unknown)` otherwise. */
function oneOf(value: unknown, allowed: readonly string[]): string {
  if (value === undefined || value === null) return NONE_LABEL;
  return typeof value === 'string' && allowed.includes(value) ? value : UNKNOWN_LABEL;
}

function isMs(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function checkBuckets(field: string, buckets: readonly number[] | undefined): number[] {
  if (buckets === undefined) return [...DEFAULT_DURATION_BUCKETS_MS];
  const ok =
    Array.isArray(buckets) &&
    buckets.length > 0 &&
    buckets.every((b, i) => typeof b === 'number' && Number.isFinite(b) && b >= 0 && (i === 0 || b > buckets[i - 1]!));
  if (!ok) {
    throw new RecoveryMetricsOptionsError(
      `RecoveryMetrics: ${field} must be a non-empty list of finite numbers ≥ 0 ms in ascending order`,
    );
  }
  return [...buckets];
}
