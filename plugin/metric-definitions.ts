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

/** Every metric, by the key `MetricSet` holds it under. */
export const METRIC_DEFINITIONS = {
  records: {
    kind: 'counter',
    name: 'recovery_records_total',
    help: 'Recovery records (one per tool call) by tool, failure class, action and terminal state.',
    labelNames: ['tool', 'class', 'action', 'terminal'],
  },
  turns: {
    kind: 'counter',
    name: 'recovery_turns_total',
    help: 'Planner turns with at least one tool call (each counted once per workflow).',
    labelNames: [],
  },
  replans: {
    kind: 'counter',
    name: 'recovery_replans_total',
    help: 'Calls routed to another way (action replan or reject) by tool and failure class.',
    labelNames: ['tool', 'class'],
  },
  timeToReplan: {
    kind: 'histogram',
    name: 'recovery_time_to_replan_ms',
    help: 'Workflow time from a failure routed to replan/reject to the start of the next call, in ms, by the class that asked for the replan.',
    labelNames: ['class'],
    buckets: 'timeToReplanBucketsMs',
  },
  retries: {
    kind: 'histogram',
    name: 'recovery_retries_used',
    help: 'Attempts after the first (attempts - 1) per tool call that dispatched, by tool.',
    labelNames: ['tool'],
    buckets: RETRIES_USED_BUCKETS,
  },
  retryExhausted: {
    kind: 'counter',
    name: 'recovery_retry_budget_exhausted_total',
    help: 'Calls that ended on a transient failure with no per-call retry left, by tool.',
    labelNames: ['tool'],
  },
  retryNeeded: {
    kind: 'counter',
    name: 'recovery_retry_needed_total',
    help: 'Calls that needed a retry (more than one attempt, time_elapsed evidence, or a transient failure), by tool.',
    labelNames: ['tool'],
  },
  retryThenSucceed: {
    kind: 'counter',
    name: 'recovery_retry_then_succeed_total',
    help: 'Calls that succeeded after a retry (more than one attempt or time_elapsed evidence), by tool.',
    labelNames: ['tool'],
  },
  escalations: {
    kind: 'counter',
    name: 'recovery_escalations_total',
    help: 'Calls routed to escalate (a person must act), by tool and failure class.',
    labelNames: ['tool', 'class'],
  },
  reconciled: {
    kind: 'counter',
    name: 'recovery_reconciled_total',
    help: 'Writes settled after a refusal or an unknown outcome, by tool and how (lookup, replay, review_replay, marked_applied, already_satisfied).',
    labelNames: ['tool', 'how'],
  },
  callDuration: {
    kind: 'histogram',
    name: 'recovery_call_duration_ms',
    help: 'Workflow time from a tool call start to its record, in ms, by tool and terminal state.',
    labelNames: ['tool', 'terminal'],
    buckets: 'callDurationBucketsMs',
  },
  runs: {
    kind: 'counter',
    name: 'recovery_runs_total',
    help: 'Agent runs ended, by status.',
    labelNames: ['status'],
  },
  runTurns: {
    kind: 'histogram',
    name: 'recovery_run_turns',
    help: 'Planner turns per ended agent run (all its continue-as-new runs), by status.',
    labelNames: ['status'],
    buckets: RUN_TURNS_BUCKETS,
  },
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
