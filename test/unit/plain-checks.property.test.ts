/**
 * recovery/plain-checks.ts against the schemas they stand in front of: a check may refuse what its schema accepts
 * (the schema then decides), never accept what it refuses, and what it accepts parses to the same value. Values are
 * valid records with fields replaced by odd values, keys added or removed; plus exact cases.
 */
import fc from 'fast-check';
import { bytesToHex } from '@noble/hashes/utils';
import { classify, parseCallContext, callContextSchema } from '../../recovery/classify';
import { toolFailureSchema, type ToolFailure } from '../../recovery/failure';
import { attemptRecordSchema, candidateCallSchema, previousSchema, timeMs } from '../../recovery/gate-records';
import { acceptedAttempt, acceptedCandidate, acceptedTimeMs, plainlyValidFailure } from '../../recovery/plain-checks';
import { ctxOf } from './classify-helpers';

const ODD: unknown[] = [
  ...[undefined, null, 0, -0, -1, 1.5, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY, '', 'x', true, false, {}, []],
  ...[
    'a'.repeat(64),
    'A'.repeat(64),
    'g'.repeat(64),
    'transient',
    'outcome_unknown',
    'commit_unknown',
    'dispatch',
    'x'.repeat(501),
    [, 1],
  ],
];
const odd = fc.constantFrom(...ODD);

/** `base` with some fields replaced by odd values, some removed, maybe one unknown key added. */
function mutated(base: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> {
  const keys = Object.keys(base);
  return fc
    .record({
      replace: fc.dictionary(fc.constantFrom(...keys), odd, { maxKeys: 3 }),
      drop: fc.subarray(keys, { maxLength: 2 }),
      extra: fc.option(fc.constantFrom('extra', 'issues', 'earliestRetryAtMs', 'grantVersion'), { nil: undefined }),
      extraValue: odd,
    })
    .map(({ replace, drop, extra, extraValue }) => {
      const v: Record<string, unknown> = { ...base, ...replace };
      for (const k of drop) delete v[k];
      if (extra !== undefined) v[extra] = extraValue;
      return v;
    });
}

const http503 = classify({ kind: 'http', status: 503, headers: { 'retry-after': '1' }, body: {} }, ctxOf());
const http422 = classify(
  { kind: 'http', status: 422, headers: {}, body: { errors: [{ field: 'sku', message: 'is required' }] } },
  ctxOf({ inputFields: ['sku'] }),
);
const hash = bytesToHex(new Uint8Array(32).fill(0xab));
const attempt = {
  tool: 't',
  argsHash: hash,
  credentialVersion: 1,
  grantVersion: 0,
  failure: http503,
  endedAtMs: 1_000,
  earliestRetryAtMs: 2_000,
};
const candidate = { tool: 't', argsHash: hash, credentialVersion: 1 };

describe('plain checks never accept what the schema refuses', () => {
  it('acceptedAttempt: accepted ⇒ the schema parses it to the same record', () => {
    fc.assert(
      fc.property(mutated(attempt), (v) => {
        const fast = acceptedAttempt(v);
        if (fast === undefined) return;
        const parsed = previousSchema(v).safeParse(v);
        expect(parsed.success && attemptRecordSchema().safeParse(v).success).toBe(true);
        expect(fast).toEqual(parsed.data);
      }),
      { numRuns: 3000 },
    );
  });

  it('acceptedCandidate: accepted ⇒ the schema parses it to the same candidate', () => {
    fc.assert(
      fc.property(mutated({ ...candidate, grantVersion: 2 }), (v) => {
        const fast = acceptedCandidate(v);
        if (fast === undefined) return;
        const parsed = candidateCallSchema().safeParse(v);
        expect(parsed.success).toBe(true);
        expect(fast).toEqual(parsed.data);
      }),
      { numRuns: 3000 },
    );
  });

  it('parseCallContext: a context it returns without the schema is one the schema accepts', () => {
    const full = {
      ...ctxOf(),
      dialect: 'postgres',
      inputFields: ['sku', 'x'.repeat(200)],
      alreadyPhrases: ['already'],
    };
    const lists = fc.oneof(odd, fc.array(odd, { maxLength: 3 }), fc.constant(['x'.repeat(201)]), fc.constant(['']));
    fc.assert(
      fc.property(mutated(full), lists, fc.constantFrom('inputFields', 'alreadyPhrases', 'none'), (v, list, key) => {
        const ctx = key === 'none' ? v : { ...v, [key]: list };
        let returned: unknown;
        try {
          returned = parseCallContext(ctx);
        } catch {
          returned = undefined;
        }
        expect(returned !== undefined).toBe(callContextSchema().safeParse(ctx).success);
      }),
      { numRuns: 3000 },
    );
  });

  it('acceptedTimeMs agrees with timeMs() both ways', () => {
    fc.assert(
      fc.property(fc.oneof(odd, fc.double(), fc.integer(), fc.maxSafeNat()), (v) => {
        expect(acceptedTimeMs(v) !== undefined).toBe(timeMs().safeParse(v).success);
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    ['a 503', http503],
    ['a 422 with field issues', http422],
  ])('plainlyValidFailure on %s: accepted ⇒ toolFailureSchema accepts', (_name, base) => {
    const issue = base.issues?.[0] ?? { path: ['a'], expected: 'e', received: 'r', suggestion: 's' };
    const issues = fc.oneof(
      fc.constant(base.issues),
      fc.array(fc.oneof(mutated(issue), odd), { maxLength: 3 }),
      fc.array(mutated({ ...issue, path: ['a', 1] }), { maxLength: 2 }),
    );
    fc.assert(
      fc.property(mutated({ ...base }), issues, (v, is) => {
        const f = (is === undefined ? v : { ...v, issues: is }) as ToolFailure;
        if (plainlyValidFailure(f)) expect(toolFailureSchema().safeParse(f).success).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('plain checks take the router’s records', () => {
  it('a router-built attempt, candidate, time and failures are accepted without the schema', () => {
    expect(acceptedAttempt(attempt)).toEqual(attempt);
    expect(acceptedCandidate(candidate)).toEqual(candidate);
    expect(acceptedTimeMs(2_000)).toBe(2_000);
    expect([plainlyValidFailure(http503), plainlyValidFailure(http422)]).toEqual([true, true]);
  });

  it('an attempt whose failure is not known valid (a plain copy) is left to the schema', () => {
    expect(acceptedAttempt({ ...attempt, failure: { ...http503 } })).toBeUndefined();
  });

  it('refuses an unknown key, a hole in issues, a backoff before the end, an uppercase hash', () => {
    expect(acceptedCandidate({ ...candidate, extra: 1 })).toBeUndefined();
    expect(plainlyValidFailure({ ...http422, issues: [, ...(http422.issues ?? [])] } as ToolFailure)).toBe(false);
    expect(acceptedAttempt({ ...attempt, earliestRetryAtMs: 999 })).toBeUndefined();
    expect(acceptedCandidate({ ...candidate, argsHash: hash.toUpperCase() })).toBeUndefined();
  });

  it('refuses a failure that breaks a refinement of the schema', () => {
    const unknownOutside = { ...http422, class: 'outcome_unknown' } as ToolFailure;
    const retryableWrite = { ...http503, replaySafe: false } as ToolFailure;
    const retryableRepair = { ...http422, retryable: true, replaySafe: true } as ToolFailure;
    expect([unknownOutside, retryableWrite, retryableRepair].map(plainlyValidFailure)).toEqual([false, false, false]);
    expect(
      [unknownOutside, retryableWrite, retryableRepair].map((f) => toolFailureSchema().safeParse(f).success),
    ).toEqual([false, false, false]);
  });

  it('reads each field once: a getter that changes its answer cannot change the accepted copy', () => {
    let reads = 0;
    const flipping = {
      ...candidate,
      get credentialVersion() {
        reads += 1;
        return reads === 1 ? 1 : -5;
      },
    };
    const fast = acceptedCandidate(flipping);
    expect([fast?.credentialVersion, reads, Object.isFrozen(fast)]).toEqual([1, 1, true]);
  });

  it('an array dressed as an object (its prototype replaced, or a Proxy that lies about it) is left to the schema', () => {
    const dressed = (proto: object | null) => Object.setPrototypeOf(Object.assign([], candidate), proto) as unknown;
    const lying = new Proxy(Object.assign([], candidate), { getPrototypeOf: () => Object.prototype });
    for (const v of [dressed(null), dressed(Object.prototype), lying]) {
      expect([acceptedCandidate(v), acceptedAttempt(v), plainlyValidFailure(v as ToolFailure)]).toEqual([
        undefined,
        undefined,
        false,
      ]);
      expect(candidateCallSchema().safeParse(v).success).toBe(false);
    }
    expect(() => parseCallContext(Object.setPrototypeOf(Object.assign([], ctxOf()), Object.prototype))).toThrow(
      'expected object, received array',
    );
  });

  it('parseCallContext answers with a copy of what it read: a list that changes its length cannot slip past', () => {
    let lengthReads = 0;
    const items = Array.from({ length: 2_000 }, () => 'a');
    const shifty = new Proxy(items, {
      get: (t, k) => (k === 'length' ? (lengthReads++ === 0 ? 0 : t.length) : Reflect.get(t, k)),
    });
    const ctx = parseCallContext({ ...ctxOf(), inputFields: shifty, extra: 1 });
    expect([ctx.inputFields, 'extra' in ctx, lengthReads]).toEqual([[], false, 1]);
  });

  it('a value whose reading throws is left to the schema', () => {
    const hostile = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('no');
        },
      },
    );
    expect([acceptedAttempt(hostile), acceptedCandidate(hostile)]).toEqual([undefined, undefined]);
  });
});
