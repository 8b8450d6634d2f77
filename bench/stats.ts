/** Summaries of a run's samples. Pure. */

export interface Summary {
  /** The middle value (the mean of the two middle values when n is even). */
  median: number;
  /** Nearest rank: the ⌈0.9·n⌉-th smallest value. */
  p90: number;
  /** Nearest rank: the ⌈0.95·n⌉-th smallest value. */
  p95: number;
  min: number;
  max: number;
}

/** @throws RangeError when `values` is empty or holds a non-finite number. */
export function summarize(values: readonly number[]): Summary {
  if (values.length === 0) throw new RangeError('summarize: no values');
  if (!values.every(Number.isFinite)) throw new RangeError('summarize: every value must be a finite number');
  const sorted = [...values].sort((a, b) => a - b);
  const at = (i: number): number => sorted[i]!;
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? at(mid) : (at(mid - 1) + at(mid)) / 2;
  return {
    median,
    p90: at(Math.ceil(0.9 * sorted.length) - 1),
    p95: at(Math.ceil(0.95 * sorted.length) - 1),
    min: at(0),
    max: at(sorted.length - 1),
  };
}

/** Nearest rank: the ⌈q·n⌉-th smallest value, 0 < q ≤ 1. @throws RangeError as `summarize` does. */
export function percentile(values: readonly number[], q: number): number {
  if (!(q > 0 && q <= 1)) throw new RangeError('percentile: q must be in (0, 1]');
  if (values.length === 0) throw new RangeError('percentile: no values');
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil(q * sorted.length) - 1]!;
}

/** subject / baseline, or null when the baseline is 0 (no meaningful ratio). */
export function ratio(subject: number, baseline: number): number | null {
  return baseline === 0 ? null : subject / baseline;
}

/** Rounds to `digits` decimals, for the report. */
export function round(value: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
