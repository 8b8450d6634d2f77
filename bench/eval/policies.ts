/**
 * The two retry policies the router is compared with, as Temporal activity options (durations in ms: Temporal reads
 * numbers as milliseconds). Both run the same tools' `execute` in one plain activity (bench/eval/baseline/): no
 * classification, no gate, no schema checks, no reconciliation — what a user gets without the router.
 *
 * - `temporal-default`: Temporal's default activity retry policy — initial interval 1 s, coefficient 2, maximum
 *   interval 100 s, unlimited attempts (Temporal docs, "Activity Retry Policy": "Default values") — cut off by a
 *   `scheduleToCloseTimeout` of `capMs` per call. Temporal stops retrying when the next attempt would start after
 *   that deadline: with the 30 s cap the attempts start at 0, 1, 3, 7 and 15 s and the call fails at 15 s.
 * - `naive-3x`: three retries at 200, 400 and 800 ms (four attempts, 1.4 s of waiting): the naive retry loop whose
 *   tax on every persistent error docs/DESIGN.md, "Evaluation" measures. They run as a loop inside the one activity
 *   attempt (as p-retry or axios-retry in a tool would), not as Temporal's retry policy: Temporal's timers —
 *   activity retry backoff and workflow `sleep` alike — fire no sooner than about 1 s on the dev server (measured:
 *   retries set to 200/400/800 ms started 1.0, 1.0 and 1.0 s apart), which would turn the 1.4 s into 3 s.
 */
import type { PolicyName } from './scoring';

export interface PlainRetryOptions {
  /** `maximumAttempts` absent: unlimited (Temporal's default; the SDK refuses 0). */
  retry: { initialInterval: number; backoffCoefficient: number; maximumInterval: number; maximumAttempts?: number };
  /** Per call, ms; absent: no cap beyond the attempts. */
  scheduleToCloseTimeoutMs?: number;
  /** Retries inside the activity attempt, after these waits (ms), before it fails. @default none */
  inProcessDelaysMs?: number[];
}

/** The wall-clock cap of a `temporal-default` call, ms, unless `--cap-ms` says otherwise. */
export const DEFAULT_CAP_MS = 30_000;

/** The activity options of a baseline policy. @throws RangeError for `router` (it has its own) or a cap < 1 s. */
export function baselineOptions(policy: PolicyName, capMs = DEFAULT_CAP_MS): PlainRetryOptions {
  if (!Number.isInteger(capMs) || capMs < 1_000) throw new RangeError(`capMs must be an integer ≥ 1000, got ${capMs}`);
  switch (policy) {
    case 'temporal-default':
      return {
        retry: { initialInterval: 1_000, backoffCoefficient: 2, maximumInterval: 100_000 },
        scheduleToCloseTimeoutMs: capMs,
      };
    case 'naive-3x':
      return {
        retry: { initialInterval: 1_000, backoffCoefficient: 2, maximumInterval: 1_000, maximumAttempts: 1 },
        inProcessDelaysMs: [200, 400, 800],
      };
    case 'router':
      throw new RangeError('the router is not a baseline policy');
  }
}

/**
 * When the attempts of a persistently failing call start under a baseline policy, ms after the first, as the policy
 * states them (no jitter: neither policy has any; Temporal's ~1 s timer floor not included). For the docs and tests.
 */
export function attemptStartsMs(options: PlainRetryOptions): number[] {
  if (options.inProcessDelaysMs) {
    return options.inProcessDelaysMs.reduce((starts, d) => [...starts, starts[starts.length - 1]! + d], [0]);
  }
  const { initialInterval, backoffCoefficient, maximumInterval, maximumAttempts } = options.retry;
  const cap = options.scheduleToCloseTimeoutMs ?? Number.POSITIVE_INFINITY;
  const most = maximumAttempts ?? Number.POSITIVE_INFINITY;
  if (!Number.isFinite(most) && !Number.isFinite(cap))
    throw new RangeError('unlimited attempts without a cap never end');
  const starts = [0];
  let delay = initialInterval;
  while (starts.length < most) {
    const next = starts[starts.length - 1]! + delay;
    if (next >= cap) break;
    starts.push(next);
    delay = Math.min(delay * backoffCoefficient, maximumInterval);
  }
  return starts;
}
