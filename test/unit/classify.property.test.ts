/**
 * Property tests of `classify` (recovery/classify/index.ts): on any error, body and headers it never throws and
 * always returns a frozen ToolFailure that validates. No workers, no servers.
 */
import fc from 'fast-check';
import {
  classify,
  fieldIssuesFromZod,
  type CallContext,
  type RawOutcome,
  type ToolClassifier,
} from '../../recovery/classify';
import { fieldIssueSchema, MAX_PUBLIC_MESSAGE_CHARS, toolFailureSchema } from '../../recovery/failure';
import { ctxOf } from './classify-helpers';

/** A Proxy that throws on every trap: the worst object a tool could hand over. */
const hostile = (): unknown =>
  new Proxy(
    {},
    {
      get: () => {
        throw new Error('get');
      },
      has: () => {
        throw new Error('has');
      },
      ownKeys: () => {
        throw new Error('ownKeys');
      },
      getOwnPropertyDescriptor: () => {
        throw new Error('gopd');
      },
      getPrototypeOf: () => {
        throw new Error('proto');
      },
    },
  );
const throwingGetters = (): unknown =>
  Object.defineProperties(new Error('x'), {
    cause: {
      get: () => {
        throw new Error('cause');
      },
    },
    code: {
      get: () => {
        throw new Error('code');
      },
    },
    name: {
      get: () => {
        throw new Error('name');
      },
    },
  });

/** Hostile objects are built inside the property (fast-check itself inspects generated values). */
const HOSTILE = Symbol('hostile');
const GETTERS = Symbol('throwing getters');
const materialise = (v: unknown): unknown => (v === HOSTILE ? hostile() : v === GETTERS ? throwingGetters() : v);
const weird = fc.oneof(
  fc.anything({
    withBigInt: true,
    withDate: true,
    withMap: true,
    withSet: true,
    withTypedArray: true,
    withNullPrototype: true,
    withSparseArray: true,
    withBoxedValues: true,
  }),
  fc.constant(HOSTILE),
  fc.constant(GETTERS),
  fc.string().map((m) => new Error(m)),
  fc.record({
    code: fc.constantFrom('ECONNREFUSED', 'UND_ERR_SOCKET', 'ETIMEDOUT', 'constructor', '__proto__'),
    syscall: fc.option(fc.constantFrom('connect', 'read')),
  }),
  fc.record({ status: fc.integer({ min: 0, max: 1000 }), headers: fc.anything() }),
);
const ctxArb: fc.Arbitrary<CallContext> = fc
  .record({
    effect: fc.constantFrom('read' as const, 'write' as const),
    deduplicates: fc.boolean(),
    approvalCanLift: fc.boolean(),
    nowMs: fc.nat(4_102_444_800_000),
  })
  .map((o) => ctxOf(o));
const status = fc.oneof(
  fc.integer({ min: 100, max: 599 }).filter((s) => s < 200 || s > 299),
  fc.constantFrom(Number.NaN, 0, 1000, 404.5, -1),
);
const headers = fc.oneof(
  weird,
  fc.dictionary(
    fc.constantFrom(
      'retry-after',
      'Retry-After',
      'retry-after-ms',
      'x-ratelimit-remaining',
      'x-ratelimit-reset',
      'ratelimit',
      'www-authenticate',
      'RateLimit-Reset',
    ),
    fc.oneof(fc.string(), fc.array(fc.string()), fc.nat().map(String)),
  ),
);

function check(raw: RawOutcome, ctx: CallContext, tool?: ToolClassifier): void {
  const f = classify(raw, ctx, tool);
  expect(toolFailureSchema().safeParse(f).success).toBe(true);
  expect(Object.isFrozen(f)).toBe(true);
  expect(f.publicMessage.length).toBeLessThanOrEqual(MAX_PUBLIC_MESSAGE_CHARS);
}

describe('classify: properties', () => {
  it('classify: any thrown value → a valid frozen ToolFailure, never an exception', () => {
    fc.assert(
      fc.property(weird, fc.option(fc.boolean(), { nil: undefined }), ctxArb, (error, requestSent, ctx) => {
        const e = materialise(error);
        check(
          requestSent === undefined ? { kind: 'thrown', error: e } : { kind: 'thrown', error: e, requestSent },
          ctx,
        );
      }),
      { numRuns: 1500 },
    );
  });

  it('classify: any non-2xx status with any headers and body → a valid frozen ToolFailure', () => {
    fc.assert(
      fc.property(status, headers, weird, ctxArb, (s, h, body, ctx) => {
        check(
          { kind: 'http', status: s, headers: materialise(h) as Record<string, string>, body: materialise(body) },
          ctx,
        );
      }),
      { numRuns: 1500 },
    );
  });

  it('classify: any tool classifier answer (or throw) → a valid frozen ToolFailure', () => {
    const answer = fc.oneof(
      fc.anything(),
      fc.record(
        {
          class: fc.oneof(
            fc.constantFrom('transient', 'outcome_unknown', 'invalid_arguments', 'authorization'),
            fc.string(),
          ),
          reason: fc.oneof(fc.constantFrom('rate_limited', 'unspecified'), fc.anything()),
          retryable: fc.anything(),
          replaySafe: fc.anything(),
          retryAfterMs: fc.oneof(fc.double(), fc.nat()),
          publicMessage: fc.string({ maxLength: 1000 }),
        },
        { requiredKeys: [] },
      ),
    );
    fc.assert(
      fc.property(status, answer, fc.boolean(), ctxArb, (s, a, throws, ctx) => {
        check({ kind: 'http', status: s, headers: {} }, ctx, () => {
          if (throws) throw new Error('tool classifier bug');
          return a as ReturnType<ToolClassifier>;
        });
      }),
      { numRuns: 1000 },
    );
  });

  it('classify: a write without dedup is retryable only when nothing could have been applied', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          status.map((s) => ({ kind: 'http' as const, status: s, headers: {} })),
          weird.map((e) => ({ kind: 'thrown' as const, error: e })),
        ),
        (r) => {
          const raw = r.kind === 'thrown' ? { ...r, error: materialise(r.error) } : r;
          const f = classify(raw, ctxOf({ effect: 'write' }));
          if (f.retryable) expect(f.phase).toBe('dispatch');
          if (f.class === 'outcome_unknown') expect(f.replaySafe).toBe(false);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('fieldIssuesFromZod: any ZodError-shaped value with arbitrary issues, input and schema → valid field issues', () => {
    const issue = fc.oneof(
      fc.anything(),
      fc.record(
        {
          code: fc.constantFrom(
            'invalid_type',
            'invalid_value',
            'invalid_format',
            'too_small',
            'too_big',
            'unrecognized_keys',
            'invalid_union',
            'custom',
            'x',
          ),
          path: fc.array(fc.oneof(fc.string(), fc.nat(), fc.anything()), { maxLength: 4 }),
          message: fc.anything(),
          expected: fc.anything(),
          values: fc.anything(),
          keys: fc.array(fc.anything(), { maxLength: 3 }),
          errors: fc.anything(),
          input: fc.anything(),
          format: fc.anything(),
          pattern: fc.anything(),
          minimum: fc.anything(),
        },
        { requiredKeys: [] },
      ),
    );
    fc.assert(
      fc.property(fc.array(issue, { maxLength: 6 }), fc.anything(), fc.anything(), (issues, input, schema) => {
        const out = fieldIssuesFromZod({ name: 'ZodError', issues }, { input, schema });
        for (const i of out) expect(fieldIssueSchema().safeParse(i).success).toBe(true);
        const thrown = classify({ kind: 'thrown', error: { name: 'ZodError', issues } }, ctxOf());
        expect(toolFailureSchema().safeParse(thrown).success).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});
