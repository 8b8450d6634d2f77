/**
 * The telemetry contract between workflow code and the worker: workflow code cannot reach a metrics library (no
 * I/O in the sandbox), so it hands each recovery record to a Temporal sink (`proxySinks`, Temporal docs "Sinks");
 * the worker side (plugin/metrics.ts) turns them into prom-client metrics. Sink calls are not made while a history
 * is replayed (`callDuringReplay: false`), so a record counts once however often its workflow is replayed.
 *
 * Sandbox-safe: types and `proxySinks` only.
 */
import { proxySinks, type Sinks } from '@temporalio/workflow';
import type { RecoveryRecord } from '../recovery/records';

/** How an agent run ended (workflows/agent.ts). */
export interface RunEnded {
  /** `submitted`, `no_submission`, `stopped`, `escalated`. */
  status: string;
  /** Planner turns the run (all its continue-as-new runs) used. */
  turns: number;
}

/**
 * The `recoveryTelemetry` sink workflow code calls with each recovery record and each run's end (Temporal docs,
 * "Sinks").
 */
export interface RecoverySinks extends Sinks {
  recoveryTelemetry: {
    /** One recovery record, as the router wrote it. */
    record(record: RecoveryRecord): void;
    /** An agent run ended (once per workflow, not per continue-as-new run). */
    runEnded(event: RunEnded): void;
  };
}

/** The sink proxy. Calls are dropped (with a worker warning) when the worker registered no such sink. */
export const telemetry = proxySinks<RecoverySinks>().recoveryTelemetry;
