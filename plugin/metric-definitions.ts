/**
 * The table of the metrics `RecoveryMetrics` keeps (plugin/metrics.ts): one row per metric, its Prometheus name,
 * help text, labels and buckets, and `createMetricSet`, which registers them all in one registry. The dashboards
 * built on them are in plugin/metrics.ts's header (docs/DESIGN.md, "Telemetry").
 */
import { Counter, Histogram, type Registry } from 'prom-client';

/** Buckets of `recovery_retries_used` (retries per call; the default per-call budget is 3). */
export const RETRIES_USED_BUCKETS: readonly number[] = Object.freeze([0, 1, 2, 3, 5, 10]);
/** Buckets of `recovery_run_turns` (planner turns per agent run). */
export const RUN_TURNS_BUCKETS: readonly number[] = Object.freeze([1, 2, 3, 5, 8, 13, 21, 34, 55]);

/** A histogram's buckets: a fixed list, or the name of the option (in ms) that sets them. */
type Buckets = readonly number[] | 'timeToReplanBucketsMs' | 'callDurationBucketsMs';

interface MetricDefinition {
  readonly kind: 'counter' | 'histogram';
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];
  readonly buckets?: Buckets;
}

/** A counter row: its Prometheus name, label names and help text. */
const counter = <const L extends string>(name: string, labelNames: readonly L[], help: string) =>
  ({ kind: 'counter', name, help, labelNames }) as const;
/** A histogram row: its Prometheus name, label names, buckets and help text. */
const histogram = <const L extends string>(name: string, labelNames: readonly L[], buckets: Buckets, help: string) =>
  ({ kind: 'histogram', name, help, labelNames, buckets }) as const;

/** Every metric, by the key `MetricSet` holds it under. */
// prettier-ignore
export const METRIC_DEFINITIONS = {
  records: counter('recovery_records_total', ['tool', 'class', 'action', 'terminal'],
    'Recovery records (one per tool call) by tool, failure class, action and terminal state.'),
  turns: counter('recovery_turns_total', [],
    'Planner turns with at least one tool call (each counted once per workflow).'),
  replans: counter('recovery_replans_total', ['tool', 'class'],
    'Calls routed to another way (action replan or reject) by tool and failure class.'),
  timeToReplan: histogram('recovery_time_to_replan_ms', ['class'], 'timeToReplanBucketsMs',
    'Workflow time from a failure routed to replan/reject to the start of the next call, in ms, by the class that asked for the replan.'),
  retries: histogram('recovery_retries_used', ['tool'], RETRIES_USED_BUCKETS,
    'Attempts after the first (attempts - 1) per tool call that dispatched, by tool.'),
  retryExhausted: counter('recovery_retry_budget_exhausted_total', ['tool'],
    'Calls that ended on a transient failure with no per-call retry left, by tool.'),
  retryNeeded: counter('recovery_retry_needed_total', ['tool'],
    'Calls that needed a retry (more than one attempt, time_elapsed evidence, or a transient failure), by tool.'),
  retryThenSucceed: counter('recovery_retry_then_succeed_total', ['tool'],
    'Calls that succeeded after a retry (more than one attempt or time_elapsed evidence), by tool.'),
  escalations: counter('recovery_escalations_total', ['tool', 'class'],
    'Calls routed to escalate (a person must act), by tool and failure class.'),
  reconciled: counter('recovery_reconciled_total', ['tool', 'how'],
    'Writes settled after a refusal or an unknown outcome, by tool and how (lookup, replay, review_replay, marked_applied, already_satisfied).'),
  callDuration: histogram('recovery_call_duration_ms', ['tool', 'terminal'], 'callDurationBucketsMs',
    'Workflow time from a tool call start to its record, in ms, by tool and terminal state.'),
  runs: counter('recovery_runs_total', ['status'],
    'Agent runs ended, by status.'),
  runTurns: histogram('recovery_run_turns', ['status'], RUN_TURNS_BUCKETS,
    'Planner turns per ended agent run (all its continue-as-new runs), by status.'),
} as const satisfies Record<string, MetricDefinition>;

/** The metric definitions table. */
type Definitions = typeof METRIC_DEFINITIONS;
/** A definition's label names. */
type LabelOf<D> = D extends { readonly labelNames: readonly (infer L extends string)[] } ? L : never;
/** The prom-client metric a definition makes: a histogram or a counter. */
type MetricOf<D> = D extends { readonly kind: 'histogram' } ? Histogram<LabelOf<D>> : Counter<LabelOf<D>>;

/** One prom-client metric per row of `METRIC_DEFINITIONS`, typed by its labels. */
export type MetricSet = { readonly [K in keyof Definitions]: MetricOf<Definitions[K]> };

/** The buckets the options set, in ms. */
export type BucketOptions = Readonly<Record<'timeToReplanBucketsMs' | 'callDurationBucketsMs', readonly number[]>>;

/** Registers every metric of the table in `registry` (and only there). */
export function createMetricSet(registry: Registry, buckets: BucketOptions): MetricSet {
  const registers = [registry];
  const entries = Object.entries(METRIC_DEFINITIONS).map(([key, d]: [string, MetricDefinition]) => {
    const common = { name: d.name, help: d.help, labelNames: [...d.labelNames], registers };
    if (d.kind === 'counter') return [key, new Counter(common)];
    const b = d.buckets ?? [];
    return [key, new Histogram({ ...common, buckets: [...(typeof b === 'string' ? buckets[b] : b)] })];
  });
  return Object.fromEntries(entries) as MetricSet;
}
