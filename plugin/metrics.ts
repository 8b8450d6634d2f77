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
import type { InjectedSinks } from '@temporalio/worker';
import type { WorkflowInfo } from '@temporalio/workflow';
import { Registry } from 'prom-client';
import type { RecoveryRecord } from '../recovery/records';
import type { RecoverySinks, RunEnded } from '../workflows/telemetry-sinks';
import { createMetricSet, type MetricSet } from './metric-definitions';
import { parseMetricsOptions, type RecoveryMetricsOptions } from './metrics-options';
import { serveMetrics, type MetricsServer } from './metrics-serve';
import { observeRecordMetrics, observeRunMetrics, UNKNOWN_LABEL } from './record-metrics';
import type { RecoveryTelemetry } from './telemetry';

export { RecoveryMetricsOptionsError, type RecoveryMetricsOptions } from './metrics-options';
export type { MetricsServer } from './metrics-serve';

/** The workflow a record came from, as far as turn counting needs it (a subset of Temporal's `WorkflowInfo`). */
export type RecordSource = Pick<WorkflowInfo, 'namespace' | 'firstExecutionRunId'>;

export class RecoveryMetrics implements RecoveryTelemetry {
  /** The registry every metric lives in: this instance's own, never prom-client's global `register`. */
  readonly registry = new Registry();

  private readonly knownTools = new Set<string>();
  /** `<namespace>/<firstExecutionRunId>` → the last turn counted, in least-recently-seen order (a Map keeps order). */
  private readonly lastTurn = new Map<string, number>();
  private readonly maxTrackedWorkflows: number;
  private readonly metrics: MetricSet;
  private readonly injected: InjectedSinks<RecoverySinks>;

  /** @throws RecoveryMetricsOptionsError when an option is out of its bounds or unknown (the message names it). */
  constructor(options: RecoveryMetricsOptions = {}) {
    const settings = parseMetricsOptions(options);
    this.maxTrackedWorkflows = settings.maxTrackedWorkflows;
    this.addTools(settings.tools);
    this.metrics = createMetricSet(this.registry, settings);
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
    const tool = typeof record.tool === 'string' && this.knownTools.has(record.tool) ? record.tool : UNKNOWN_LABEL;
    observeRecordMetrics(this.metrics, record, tool);
    this.countTurn(record.turn, source);
  }

  /** Counts an ended agent run (what the `runEnded` sink does) and forgets the workflow's turn count. Never throws. */
  observeRunEnded(event: RunEnded, source: RecordSource): void {
    if (typeof event !== 'object' || event === null) return;
    observeRunMetrics(this.metrics, event);
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
   * Serves `GET /metrics` (and `HEAD`) on a node:http server; any other path is 404, any other method 405
   * (plugin/metrics-serve.ts).
   * @param port TCP port; 0 picks a free one (see `url`).
   * @param host address to bind. @default '127.0.0.1' (loopback: expose it further only on purpose)
   * @throws RecoveryMetricsOptionsError (as a rejection) when `port` is not an integer in 0–65535.
   * @returns a promise that rejects with the listen error (e.g. EADDRINUSE).
   */
  serve(port: number, host = '127.0.0.1'): Promise<MetricsServer> {
    return serveMetrics(this, port, host);
  }

  private countTurn(turn: unknown, source: RecordSource): void {
    if (typeof turn !== 'number' || !Number.isFinite(turn)) return;
    const key = workflowKey(source);
    const last = this.lastTurn.get(key);
    if (last === undefined || turn > last) this.metrics.turns.inc();
    this.touch(key, Math.max(turn, last ?? turn));
  }

  /** Marks the workflow as most recently seen; forgets the least recently seen beyond `maxTrackedWorkflows`. */
  private touch(key: string, turn: number): void {
    this.lastTurn.delete(key);
    this.lastTurn.set(key, turn);
    if (this.lastTurn.size > this.maxTrackedWorkflows) this.lastTurn.delete(this.lastTurn.keys().next().value!);
  }
}

function workflowKey(source: RecordSource | undefined): string {
  return `${source?.namespace ?? ''}/${source?.firstExecutionRunId ?? ''}`;
}
