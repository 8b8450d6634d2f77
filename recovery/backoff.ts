/**
 * Backoff between retries of a transient failure, with `Retry-After` as a floor.
 *
 * Source: docs/DESIGN.md, "Routes" (Retry: about 0.5 s, 1 s and 2 s before retries 1–3, plus jitter so agents do
 * not wake together; `Retry-After` is a floor and jitter only adds to it; a `Retry-After` longer than the run allows
 * is not waited for inside the run); RFC 9110 §10.2.3 (`Retry-After`).
 * The result becomes Temporal's `ApplicationFailure.nextRetryDelay` at the activity edge.
 * Pure: no clock, no `Math.random()`; randomness is a parameter.
 */
import { parseInput, RecoveryInputError, RecoveryInputErrorCode } from './errors';
import { shaped, type Infer, type ShapeBuilders } from './shape';

/**
 * Upper bound of `initialIntervalMs` and `maximumIntervalMs`: 24 hours, in ms. A retry of a transient failure
 * that waits longer than a day inside one run is not a retry but a different plan; Temporal itself would accept
 * any duration, so without a bound a typo (`1e15`, `maximumIntervalMs` written in µs) would park a run for years.
 */
export const MAX_BACKOFF_INTERVAL_MS = 86_400_000;

/**
 * Upper bound of `maxRetryAfterMs`: 7 days, in ms. A server may legitimately ask for a day or more
 * (RFC 9110 §10.2.3 `Retry-After` on a 503 for a maintenance window), so the cap is looser than the interval
 * bound; beyond a week the run should replan (`give_up`) rather than sleep. Every delay `nextDelay` returns is
 * then below 2 × 7 days, a safe integer.
 */
export const MAX_RETRY_AFTER_CAP_MS = 604_800_000;

/** An interval field: ms, an integer in [1, `MAX_BACKOFF_INTERVAL_MS`], `def` when absent. */
const interval = (s: ShapeBuilders, field: string, def: number) =>
  s
    .number()
    .int()
    .min(1)
    .max(MAX_BACKOFF_INTERVAL_MS, tooBig(field, MAX_BACKOFF_INTERVAL_MS, '24 hours'))
    .default(def);

/** The fields of `backoffPolicySchema()`, shared with `backoffOverrideSchema`. */
const backoffFields = shaped((s) => ({
  initialIntervalMs: interval(s, 'initialIntervalMs', 500),
  backoffCoefficient: s.number().min(1).max(100).default(2),
  maximumIntervalMs: interval(s, 'maximumIntervalMs', 10_000),
  jitterRatio: s.number().min(0).max(1).default(0.2),
  maxRetryAfterMs: s
    .number()
    .int()
    .min(0)
    .max(MAX_RETRY_AFTER_CAP_MS, tooBig('maxRetryAfterMs', MAX_RETRY_AFTER_CAP_MS, '7 days'))
    .default(60_000),
}));

/**
 * Backoff policy. Read from `temporal.config.json` (`backoff`); every field defaults as below.
 * - `initialIntervalMs`: delay before retry 1, in milliseconds, integer in [1, `MAX_BACKOFF_INTERVAL_MS` = 24 h].
 *   @default 500
 * - `backoffCoefficient`: growth per retry, in [1, 100] (as Temporal's `RetryPolicy.backoffCoefficient`). @default 2
 * - `maximumIntervalMs`: cap on the exponential delay, ms, integer in [`initialIntervalMs`, 24 h]. Never lowers a
 *   Retry-After. @default 10000
 * - `jitterRatio`: the most jitter adds, as a fraction of the floor, in [0, 1]. @default 0.2
 * - `maxRetryAfterMs`: longest Retry-After waited for inside a run, ms, integer in [0, `MAX_RETRY_AFTER_CAP_MS` =
 *   7 days]; longer → give up. @default 60000
 * A value above its bound fails with a message naming the field and the bound, e.g.
 * `BackoffPolicy.maxRetryAfterMs must be at most 604800000 ms (7 days)`.
 *
 * Per-tool overrides use `backoffOverrideSchema()`: the same fields, all optional, without the cross-field rule;
 * `nextDelay` checks the merged policy again.
 */
export const backoffPolicySchema = shaped((s) =>
  s
    .object(backoffFields())
    .strict()
    .superRefine((p, ctx) => {
      if (p.maximumIntervalMs < p.initialIntervalMs) {
        ctx.addIssue({
          path: ['maximumIntervalMs'],
          message: `BackoffPolicy.maximumIntervalMs (${p.maximumIntervalMs}) cannot be less than its initialIntervalMs (${p.initialIntervalMs})`,
        });
      }
    }),
);
/**
 * The retry delay: `initialIntervalMs` × `backoffCoefficient`^n, capped at `maximumIntervalMs`, plus additive
 * jitter (`jitterRatio`); a `Retry-After` is the floor, up to `maxRetryAfterMs`. All in ms.
 */
export type BackoffPolicy = Infer<ReturnType<typeof backoffPolicySchema>>;

/**
 * A partial backoff policy (a per-tool override, `temporal.config.json` `tools.<name>.backoff`): each field optional
 * with its own bounds, no cross-field rule. Built on first use. built from the fields, as
 * `.partial()` drops the refinement anyway.
 */
export const backoffOverrideSchema = shaped((s) => s.object(backoffFields()).strict().partial());

/** The message of an upper bound: names the field, the bound in ms and in words. */
function tooBig(field: string, maxMs: number, words: string): string {
  return `BackoffPolicy.${field} must be at most ${maxMs} ms (${words})`;
}

/** The design's defaults: 0.5 s, doubling, capped at 10 s, up to +20 % jitter, Retry-After waited up to 60 s. */
export const DEFAULT_BACKOFF_POLICY: Readonly<BackoffPolicy> = Object.freeze({
  initialIntervalMs: 500,
  backoffCoefficient: 2,
  maximumIntervalMs: 10_000,
  jitterRatio: 0.2,
  maxRetryAfterMs: 60_000,
});

/** Why `nextDelay` gave up instead of waiting. */
export const GiveUpReason = { RETRY_AFTER_TOO_LONG: 'retry_after_too_long' } as const;
export type GiveUpReason = (typeof GiveUpReason)[keyof typeof GiveUpReason];

/**
 * - `wait`: sleep `delayMs` = `floorMs` + `jitterMs` (integers, ms) before the retry.
 * - `give_up`: the server asked for more than `maxRetryAfterMs`; do not wait in this run. The caller treats the
 *   failure as persistent for this run (class `transient`, reason `retry_after_too_long`, `retryable: false` →
 *   the route table's replan row).
 */
export type BackoffDecision =
  | Readonly<{ kind: 'wait'; delayMs: number; floorMs: number; jitterMs: number }>
  | Readonly<{ kind: 'give_up'; reason: GiveUpReason; retryAfterMs: number }>;

/** Input of `nextDelay`. */
export type NextDelayInput = {
  /** Which retry this is: 1 for the first retry (the second attempt). Integer ≥ 1. */
  retryNumber: number;
  /** The server's `Retry-After`, in ms, integer ≥ 0, if it sent one (`ToolFailure.retryAfterMs`). */
  retryAfterMs?: number | undefined;
  /** The policy; `DEFAULT_BACKOFF_POLICY` for the design's defaults. */
  policy: BackoffPolicy;
  /** A uniform random number in [0, 1). Called exactly once when the answer is `wait`, never on `give_up`. */
  random: () => number;
};

const nextDelayInputSchema = shaped((s) =>
  s.object({
    retryNumber: s.number().int().min(1),
    retryAfterMs: s.number().int().min(0).optional(),
  }),
);

/**
 * The delay before retry number `retryNumber`.
 *
 * Scheme: ADDITIVE PROPORTIONAL JITTER ON A CAPPED EXPONENTIAL FLOOR.
 *   exponentialMs = min(maximumIntervalMs, round(initialIntervalMs × backoffCoefficient^(retryNumber − 1)))
 *   floorMs       = max(exponentialMs, retryAfterMs ?? 0)
 *   jitterMs      = floor(floorMs × jitterRatio × random())
 *   delayMs       = floorMs + jitterMs
 * With the defaults: retry 1 → [500, 600) ms, retry 2 → [1000, 1200), retry 3 → [2000, 2400) (docs/DESIGN.md,
 * "Routes").
 *
 * Why this scheme and not "full jitter": the AWS Architecture Blog article "Exponential Backoff And Jitter"
 * (Marc Brooker, 2015, https://aws.amazon.com/blogs/architecture/exponential-backoff-and-jitter/) compares no
 * jitter, full jitter (`random(0, base × 2^n)`), equal jitter and decorrelated jitter, and finds full jitter spreads
 * contending clients best. But full jitter can draw any delay down to 0: below a server's `Retry-After`, which
 * RFC 9110 §10.2.3 says the client ought to wait, and below the design's minimum of ~0.5 s before the first retry
 * (measured gaps must be ≥ Retry-After). So the exponential (or Retry-After) value is a hard floor and
 * jitter is only ever added on top, up to `jitterRatio` of it; that still de-synchronises agents woken by the same
 * outage. Bounds: floorMs ≤ delayMs ≤ floor(max(maximumIntervalMs, retryAfterMs) × (1 + jitterRatio)).
 *
 * A Retry-After above `maxRetryAfterMs` is not waited for: the answer is `give_up`, and the failure is persistent
 * for this run (docs/DESIGN.md, "Routes").
 *
 * @returns a frozen `BackoffDecision`; every number an integer number of milliseconds.
 * @throws RecoveryInputError `invalid_input` when `retryNumber` is not an integer ≥ 1, `retryAfterMs` is not an
 *   integer ≥ 0, `random` is not a function or returns a value outside [0, 1); `invalid_policy` when `policy`
 *   fails `backoffPolicySchema()` (including an interval above 24 h or a `maxRetryAfterMs` above 7 days; the
 *   message names the field, e.g. `nextDelay: policy.maxRetryAfterMs: BackoffPolicy.maxRetryAfterMs must be at
 *   most 604800000 ms (7 days)`).
 */
export function nextDelay(input: NextDelayInput): BackoffDecision {
  const { retryNumber, retryAfterMs } = parseInput(
    nextDelayInputSchema(),
    { retryNumber: input.retryNumber, retryAfterMs: input.retryAfterMs },
    'nextDelay',
  );
  const policy = parseInput(
    backoffPolicySchema(),
    input.policy,
    'nextDelay: policy',
    RecoveryInputErrorCode.INVALID_POLICY,
  );
  if (typeof input.random !== 'function') {
    throw new RecoveryInputError(
      RecoveryInputErrorCode.INVALID_INPUT,
      'nextDelay: random must be a function returning a number in [0, 1)',
    );
  }

  if (retryAfterMs !== undefined && retryAfterMs > policy.maxRetryAfterMs) {
    return Object.freeze({ kind: 'give_up', reason: GiveUpReason.RETRY_AFTER_TOO_LONG, retryAfterMs });
  }

  const r = input.random();
  if (typeof r !== 'number' || !(r >= 0 && r < 1)) {
    throw new RecoveryInputError(
      RecoveryInputErrorCode.INVALID_INPUT,
      `nextDelay: random() must return a number in [0, 1), it returned ${String(r)}`,
    );
  }

  // Math.pow may reach Infinity for large retry numbers; min() caps it before rounding.
  const exponentialMs = Math.round(
    Math.min(policy.maximumIntervalMs, policy.initialIntervalMs * Math.pow(policy.backoffCoefficient, retryNumber - 1)),
  );
  const floorMs = Math.max(exponentialMs, retryAfterMs ?? 0);
  const jitterMs = Math.floor(floorMs * policy.jitterRatio * r);
  return Object.freeze({ kind: 'wait', delayMs: floorMs + jitterMs, floorMs, jitterMs });
}
