/**
 * Where a `RecoveryPlugin` sends the router's recovery records. Workflow code hands each record to the
 * `recoveryTelemetry` sink (workflows/telemetry-sinks.ts, Temporal docs "Sinks"); a `RecoveryTelemetry` supplies
 * the worker side of that sink. `RecoveryMetrics` (`recovery-router/metrics`, on prom-client) is one; without
 * one the plugin registers `NO_TELEMETRY`, so the core loads no metrics library.
 */
import type { InjectedSinks } from '@temporalio/worker';
import type { RecoverySinks } from '../workflows/telemetry-sinks';

/**
 * Where a plugin sends recovery records: the worker side of the `recoveryTelemetry` sink. `RecoveryMetrics`
 * (`recovery-router/metrics`) is one; `NO_TELEMETRY` (`recovery-router/testing`) drops them.
 */
export interface RecoveryTelemetry {
  /** The `recoveryTelemetry` sink functions the plugin adds to the worker's `sinks`. */
  sinks(): InjectedSinks<RecoverySinks>;
  /** Called by the plugin with its catalog's tool names (e.g. to bound label values). */
  addTools?(names: Iterable<string>): void;
}

const ignore = { fn: () => undefined, callDuringReplay: false } as const;

/**
 * Sinks that do nothing. Registered when no telemetry is given: a worker without a `recoveryTelemetry` sink logs
 * "Workflow referenced an unregistered external sink" at every recovery record.
 */
export const NO_TELEMETRY: RecoveryTelemetry = Object.freeze({
  sinks: (): InjectedSinks<RecoverySinks> => ({ recoveryTelemetry: { record: ignore, runEnded: ignore } }),
});
