/**
 * The eval's arithmetic, pure: retries and wasted retries from a run's dispatch log, `pass^k`, and the rows and
 * totals of bench/results/eval.json. No I/O, no clock (times come in the dispatch log).
 *
 * Definitions (docs/EVAL.md, "Metrics"):
 * - a **dispatch** is one execution of a tool's `execute` (an activity attempt that reached the tool, a replay);
 * - a **retry** is a dispatch identical to an earlier one of the same run — same tool, same canonical arguments,
 *   same credential version — whose latest identical predecessor failed;
 * - a retry is **wasted** when it was sent before the failure it answers could be cured: the scenario's oracle says
 *   when a retry of that call could first succeed (`curedAtMs`; `null` = never: the failure is persistent, as a 409,
 *   a 403, a 401 to the same token, a write that was already applied);
 * - an **identical re-execution** is a retry of a persistent failure: the same call against unchanged state;
 * - the **wasted retry time** of a run is, summed over its wasted retries, the ms from the end of the failure each
 *   answers to its own end (the wait before it and its own dispatch): the tax a retry policy puts on a failure
 *   that retrying cannot cure, measured on the tools' side, whatever the agent loop around them costs;
 * - `pass^k` is τ-bench's estimator C(c, k) / C(n, k) over n runs of which c were correct (Yao et al., "τ-bench",
 *   arXiv 2406.12045, §3): the chance that k runs drawn from the n all succeed. With n = k it is 1 only when every
 *   run was correct.
 */

/** One execution of a tool, as the eval's recorder saw it. */
export interface Dispatch {
  tool: string;
  /** The canonical JSON of the arguments (sorted keys). */
  args: string;
  /** The credential version the call presented (0 when the tool has none). */
  credential: number;
  /** When `execute` started and returned or threw, ms since the epoch. */
  startMs: number;
  endMs: number;
  /** Undefined when it returned; else a signature of what it threw (`http 409 slot_taken`, `thrown TypeError`). */
  failure?: string;
  /**
   * For a failure: when a retry of the identical call could first succeed, ms since the epoch; `null` when never.
   * Set by the scenario's oracle (`curedAtMs` of bench/eval/scenario.ts).
   */
  curedAtMs?: number | null;
}

export interface RetryStats {
  /** Dispatches identical to an earlier failed one. */
  retries: number;
  /** Retries sent before their failure could be cured (persistent ones included). */
  wasted: number;
  /** Retries of a persistent failure: the same call against unchanged state. */
  identicalReexecutions: number;
  /** Ms from the failures the wasted retries answer to the retries' ends, summed. */
  wastedRetryMs: number;
}

const identity = (d: Dispatch): string => `${d.tool}\u0000${d.args}\u0000${d.credential}`;

/** Retries, wasted retries and identical re-executions of one run's dispatches (any order; sorted by start). */
export function retryStats(dispatches: readonly Dispatch[]): RetryStats {
  const last = new Map<string, Dispatch>();
  const stats: RetryStats = { retries: 0, wasted: 0, identicalReexecutions: 0, wastedRetryMs: 0 };
  for (const d of [...dispatches].sort((a, b) => a.startMs - b.startMs)) {
    const before = last.get(identity(d));
    last.set(identity(d), d);
    if (before?.failure === undefined) continue;
    stats.retries += 1;
    const cured = before.curedAtMs ?? null;
    const wasted = cured === null || d.startMs < cured;
    if (cured === null) stats.identicalReexecutions += 1;
    if (wasted) {
      stats.wasted += 1;
      stats.wastedRetryMs += Math.max(0, d.endMs - before.endMs);
    }
  }
  return stats;
}

/** n choose k, exact for the small numbers here (n ≤ 1000). 0 when k > n. */
export function choose(n: number, k: number): number {
  if (!Number.isInteger(n) || !Number.isInteger(k) || n < 0 || k < 0) {
    throw new RangeError(`choose(${n}, ${k}): n and k must be integers ≥ 0`);
  }
  if (k > n) return 0;
  let r = 1;
  for (let i = 1; i <= Math.min(k, n - k); i++) r = (r * (n - i + 1)) / i;
  return Math.round(r);
}

/**
 * τ-bench's pass^k: C(c, k) / C(n, k), the chance that k of the n runs drawn without replacement all succeeded.
 * @throws RangeError unless 0 ≤ c ≤ n and 1 ≤ k ≤ n (integers).
 */
export function passHatK(n: number, c: number, k: number): number {
  if (!Number.isInteger(n) || !Number.isInteger(c) || !Number.isInteger(k) || c < 0 || c > n || k < 1 || k > n) {
    throw new RangeError(`passHatK(n=${n}, c=${c}, k=${k}): need integers 0 ≤ c ≤ n and 1 ≤ k ≤ n`);
  }
  return choose(c, k) / choose(n, k);
}

/** The median of the numbers, or null for none. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** The three policies every scenario runs under. */
export const POLICIES = ['router', 'temporal-default', 'naive-3x'] as const;
export type PolicyName = (typeof POLICIES)[number];

/** What one run of one scenario under one policy came to. */
export interface RunScore {
  /** The run's seed (the fault schedule), the same for the three policies. */
  seed: number;
  /** The run reached the oracle's end state and reported it truthfully. */
  correct: boolean;
  dispatches: number;
  retries: number;
  wasted: number;
  identicalReexecutions: number;
  wastedRetryMs: number;
  /** Side-effect rows beyond the one the goal needs, counted in the database. */
  duplicateSideEffects: number;
  /** Ms from the run's start to the correct action, in a run that ended correct; else null. */
  msToCorrectAction: number | null;
  /** How the run ended (`submitted`, `stopped`, `escalated`, `no_submission`, `failed`). */
  status: string;
  /** The database state the oracle read, in words (`1 booking at 11:00`). */
  finalState: string;
  /** The router's actions per call (`ok` for a success); empty for the baselines. */
  actions: string[];
  /** Why the run ended without a submission (at most 300 characters), when it did. */
  reason?: string;
  /** The run's dispatches: ms after the run's start, how long, and what failed (`ok` for none). */
  timeline?: { tool: string; atMs: number; ms: number; failure: string }[];
  /** The run's end, ms after its start. */
  endMs?: number;
}

/** One row of `eval.json` per (scenario, policy): sums over the k runs unless said otherwise. */
export interface ScenarioRow {
  scenario: string;
  policy: PolicyName;
  /** Runs (k). */
  runs: number;
  dispatches: number;
  identicalReexecutions: number;
  /** Wasted retries as a share of all retries, 0–1; null when there was no retry. */
  wastedRetries: number | null;
  retries: number;
  /** Median over the runs of the wasted retry time, ms. */
  wastedRetryMs: number;
  duplicateSideEffects: number;
  /** Median over the correct runs, ms; null when no run was correct. */
  msToCorrectAction: number | null;
  /** Every run was correct. */
  correct: boolean;
  /** Correct runs / runs. */
  meanCorrect: number;
  /** pass^k with k = runs. */
  passK: number;
  /** Runs that ended escalated. */
  escalations: number;
  /** The most frequent final state (ties: first seen). */
  finalState: string;
  perRun: RunScore[];
}

/** The most frequent string (ties: the first seen); '' for none. */
function mode(values: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best = '';
  let n = 0;
  for (const [v, c] of counts) if (c > n) [best, n] = [v, c];
  return best;
}

const sum = (runs: readonly RunScore[], f: (r: RunScore) => number) => runs.reduce((a, r) => a + f(r), 0);

/** Aggregates one (scenario, policy)'s runs. @throws RangeError for no runs. */
export function scenarioRow(scenario: string, policy: PolicyName, runs: readonly RunScore[]): ScenarioRow {
  if (runs.length === 0) throw new RangeError(`scenarioRow(${scenario}, ${policy}): no runs`);
  const retries = sum(runs, (r) => r.retries);
  const correctRuns = runs.filter((r) => r.correct);
  return {
    scenario,
    policy,
    runs: runs.length,
    dispatches: sum(runs, (r) => r.dispatches),
    identicalReexecutions: sum(runs, (r) => r.identicalReexecutions),
    wastedRetries: retries === 0 ? null : sum(runs, (r) => r.wasted) / retries,
    retries,
    wastedRetryMs: median(runs.map((r) => r.wastedRetryMs)) ?? 0,
    duplicateSideEffects: sum(runs, (r) => r.duplicateSideEffects),
    msToCorrectAction: median(correctRuns.map((r) => r.msToCorrectAction).filter((m): m is number => m !== null)),
    correct: correctRuns.length === runs.length,
    meanCorrect: correctRuns.length / runs.length,
    passK: passHatK(runs.length, correctRuns.length, runs.length),
    escalations: runs.filter((r) => r.status === 'escalated').length,
    finalState: mode(runs.map((r) => r.finalState)),
    perRun: [...runs],
  };
}

/** Totals of one policy across the scenarios. */
export interface PolicyTotals {
  policy: PolicyName;
  scenarios: number;
  runs: number;
  dispatches: number;
  retries: number;
  /** Wasted retries / retries, 0–1; null without retries. */
  wastedRetries: number | null;
  identicalReexecutions: number;
  duplicateSideEffects: number;
  correctRuns: number;
  meanCorrect: number;
  /** Mean of the scenarios' pass^k. */
  passK: number;
  escalations: number;
  /**
   * On the scenarios marked persistent (retrying cannot cure their failure): the median over runs of the wasted
   * retry time, ms — the tax a policy puts on each persistent error. Null when there is no such run.
   */
  persistentErrorTaxMs: number | null;
}

/**
 * Totals per policy.
 * @param persistent names of the scenarios whose failure is persistent (retrying cannot cure it).
 * @param policies the policies that ran (all by default).
 */
export function policyTotals(
  rows: readonly ScenarioRow[],
  persistent: ReadonlySet<string>,
  policies: readonly PolicyName[] = POLICIES,
): PolicyTotals[] {
  return policies.map((policy) => {
    const mine = rows.filter((r) => r.policy === policy);
    const runs = mine.flatMap((r) => r.perRun);
    const retries = sum(runs, (r) => r.retries);
    const correctRuns = runs.filter((r) => r.correct).length;
    return {
      policy,
      scenarios: mine.length,
      runs: runs.length,
      dispatches: sum(runs, (r) => r.dispatches),
      retries,
      wastedRetries: retries === 0 ? null : sum(runs, (r) => r.wasted) / retries,
      identicalReexecutions: sum(runs, (r) => r.identicalReexecutions),
      duplicateSideEffects: sum(runs, (r) => r.duplicateSideEffects),
      correctRuns,
      meanCorrect: runs.length === 0 ? 0 : correctRuns / runs.length,
      passK: mine.length === 0 ? 0 : mine.reduce((a, r) => a + r.passK, 0) / mine.length,
      escalations: sum(runs, (r) => (r.status === 'escalated' ? 1 : 0)),
      persistentErrorTaxMs: median(
        mine.filter((r) => persistent.has(r.scenario)).flatMap((r) => r.perRun.map((x) => x.wastedRetryMs)),
      ),
    };
  });
}
