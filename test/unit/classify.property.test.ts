/**
 * Property tests of `classify` (recovery/classify/index.ts): on any error, body and headers it never throws and
 * always returns a frozen ToolFailure that validates. No workers, no servers.
 */
import fc from 'fast-check';
import { z } from 'zod';
import {
  classify,
  fieldIssuesFromZod,
  type CallContext,
  type RawOutcome,
  type ToolClassifier,
} from '../../recovery/classify';
import { describeSchema } from '../../recovery/classify/json-schema-words';
import { MAX_ZOD_FIELD_ISSUES } from '../../recovery/classify/zod';
import { schemaAt } from '../../recovery/classify/json-schema';
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
      // The example: a counterexample CI found (a non-finite number as a path segment).
      { numRuns: 1000, examples: [[[{ path: [Number.POSITIVE_INFINITY] }], 0, {}]] },
    );
  });

  // Generated zod schemas (nested objects, arrays, tuples, records, unions, optional/nullable, recursion) and
  // inputs near them: the JSON Schema reader never throws, and every zod issue path gets one field issue.
  const KEYS = ['a', 'b', 'c'] as const;
  const leaf: fc.Arbitrary<z.ZodType> = fc.constantFrom<z.ZodType>(
    z.string(),
    z.string().min(2).max(4),
    z.string().regex(/^ab/),
    z.string().startsWith('x_'),
    z.email(),
    z.iso.date(),
    z.number(),
    z.number().int().positive(),
    z.number().min(-1).max(1),
    z.boolean(),
    z.enum(['a', 'b']),
    z.literal('x'),
    z.null(),
    z.bigint(),
    z.lazy(() => z.object({ v: z.number(), next: z.array(z.string()).optional() })),
  );
  const { schema: zodSchema } = fc.letrec<{ schema: z.ZodType }>((tie) => ({
    schema: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc
        .tuple(fc.subarray([...KEYS]), fc.array(tie('schema'), { minLength: 3, maxLength: 3 }), fc.boolean())
        .map(([keys, subs, strict]) => {
          const shape = Object.fromEntries(keys.map((k, i) => [k, subs[i]!]));
          return strict ? z.strictObject(shape) : z.object(shape);
        }),
      tie('schema').map((s) => z.array(s).max(2)),
      fc.tuple(tie('schema'), tie('schema')).map(([x, y]) => z.tuple([x, y])),
      tie('schema').map((s) => z.record(z.string(), s)),
      tie('schema').map((s) => s.optional()),
      tie('schema').map((s) => s.nullable()),
      fc.tuple(tie('schema'), tie('schema')).map(([x, y]) => z.union([x, y])),
    ),
  }));
  const nearInput: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
    v: fc.oneof(
      { depthSize: 'small' },
      fc.jsonValue({ maxDepth: 1 }),
      fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), tie('v'), { maxKeys: 4 }),
      fc.array(tie('v'), { maxLength: 3 }),
    ),
  })).v;
  const pathsOf = (error: z.ZodError): Set<string> =>
    new Set(
      error.issues.flatMap((i) =>
        i.code === 'unrecognized_keys' ? i.keys.map((k) => JSON.stringify([...i.path, k])) : [JSON.stringify(i.path)],
      ),
    );

  it('fieldIssuesFromZod: generated zod schemas and inputs → one field issue per zod issue path, jsonSchema = schema', () => {
    fc.assert(
      fc.property(zodSchema, nearInput, (schema, input) => {
        const parsed = schema.safeParse(input);
        if (parsed.success) return;
        const out = fieldIssuesFromZod(parsed.error, { input, schema });
        for (const i of out) expect(fieldIssueSchema().safeParse(i).success).toBe(true);
        const expected = pathsOf(parsed.error);
        if (expected.size <= MAX_ZOD_FIELD_ISSUES) {
          expect(new Set(out.map((i) => JSON.stringify(i.path)))).toEqual(expected);
        }
        const jsonSchema = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
        expect(fieldIssuesFromZod(parsed.error, { input, jsonSchema })).toEqual(out);
        for (const i of parsed.error.issues) {
          expect(typeof describeSchema(schemaAt(jsonSchema, i.path), jsonSchema)).toBe('string');
        }
      }),
      { numRuns: 500 },
    );
  });

  it('describeSchema / schemaAt: any JSON value (refs, cycles, hostile objects) as the schema → words, never a throw', () => {
    const node = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.record({ $ref: fc.constantFrom('#', '#/$defs/a', '#/$defs/b', '#/nope', 'http://x') }),
      fc.record({ anyOf: fc.array(fc.record({ $ref: fc.constantFrom('#', '#/$defs/a') }), { maxLength: 3 }) }),
    );
    const doc = fc.record(
      {
        type: fc.anything(),
        properties: fc.dictionary(fc.constantFrom('a', 'b'), node),
        items: node,
        $defs: fc.record({ a: node, b: node }),
        anyOf: fc.array(node, { maxLength: 3 }),
        allOf: fc.array(node, { maxLength: 2 }),
        prefixItems: fc.anything(),
        pattern: fc.anything(),
        enum: fc.anything(),
      },
      { requiredKeys: [] },
    );
    const path = fc.array(fc.oneof(fc.constantFrom('a', 'b'), fc.nat(3)), { maxLength: 5 });
    fc.assert(
      fc.property(doc, path, fc.boolean(), (root, p, trap) => {
        // A hostile getter where the reader looks first: every read of it throws.
        if (trap) {
          Object.defineProperty(root, 'items', {
            get: () => {
              throw new Error('get');
            },
          });
        }
        const words = describeSchema(schemaAt(root, p), root);
        expect(typeof words).toBe('string');
        expect(words.length).toBeGreaterThan(0);
      }),
      { numRuns: 1000 },
    );
  });
});
