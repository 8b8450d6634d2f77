/**
 * The options of `RecoveryMetrics` (plugin/metrics.ts): their shape, a zod schema built on first use
 * (recovery/lazy.ts; docs/DESIGN.md, "Performance"), and the error a bad one throws. Each zod message is the rule;
 * `parseMetricsOptions` prefixes it with the field, e.g.
 * `RecoveryMetrics: maxTrackedWorkflows must be a positive integer (got 0)`.
 */
import type { z } from 'zod';
import { optionRules } from '../recovery/errors';
import { lazy } from '../recovery/lazy';
import { RecoveryError } from '../recovery/recovery-error';

/** Default buckets of `recovery_time_to_replan_ms` and `recovery_call_duration_ms`, in ms (10 ms to 5 min). */
export const DEFAULT_DURATION_BUCKETS_MS: readonly number[] = Object.freeze([
  10, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000, 60_000, 300_000,
]);

/**
 * Options of `new RecoveryMetrics()`: the catalog's tool names (bounded labels), how many workflows it tracks,
 * histogram buckets in ms.
 */
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

/** The options with their defaults filled in; the bucket lists are copies. */
export type MetricsSettings = Required<RecoveryMetricsOptions>;

/** A `RecoveryMetrics` option that cannot be used. */
export class RecoveryMetricsOptionsError extends RecoveryError<'invalid_metrics_options'> {
  override readonly name = 'RecoveryMetricsOptionsError';
  static override readonly codes: readonly string[] = ['invalid_metrics_options'];
  constructor(message: string) {
    super('invalid_metrics_options', message);
  }
}

const KEYS = ['tools', 'maxTrackedWorkflows', 'timeToReplanBucketsMs', 'callDurationBucketsMs'] as const;
const BUCKETS = 'must be a non-empty list of finite numbers ≥ 0 ms in ascending order';

const metricsOptionsSchema = lazy((z) => {
  const buckets = z
    .array(z.number({ error: BUCKETS }).min(0, { error: BUCKETS }), { error: BUCKETS })
    .min(1, { error: BUCKETS })
    .refine((b) => b.every((v, i) => i === 0 || v > b[i - 1]!), { error: BUCKETS })
    .optional();
  const { positiveInteger, strictly } = optionRules(z);
  return strictly(
    {
      tools: z
        .array(z.string({ error: 'must be a list of tool names' }), { error: 'must be a list of tool names' })
        .optional(),
      maxTrackedWorkflows: positiveInteger(),
      timeToReplanBucketsMs: buckets,
      callDurationBucketsMs: buckets,
    },
    KEYS,
    'options must be an object',
  );
});

/** The message of the first issue: `RecoveryMetrics: <field> <rule>`. */
function messageOf(issue: z.core.$ZodIssue): string {
  const field = issue.code === 'unrecognized_keys' ? issue.keys[0] : issue.path[0];
  return field === undefined
    ? `RecoveryMetrics: ${issue.message}`
    : `RecoveryMetrics: ${String(field)} ${issue.message}`;
}

/**
 * Checks `options` and fills in the defaults.
 * @throws RecoveryMetricsOptionsError naming the first field out of its bounds (or an unknown one).
 */
export function parseMetricsOptions(options: RecoveryMetricsOptions | undefined): MetricsSettings {
  const parsed = metricsOptionsSchema().safeParse(options === undefined ? {} : options);
  if (!parsed.success) throw new RecoveryMetricsOptionsError(messageOf(parsed.error.issues[0]!));
  const o = parsed.data;
  return {
    tools: o.tools ?? [],
    maxTrackedWorkflows: o.maxTrackedWorkflows ?? 10_000,
    timeToReplanBucketsMs: [...(o.timeToReplanBucketsMs ?? DEFAULT_DURATION_BUCKETS_MS)],
    callDurationBucketsMs: [...(o.callDurationBucketsMs ?? DEFAULT_DURATION_BUCKETS_MS)],
  };
}
