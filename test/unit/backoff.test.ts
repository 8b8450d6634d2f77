/**
 * Pure unit tests of the backoff (recovery/backoff.ts): no workers, no servers, no clock.
 */
import fc from 'fast-check';
import {
  backoffOverrideSchema,
  backoffPolicySchema,
  DEFAULT_BACKOFF_POLICY,
  MAX_BACKOFF_INTERVAL_MS,
  MAX_RETRY_AFTER_CAP_MS,
  nextDelay,
} from '../../recovery/backoff';
import type { BackoffPolicy } from '../../recovery/backoff';
import { RecoveryInputError } from '../../recovery/errors';
import { ConfigError, parseConfig } from '../../config/load';

const policy = DEFAULT_BACKOFF_POLICY;
const at = (r: number) => () => r;

function thrown(fn: () => unknown): RecoveryInputError {
  try {
    fn();
  } catch (e) {
    if (e instanceof RecoveryInputError) return e;
    throw e;
  }
  throw new Error('expected a RecoveryInputError, nothing was thrown');
}

describe('backoff: the design schedule (~0.5 s, ~1 s, ~2 s with jitter, docs/DESIGN.md, "Routes")', () => {
  test('backoff: the defaults are 500 ms, ×2, max 10 000 ms, jitter 0.2, Retry-After up to 60 000 ms', () => {
    expect(DEFAULT_BACKOFF_POLICY).toEqual({
      initialIntervalMs: 500,
      backoffCoefficient: 2,
      maximumIntervalMs: 10_000,
      jitterRatio: 0.2,
      maxRetryAfterMs: 60_000,
    });
    expect(Object.isFrozen(DEFAULT_BACKOFF_POLICY)).toBe(true);
  });

  test.each([
    [1, 500],
    [2, 1000],
    [3, 2000],
    [4, 4000],
    [5, 8000],
    [6, 10_000],
    [60, 10_000],
    [5000, 10_000],
  ])('backoff: retry %i with random 0 → wait %i ms, no jitter', (retryNumber, ms) => {
    expect(nextDelay({ retryNumber, policy, random: at(0) })).toEqual({
      kind: 'wait',
      delayMs: ms,
      floorMs: ms,
      jitterMs: 0,
    });
  });

  test('backoff: retry 1 with random 0.5 → 500 ms + 50 ms jitter = 550 ms', () => {
    expect(nextDelay({ retryNumber: 1, policy, random: at(0.5) })).toEqual({
      kind: 'wait',
      delayMs: 550,
      floorMs: 500,
      jitterMs: 50,
    });
  });

  test('backoff: retry 3 with random 0.999 → 2000 ms + 399 ms jitter (jitter < 20 %, floored to whole ms)', () => {
    expect(nextDelay({ retryNumber: 3, policy, random: at(0.999) })).toEqual({
      kind: 'wait',
      delayMs: 2399,
      floorMs: 2000,
      jitterMs: 399,
    });
  });

  test('backoff: a non-integer coefficient gives whole milliseconds (500 × 1.5² = 1125)', () => {
    const p = { ...policy, backoffCoefficient: 1.5 };
    expect(nextDelay({ retryNumber: 3, policy: p, random: at(0) })).toEqual({
      kind: 'wait',
      delayMs: 1125,
      floorMs: 1125,
      jitterMs: 0,
    });
  });

  test('backoff: the answer is frozen', () => {
    expect(Object.isFrozen(nextDelay({ retryNumber: 1, policy, random: at(0) }))).toBe(true);
  });
});

describe('backoff: Retry-After is a floor, jitter only adds (docs/DESIGN.md, "Routes"; RFC 9110 §10.2.3)', () => {
  test('backoff: 429 with Retry-After 3000 ms on retry 1, random 0 → wait exactly 3000 ms', () => {
    expect(nextDelay({ retryNumber: 1, retryAfterMs: 3000, policy, random: at(0) })).toEqual({
      kind: 'wait',
      delayMs: 3000,
      floorMs: 3000,
      jitterMs: 0,
    });
  });

  test('backoff: Retry-After 3000 ms, random 0.5 → 3000 + 300 = 3300 ms, never less than 3000', () => {
    expect(nextDelay({ retryNumber: 2, retryAfterMs: 3000, policy, random: at(0.5) })).toEqual({
      kind: 'wait',
      delayMs: 3300,
      floorMs: 3000,
      jitterMs: 300,
    });
  });

  test('backoff: Retry-After 1500 ms below the exponential 2000 ms on retry 3 → the exponential floor wins', () => {
    expect(nextDelay({ retryNumber: 3, retryAfterMs: 1500, policy, random: at(0) })).toEqual({
      kind: 'wait',
      delayMs: 2000,
      floorMs: 2000,
      jitterMs: 0,
    });
  });

  test('backoff: Retry-After 30 000 ms above maximumIntervalMs 10 000 → floor 30 000 (the cap never lowers Retry-After)', () => {
    expect(nextDelay({ retryNumber: 1, retryAfterMs: 30_000, policy, random: at(0.25) })).toEqual({
      kind: 'wait',
      delayMs: 31_500,
      floorMs: 30_000,
      jitterMs: 1500,
    });
  });

  test('backoff: Retry-After exactly maxRetryAfterMs (60 000) is still waited for', () => {
    expect(nextDelay({ retryNumber: 1, retryAfterMs: 60_000, policy, random: at(0) })).toEqual({
      kind: 'wait',
      delayMs: 60_000,
      floorMs: 60_000,
      jitterMs: 0,
    });
  });

  test('backoff: Retry-After 60 001 ms above maxRetryAfterMs → give_up retry_after_too_long, random not called', () => {
    const random = jest.fn(() => 0.5);
    expect(nextDelay({ retryNumber: 1, retryAfterMs: 60_001, policy, random })).toEqual({
      kind: 'give_up',
      reason: 'retry_after_too_long',
      retryAfterMs: 60_001,
    });
    expect(random).not.toHaveBeenCalled();
  });

  test('backoff: Retry-After 0 → the exponential floor', () => {
    expect(nextDelay({ retryNumber: 1, retryAfterMs: 0, policy, random: at(0) })).toMatchObject({ delayMs: 500 });
  });

  test('backoff: random is called exactly once when waiting', () => {
    const random = jest.fn(() => 0.1);
    nextDelay({ retryNumber: 2, policy, random });
    expect(random).toHaveBeenCalledTimes(1);
  });
});

describe('backoff: bad input is a typed error', () => {
  test.each<{ label: string; code: string; message: string; fn: () => unknown }>([
    {
      label: 'retryNumber 0',
      code: 'invalid_input',
      message: 'nextDelay.retryNumber: Too small: expected number to be >=1',
      fn: () => nextDelay({ retryNumber: 0, policy, random: at(0) }),
    },
    {
      label: 'retryNumber 1.5',
      code: 'invalid_input',
      message: 'nextDelay.retryNumber: Invalid input: expected int, received number',
      fn: () => nextDelay({ retryNumber: 1.5, policy, random: at(0) }),
    },
    {
      label: 'retryAfterMs -1',
      code: 'invalid_input',
      message: 'nextDelay.retryAfterMs: Too small: expected number to be >=0',
      fn: () => nextDelay({ retryNumber: 1, retryAfterMs: -1, policy, random: at(0) }),
    },
    {
      label: 'random() = 1',
      code: 'invalid_input',
      message: 'nextDelay: random() must return a number in [0, 1), it returned 1',
      fn: () => nextDelay({ retryNumber: 1, policy, random: at(1) }),
    },
    {
      label: 'random() = NaN',
      code: 'invalid_input',
      message: 'nextDelay: random() must return a number in [0, 1), it returned NaN',
      fn: () => nextDelay({ retryNumber: 1, policy, random: at(NaN) }),
    },
    {
      label: 'random not a function',
      code: 'invalid_input',
      message: 'nextDelay: random must be a function returning a number in [0, 1)',
      fn: () => nextDelay({ retryNumber: 1, policy, random: 0.5 as unknown as () => number }),
    },
    {
      label: 'jitterRatio 1.5',
      code: 'invalid_policy',
      message: 'nextDelay: policy.jitterRatio: Too big: expected number to be <=1',
      fn: () => nextDelay({ retryNumber: 1, policy: { ...policy, jitterRatio: 1.5 }, random: at(0) }),
    },
    {
      label: 'maximum below initial',
      code: 'invalid_policy',
      message:
        'nextDelay: policy.maximumIntervalMs: BackoffPolicy.maximumIntervalMs (1000) cannot be less than its initialIntervalMs (2000)',
      fn: () =>
        nextDelay({
          retryNumber: 1,
          policy: { ...policy, initialIntervalMs: 2000, maximumIntervalMs: 1000 },
          random: at(0),
        }),
    },
    {
      label: 'an unknown policy key',
      code: 'invalid_policy',
      message: 'nextDelay: policy: Unrecognized key: "maxAttempts"',
      fn: () => nextDelay({ retryNumber: 1, policy: { ...policy, maxAttempts: 3 } as BackoffPolicy, random: at(0) }),
    },
  ])('backoff: $label → $code', ({ fn, code, message }) => {
    const e = thrown(fn);
    expect([e.code, e.message]).toEqual([code, message]);
  });

  test.each<{ label: string; over: Partial<BackoffPolicy>; message: string }>([
    {
      label: 'maxRetryAfterMs = Number.MAX_SAFE_INTEGER',
      over: { maxRetryAfterMs: Number.MAX_SAFE_INTEGER },
      message: 'nextDelay: policy.maxRetryAfterMs: BackoffPolicy.maxRetryAfterMs must be at most 604800000 ms (7 days)',
    },
    {
      label: 'maxRetryAfterMs = 7 days + 1 ms',
      over: { maxRetryAfterMs: 604_800_001 },
      message: 'nextDelay: policy.maxRetryAfterMs: BackoffPolicy.maxRetryAfterMs must be at most 604800000 ms (7 days)',
    },
    {
      label: 'maximumIntervalMs = 1e15 (a typo)',
      over: { maximumIntervalMs: 1e15 },
      message:
        'nextDelay: policy.maximumIntervalMs: BackoffPolicy.maximumIntervalMs must be at most 86400000 ms (24 hours)',
    },
    {
      label: 'initialIntervalMs = 24 h + 1 ms (maximumIntervalMs 24 h)',
      over: { initialIntervalMs: 86_400_001, maximumIntervalMs: 86_400_000 },
      message:
        'nextDelay: policy.initialIntervalMs: BackoffPolicy.initialIntervalMs must be at most 86400000 ms (24 hours)',
    },
  ])('backoff: finding 26, $label → invalid_policy naming the field and its bound', ({ over, message }) => {
    const e = thrown(() => nextDelay({ retryNumber: 1, policy: { ...policy, ...over }, random: at(0) }));
    expect([e.code, e.message, e.path]).toEqual(['invalid_policy', message, [Object.keys(over)[0]]]);
  });

  test('backoff: the bounds themselves are accepted: intervals of 24 h, maxRetryAfterMs of 7 days', () => {
    expect([MAX_BACKOFF_INTERVAL_MS, MAX_RETRY_AFTER_CAP_MS]).toEqual([86_400_000, 604_800_000]);
    const edge = {
      ...policy,
      initialIntervalMs: MAX_BACKOFF_INTERVAL_MS,
      maximumIntervalMs: MAX_BACKOFF_INTERVAL_MS,
      maxRetryAfterMs: MAX_RETRY_AFTER_CAP_MS,
    };
    expect(nextDelay({ retryNumber: 1, retryAfterMs: MAX_RETRY_AFTER_CAP_MS, policy: edge, random: at(0.5) })).toEqual({
      kind: 'wait',
      delayMs: 665_280_000,
      floorMs: 604_800_000,
      jitterMs: 60_480_000,
    });
  });

  test('backoff: with the largest policy and Retry-After, every delay is a safe integer below 2 × 7 days', () => {
    const edge = { ...policy, maxRetryAfterMs: MAX_RETRY_AFTER_CAP_MS, jitterRatio: 1 };
    const d = nextDelay({ retryNumber: 1, retryAfterMs: MAX_RETRY_AFTER_CAP_MS, policy: edge, random: at(0.999999) });
    if (d.kind !== 'wait') throw new Error('expected wait');
    expect(Number.isSafeInteger(d.delayMs) && d.delayMs < 2 * MAX_RETRY_AFTER_CAP_MS).toBe(true);
  });

  test('backoffOverrideSchema() (per-tool overrides) keeps the upper bounds', () => {
    const r = backoffOverrideSchema().safeParse({ maximumIntervalMs: 1e15 });
    expect(r.success ? 'accepted' : r.error.issues[0]?.message).toBe(
      'BackoffPolicy.maximumIntervalMs must be at most 86400000 ms (24 hours)',
    );
  });

  test('backoffPolicySchema(): {} parses to the defaults; coefficient below 1 is refused', () => {
    expect(backoffPolicySchema().parse({})).toEqual(DEFAULT_BACKOFF_POLICY);
    expect(backoffPolicySchema().safeParse({ backoffCoefficient: 0.5 }).success).toBe(false);
  });
});

describe('backoff: bounds reach temporal.config.json (finding 26)', () => {
  function configError(text: string): ConfigError {
    try {
      parseConfig(text, 'temporal.config.json');
    } catch (e) {
      if (e instanceof ConfigError) return e;
      throw e;
    }
    throw new Error('expected a ConfigError, the config was accepted');
  }

  test('config: backoff.maxRetryAfterMs = 9007199254740991 → ConfigError naming the field and its bound', () => {
    const e = configError('{"backoff":{"maxRetryAfterMs":9007199254740991}}');
    expect([e.field, e.message]).toEqual([
      'backoff.maxRetryAfterMs',
      'temporal.config.json: backoff.maxRetryAfterMs: BackoffPolicy.maxRetryAfterMs must be at most 604800000 ms (7 days)',
    ]);
  });

  test('config: a per-tool backoff.maximumIntervalMs = 1e15 → ConfigError naming tools.<name>.backoff.maximumIntervalMs', () => {
    const e = configError('{"tools":{"pay":{"backoff":{"maximumIntervalMs":1e15}}}}');
    expect([e.field, e.message]).toEqual([
      'tools.pay.backoff.maximumIntervalMs',
      'temporal.config.json: tools.pay.backoff.maximumIntervalMs: BackoffPolicy.maximumIntervalMs must be at most 86400000 ms (24 hours)',
    ]);
  });

  test('config: backoff values at the bounds are accepted', () => {
    const c = parseConfig(
      '{"backoff":{"initialIntervalMs":86400000,"maximumIntervalMs":86400000,"maxRetryAfterMs":604800000}}',
      'x',
    );
    expect([c.backoff.initialIntervalMs, c.backoff.maximumIntervalMs, c.backoff.maxRetryAfterMs]).toEqual([
      86_400_000, 86_400_000, 604_800_000,
    ]);
  });
});

describe('backoff: properties', () => {
  const policyArb: fc.Arbitrary<BackoffPolicy> = fc
    .record({
      initialIntervalMs: fc.integer({ min: 1, max: 5000 }),
      backoffCoefficient: fc.double({ min: 1, max: 10, noNaN: true }),
      extraMaxMs: fc.integer({ min: 0, max: 100_000 }),
      jitterRatio: fc.double({ min: 0, max: 1, noNaN: true }),
      maxRetryAfterMs: fc.integer({ min: 0, max: 200_000 }),
    })
    .map(({ extraMaxMs, ...p }) => ({ ...p, maximumIntervalMs: p.initialIntervalMs + extraMaxMs }));
  const randomValue = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });
  const retryAfter = fc.option(fc.integer({ min: 0, max: 200_000 }), { nil: undefined });
  const retryNumber = fc.integer({ min: 1, max: 2000 });

  test('backoff: delay ≥ floor ≥ Retry-After, integers, and delay ≤ max(maximumIntervalMs, Retry-After) × (1 + jitterRatio)', () => {
    fc.assert(
      fc.property(policyArb, retryNumber, retryAfter, randomValue, (p, n, ra, r) => {
        const d = nextDelay({ retryNumber: n, retryAfterMs: ra, policy: p, random: () => r });
        if (d.kind === 'give_up') {
          expect(ra).toBeGreaterThan(p.maxRetryAfterMs);
          return;
        }
        expect(ra === undefined || ra <= p.maxRetryAfterMs).toBe(true);
        expect(Number.isInteger(d.delayMs) && Number.isInteger(d.floorMs) && Number.isInteger(d.jitterMs)).toBe(true);
        expect(d.delayMs).toBe(d.floorMs + d.jitterMs);
        expect(d.jitterMs).toBeGreaterThanOrEqual(0);
        expect(d.floorMs).toBeGreaterThanOrEqual(ra ?? 0);
        expect(d.floorMs).toBeGreaterThanOrEqual(Math.min(p.initialIntervalMs, p.maximumIntervalMs));
        expect(d.delayMs).toBeLessThanOrEqual(Math.max(p.maximumIntervalMs, ra ?? 0) * (1 + p.jitterRatio));
      }),
    );
  });

  test('backoff: deterministic for a given random value', () => {
    fc.assert(
      fc.property(policyArb, retryNumber, retryAfter, randomValue, (p, n, ra, r) => {
        const a = nextDelay({ retryNumber: n, retryAfterMs: ra, policy: p, random: () => r });
        const b = nextDelay({ retryNumber: n, retryAfterMs: ra, policy: p, random: () => r });
        expect(a).toEqual(b);
      }),
    );
  });

  test('backoff: without Retry-After the floor never shrinks from one retry to the next', () => {
    fc.assert(
      fc.property(policyArb, fc.integer({ min: 1, max: 200 }), (p, n) => {
        const a = nextDelay({ retryNumber: n, policy: p, random: () => 0 });
        const b = nextDelay({ retryNumber: n + 1, policy: p, random: () => 0 });
        if (a.kind !== 'wait' || b.kind !== 'wait') throw new Error('no Retry-After, so no give_up');
        expect(b.floorMs).toBeGreaterThanOrEqual(a.floorMs);
      }),
    );
  });
});
