/**
 * Record → metrics: what one recovery record (recovery/records.ts) and one ended run add to the metrics of
 * plugin/metric-definitions.ts. Each record is judged by the predicates of recovery/telemetry.ts, so the metrics
 * agree with `summarizeRecords`. Labels are bounded: a value outside its fixed set is `(unknown)`, an absent one
 * `none`. Turn counting, which needs per-workflow memory, is `RecoveryMetrics`'s (plugin/metrics.ts).
 */
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
import type { RunEnded } from '../workflows/telemetry-sinks';
import type { MetricSet } from './metric-definitions';

/** How an agent run may end (`RunEnded.status`); any other value is counted as `(unknown)`. */
export const RUN_STATUSES = ['submitted', 'no_submission', 'stopped', 'escalated'] as const;

/** The label value of a tool name not registered with `addTools`, or of a value outside its fixed set. */
export const UNKNOWN_LABEL = '(unknown)';
/** The label value of an absent class or action (a success has neither). */
export const NONE_LABEL = 'none';

/** The values of `RecoveryRecord.reconciled`: the `how` label of `recovery_reconciled_total`. */
const RECONCILED_HOW = ['lookup', 'replay', 'review_replay', 'marked_applied', 'already_satisfied'] as const;
const TERMINAL_STATES = Object.values(TerminalState);

/**
 * Counts one record (an object) in every metric but `recovery_turns_total`. `tool` is its label value, already
 * bounded. Never throws: non-numeric fields of a malformed record are skipped.
 */
export function observeRecordMetrics(m: MetricSet, record: RecoveryRecord, tool: string): void {
  const cls = oneOf(record.class, FAILURE_CLASSES);
  const terminal = oneOf(record.terminal, TERMINAL_STATES);
  m.records.inc({ tool, class: cls, action: oneOf(record.action, RECOVERY_ACTIONS), terminal });
  if (isReplan(record)) m.replans.inc({ tool, class: oneOf(replanClass(record), FAILURE_CLASSES) });
  if (nonNegative(record.replanLatencyMs)) {
    m.timeToReplan.observe(
      { class: oneOf(record.replanAfter ?? 'unrecoverable', FAILURE_CLASSES) },
      record.replanLatencyMs,
    );
  }
  if (hasDispatched(record) && Number.isFinite(record.attempts)) m.retries.observe({ tool }, retriesUsed(record));
  if (record.budgetsLeft && retryBudgetExhausted(record)) m.retryExhausted.inc({ tool });
  if (neededRetry(record)) m.retryNeeded.inc({ tool });
  if (retriedThenSucceeded(record)) m.retryThenSucceed.inc({ tool });
  if (isEscalation(record)) m.escalations.inc({ tool, class: cls });
  if (record.reconciled !== undefined) m.reconciled.inc({ tool, how: oneOf(record.reconciled, RECONCILED_HOW) });
  if (nonNegative(record.durationMs)) m.callDuration.observe({ tool, terminal }, record.durationMs);
}

/** Counts one ended run (an object): `recovery_runs_total`, and `recovery_run_turns` when `turns` is a count. */
export function observeRunMetrics(m: MetricSet, event: RunEnded): void {
  const status = oneOf(event.status, RUN_STATUSES);
  m.runs.inc({ status });
  if (nonNegative(event.turns)) m.runTurns.observe({ status }, event.turns);
}

/** `value` if it is one of `allowed`, `none` when absent, `(unknown)` otherwise. */
function oneOf(value: unknown, allowed: readonly string[]): string {
  if (value === undefined || value === null) return NONE_LABEL;
  return typeof value === 'string' && allowed.includes(value) ? value : UNKNOWN_LABEL;
}

/** A finite number ≥ 0: a duration in ms, a count. */
function nonNegative(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}
