/**
 * Pure unit tests of the recovery eval's arithmetic (bench/eval/scoring.ts, bench/eval/policies.ts,
 * bench/eval/baseline/plan.ts): no workers, no servers.
 */
import { baselineSteps, argsWithFixes } from '../../bench/eval/baseline/plan';
import { attemptStartsMs, baselineOptions } from '../../bench/eval/policies';
import {
  choose,
  median,
  passHatK,
  policyTotals,
  retryStats,
  scenarioRow,
  type Dispatch,
  type RunScore,
} from '../../bench/eval/scoring';

const d = (over: Partial<Dispatch> & Pick<Dispatch, 'startMs'>): Dispatch => ({
  tool: 'book',
  args: '{"slot":"10:00"}',
  credential: 0,
  endMs: over.startMs + 5,
  ...over,
});

describe('retryStats', () => {
  test('a persistent failure retried at 200/400/800 ms: 3 retries, all wasted and identical, 1 400 ms of them', () => {
    const runs = [0, 205, 610, 1_415].map((startMs) => d({ startMs, failure: 'http 409', curedAtMs: null }));
    expect(retryStats(runs)).toEqual({ retries: 3, wasted: 3, identicalReexecutions: 3, wastedRetryMs: 1_415 });
  });

  test('a 429 storm cured at 2 000 ms: retries before it are wasted, the one after is not; none is identical', () => {
    const runs = [
      d({ startMs: 0, failure: 'http 429', curedAtMs: 2_000 }),
      d({ startMs: 1_000, failure: 'http 429', curedAtMs: 2_000 }),
      d({ startMs: 3_000 }),
    ];
    expect(retryStats(runs)).toEqual({ retries: 2, wasted: 1, identicalReexecutions: 0, wastedRetryMs: 1_000 });
  });

  test('changed arguments or a new credential version are not retries; a call after a success is not either', () => {
    const runs = [
      d({ startMs: 0, failure: 'http 409', curedAtMs: null }),
      d({ startMs: 10, args: '{"slot":"11:00"}' }),
      d({ startMs: 20, tool: 'profile', args: '{}', credential: 1, failure: 'http 401', curedAtMs: null }),
      d({ startMs: 30, tool: 'profile', args: '{}', credential: 2 }),
      d({ startMs: 40, tool: 'profile', args: '{}', credential: 2 }),
    ];
    expect(retryStats(runs)).toEqual({ retries: 0, wasted: 0, identicalReexecutions: 0, wastedRetryMs: 0 });
  });

  test('dispatches out of order are sorted by start', () => {
    const runs = [
      d({ startMs: 500, failure: 'http 409', curedAtMs: null }),
      d({ startMs: 0, failure: 'http 409', curedAtMs: null }),
    ];
    expect(retryStats(runs)).toEqual({ retries: 1, wasted: 1, identicalReexecutions: 1, wastedRetryMs: 500 });
  });
});

describe('pass^k', () => {
  test('choose: C(8, 3) = 56, C(8, 0) = 1, C(3, 5) = 0', () => {
    expect([choose(8, 3), choose(8, 0), choose(3, 5)]).toEqual([56, 1, 0]);
  });

  test('with n = k it is 1 only when every run succeeded', () => {
    expect([passHatK(8, 8, 8), passHatK(8, 7, 8), passHatK(8, 0, 8)]).toEqual([1, 0, 0]);
  });

  test("τ-bench's estimator: n = 8, c = 6 → pass^1 = 0.75, pass^2 = 15/28", () => {
    expect(passHatK(8, 6, 1)).toBe(0.75);
    expect(passHatK(8, 6, 2)).toBeCloseTo(15 / 28, 12);
  });

  test('bad counts are refused', () => {
    expect(() => passHatK(8, 9, 8)).toThrow('passHatK(n=8, c=9, k=8): need integers 0 ≤ c ≤ n and 1 ≤ k ≤ n');
    expect(() => passHatK(8, 4, 0)).toThrow(RangeError);
    expect(() => choose(-1, 0)).toThrow('choose(-1, 0): n and k must be integers ≥ 0');
  });
});

const score = (over: Partial<RunScore> & Pick<RunScore, 'seed'>): RunScore => ({
  correct: true,
  dispatches: 1,
  retries: 0,
  wasted: 0,
  identicalReexecutions: 0,
  wastedRetryMs: 0,
  duplicateSideEffects: 0,
  msToCorrectAction: 100,
  status: 'submitted',
  finalState: '1 booking; submitted',
  actions: [],
  ...over,
});

describe('rows and totals', () => {
  test('a row sums counts over the runs, takes the median over correct runs, and pass^k over all', () => {
    const row = scenarioRow('slot-taken', 'naive-3x', [
      score({ seed: 1, dispatches: 5, retries: 3, wasted: 3, identicalReexecutions: 3, wastedRetryMs: 1_420 }),
      score({ seed: 2, dispatches: 5, retries: 3, wasted: 2, wastedRetryMs: 600, msToCorrectAction: 1_500 }),
      score({
        seed: 3,
        correct: false,
        duplicateSideEffects: 1,
        msToCorrectAction: null,
        status: 'failed',
        finalState: '2 bookings; failed',
      }),
    ]);
    expect(row).toMatchObject({
      runs: 3,
      dispatches: 11,
      retries: 6,
      wastedRetries: 5 / 6,
      identicalReexecutions: 3,
      duplicateSideEffects: 1,
      wastedRetryMs: 600,
      msToCorrectAction: 800,
      correct: false,
      meanCorrect: 2 / 3,
      passK: 0,
      escalations: 0,
      finalState: '1 booking; submitted',
    });
    expect(scenarioRow('x', 'router', [score({ seed: 1 })]).wastedRetries).toBeNull();
  });

  test("a policy's persistent-error tax: the median wasted retry time of its runs on persistent scenarios", () => {
    const rows = [
      scenarioRow('forbidden', 'router', [score({ seed: 1 }), score({ seed: 2 })]),
      scenarioRow('forbidden', 'naive-3x', [
        score({ seed: 1, wastedRetryMs: 1_410 }),
        score({ seed: 2, wastedRetryMs: 1_430 }),
      ]),
      scenarioRow('transient-503', 'naive-3x', [score({ seed: 1, wastedRetryMs: 9_000 })]),
    ];
    const totals = policyTotals(rows, new Set(['forbidden']));
    expect(totals.map((t) => [t.policy, t.persistentErrorTaxMs, t.runs])).toEqual([
      ['router', 0, 2],
      ['temporal-default', null, 0],
      ['naive-3x', 1_420, 3],
    ]);
    // Only the policies that ran (`--policies router`, CI's gate): one total, the router's.
    expect(policyTotals(rows, new Set(['forbidden']), ['router']).map((t) => [t.policy, t.runs])).toEqual([
      ['router', 2],
    ]);
    expect(median([])).toBeNull();
  });
});

describe('baseline policies', () => {
  test('temporal-default under a 30 s cap: attempts at 0, 1, 3, 7, 15 s (the next, at 31 s, passes the cap)', () => {
    expect(attemptStartsMs(baselineOptions('temporal-default', 30_000))).toEqual([0, 1_000, 3_000, 7_000, 15_000]);
    expect(attemptStartsMs(baselineOptions('temporal-default', 120_000))).toEqual([
      0, 1_000, 3_000, 7_000, 15_000, 31_000, 63_000,
    ]);
  });

  test('naive-3x: four attempts, 1.4 s of waiting, inside one activity attempt', () => {
    const o = baselineOptions('naive-3x');
    expect(attemptStartsMs(o)).toEqual([0, 200, 600, 1_400]);
    expect(o.retry.maximumAttempts).toBe(1);
  });

  test('the router is not a baseline, and a cap under 1 s is refused', () => {
    expect(() => baselineOptions('router')).toThrow('the router is not a baseline policy');
    expect(() => baselineOptions('temporal-default', 500)).toThrow('capMs must be an integer ≥ 1000, got 500');
  });
});

describe('baseline steps', () => {
  test('each step: its call, then its fixes accumulated one by one, then each alternative with its own fixes', () => {
    const steps = baselineSteps(
      {
        steps: [
          {
            id: 'invoice',
            tool: 'create_invoice',
            args: { dueDate: 'friday', currency: 'usd' },
            fixes: [{ dueDate: '2026-12-31' }, { currency: 'eur' }],
            alternatives: [{ tool: 'draft_invoice', args: { a: 1 } }],
          },
          { tool: 'send' },
        ],
        submit: { resultFrom: 'invoice' },
      },
      (tool) => (tool === 'send' ? 1_000 : 5_000),
    );
    expect(steps).toEqual([
      {
        id: 'invoice',
        variants: [
          { tool: 'create_invoice', args: { dueDate: 'friday', currency: 'usd' }, startToCloseMs: 5_000 },
          { tool: 'create_invoice', args: { dueDate: '2026-12-31', currency: 'usd' }, startToCloseMs: 5_000 },
          { tool: 'create_invoice', args: { dueDate: '2026-12-31', currency: 'eur' }, startToCloseMs: 5_000 },
          { tool: 'draft_invoice', args: { a: 1 }, startToCloseMs: 5_000 },
        ],
      },
      { id: 'step-2', variants: [{ tool: 'send', args: {}, startToCloseMs: 1_000 }] },
    ]);
    expect(argsWithFixes({ tool: 't', args: [1], fixes: [{ a: 1 }] }, 1)).toEqual([1]);
  });
});
