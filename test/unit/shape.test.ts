/**
 * recovery/shape.ts, the checkers of the data the router reads where it enters, against zod 4 (which they replace in
 * the workflow bundle): for the same declaration, written once with each, the same values pass, a passing value
 * comes back equal, and a failing one's first issue has the same path and message. Values are arbitrary JSON,
 * edge numbers and edits of a valid value. Then what shapes do that zod does not: copies read once, frozen shapes,
 * a `partial()` that leaves absent fields absent. Pure unit tests: no workers, no servers.
 */
import fc from 'fast-check';
import { z } from 'zod';
import { s, ShapeError, type Infer } from '../../recovery/shape';

const ODD: unknown[] = [
  ...[undefined, null, 0, -0, -1, 1, 1.5, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY, '', ' ', 'x', 'abc '],
  ...[true, false, {}, [], ['x'], [1, 2, 3], { kind: 'a' }, { kind: 'b', n: 1 }, 'read', 'write', 'A'.repeat(70)],
];
const odd = fc.oneof(fc.constantFrom(...ODD), fc.jsonValue({ maxDepth: 2 }));

/** `base` with fields replaced by odd values, some removed, maybe an unknown key added. */
function edits(base: Record<string, unknown>): fc.Arbitrary<unknown> {
  const keys = Object.keys(base);
  const edited = fc
    .record({
      replace: fc.dictionary(fc.constantFrom(...keys), odd, { maxKeys: 2 }),
      drop: fc.subarray(keys, { maxLength: 2 }),
      extra: fc.option(fc.constantFrom('extra', 'kind'), { nil: undefined }),
      extraValue: odd,
    })
    .map(({ replace, drop, extra, extraValue }) => {
      const v: Record<string, unknown> = { ...base, ...replace };
      for (const k of drop) delete v[k];
      if (extra !== undefined) v[extra] = extraValue;
      return v;
    });
  return fc.oneof(edited, odd, fc.constant(base));
}

/** One declaration in both: [name, zod schema, shape, a valid value]. */
const PAIRS: [string, z.ZodType, { safeParse(v: unknown): unknown }, Record<string, unknown>][] = [
  [
    'strict object: int bounds, optional, default, enum, regex, positive',
    z
      .object({
        n: z.number().int().min(1).max(10),
        name: z.string().min(1).max(5).optional(),
        mode: z.enum(['read', 'write']).default('read'),
        code: z
          .string()
          .refine((v) => /^[a-z]+$/.test(v), 'lower case')
          .optional(),
        ms: z.number().positive().optional(),
        ratio: z.number().min(0).max(1).default(0.2),
      })
      .strict(),
    s
      .object({
        n: s.number().int().min(1).max(10),
        name: s.string().min(1).max(5).optional(),
        mode: s.enum(['read', 'write']).default('read'),
        code: s
          .string()
          .regex(/^[a-z]+$/, 'lower case')
          .optional(),
        ms: s.number().positive().optional(),
        ratio: s.number().min(0).max(1).default(0.2),
      })
      .strict(),
    { n: 3, name: 'ab', mode: 'write', code: 'x', ms: 1, ratio: 0.5 },
  ],
  [
    'discriminated union of strict objects, with a refinement',
    z
      .discriminatedUnion('kind', [
        z.object({ kind: z.literal('a'), n: z.number() }).strict(),
        z.object({ kind: z.literal('b'), list: z.array(z.string().trim().min(1)).min(1).max(2) }).strict(),
      ])
      .superRefine((v, ctx) => {
        if (v.kind === 'a' && v.n === 13) ctx.addIssue({ code: 'custom', path: ['n'], message: 'not 13' });
      }),
    s
      .discriminatedUnion('kind', [
        s.object({ kind: s.literal('a'), n: s.number() }).strict(),
        s.object({ kind: s.literal('b'), list: s.array(s.string().trim().min(1)).min(1).max(2) }).strict(),
      ])
      .superRefine((v, ctx) => {
        if (v.kind === 'a' && v.n === 13) ctx.addIssue({ code: 'custom', path: ['n'], message: 'not 13' });
      }),
    { kind: 'b', list: [' x '] },
  ],
  [
    'records, unions, unknown, booleans; a stripping object and a passthrough one',
    z.object({
      counts: z.record(z.string(), z.number().int().min(0)),
      path: z.array(z.union([z.string(), z.number()])),
      any: z.unknown(),
      on: z.boolean(),
      inner: z.object({ a: z.string() }).passthrough().optional(),
    }),
    s.object({
      counts: s.record(s.string(), s.number().int().min(0)),
      path: s.array(s.union([s.string(), s.number()])),
      any: s.unknown(),
      on: s.boolean(),
      inner: s.object({ a: s.string() }).passthrough().optional(),
    }),
    { counts: { a: 1 }, path: ['x', 0], any: null, on: true, inner: { a: 'x', b: 2 } },
  ],
];

type Issueish = { path: PropertyKey[]; message: string };
type Result = { success: boolean; data?: unknown; error?: { issues: Issueish[] } };
const verdict = (r: Result) =>
  r.success ? { ok: true, data: r.data } : { ok: false, first: r.error!.issues.map((i) => [i.path, i.message])[0] };

describe('shapes agree with zod 4 on the same declaration', () => {
  it.each(PAIRS)('%s', (_name, zod, shape, valid) => {
    expect(verdict(shape.safeParse(valid) as Result)).toEqual(verdict(zod.safeParse(valid)));
    fc.assert(
      fc.property(edits(valid), (v) => {
        expect(verdict(shape.safeParse(v) as Result)).toEqual(verdict(zod.safeParse(v)));
      }),
      { numRuns: 2000 },
    );
  });

  it('messages: the rule in zod 4 words, at the field', () => {
    const shape = s.object({ n: s.number().int().min(1), list: s.array(s.string()).min(1) }).strict();
    const issues = (v: unknown) => shape.safeParse(v).error?.issues.map((i) => [i.path.join('.'), i.message]);
    expect(issues({ n: 0, list: [] })).toEqual([
      ['n', 'Too small: expected number to be >=1'],
      ['list', 'Too small: expected array to have >=1 items'],
    ]);
    expect(issues({ n: 1.5, list: [1], x: 1 })).toEqual([
      ['n', 'Invalid input: expected int, received number'],
      ['list.0', 'Invalid input: expected string, received number'],
      ['', 'Unrecognized key: "x"'],
    ]);
    expect(s.string().max(3, 'must be at most 3 (a bound)').safeParse('abcd').error?.issues[0]?.message).toBe(
      'must be at most 3 (a bound)',
    );
  });
});

describe('what shapes add', () => {
  const call = s.object({ tool: s.string().min(1), n: s.number().int().min(0).optional() }).strict();

  it('a check returns a copy of what it read, each field read once: a getter cannot answer differently later', () => {
    let reads = 0;
    const flipping = {
      tool: 't',
      get n() {
        reads += 1;
        return reads === 1 ? 1 : -5;
      },
    };
    const r = call.safeParse(flipping);
    expect([r.success, r.data, reads]).toEqual([true, { tool: 't', n: 1 }, 1]);
    expect(r.data).not.toBe(flipping);
  });

  it('an absent optional field stays absent; one present as undefined stays present (as zod keeps it)', () => {
    expect(Object.keys(call.parse({ tool: 't' }))).toEqual(['tool']);
    expect(Object.keys(call.parse({ tool: 't', n: undefined }))).toEqual(['tool', 'n']);
  });

  it('a deep-frozen shape (a preloaded module) still checks, and builds new shapes from it', () => {
    const freeze = (o: object): object => {
      for (const v of Object.values(o)) if (typeof v === 'object' && v !== null) freeze(v as object);
      return Object.freeze(o);
    };
    const frozen = freeze(s.object({ code: s.string().regex(/^[a-z]+$/, 'lower case') }).strict()) as typeof call;
    expect(frozen.safeParse({ code: 'ab' }).success).toBe(true);
    expect(frozen.safeParse({ code: 'AB' }).error?.issues[0]?.message).toBe('lower case');
    expect(frozen.partial().safeParse({}).success).toBe(true);
  });

  it("partial() leaves an absent field absent: a field's default does not apply (zod's does)", () => {
    const policy = s.object({ retries: s.number().int().min(0).default(3), on: s.boolean().default(true) }).strict();
    expect(policy.parse({})).toEqual({ retries: 3, on: true });
    expect(policy.partial().parse({})).toEqual({});
    expect(policy.partial().parse({ retries: 5 })).toEqual({ retries: 5 });
  });

  it('parse throws a ShapeError (a RecoveryError, code invalid_shape) naming every issue', () => {
    expect(() => call.parse({ tool: '', n: -1 })).toThrow(
      new ShapeError([
        { code: 'too_small', path: ['tool'], message: 'Too small: expected string to have >=1 characters' },
        { code: 'too_small', path: ['n'], message: 'Too small: expected number to be >=0' },
      ]),
    );
    expect(ShapeError.is(call.safeParse(1).error)).toBe(true);
  });

  it('a key such as __proto__ in a record is a key like any other, not a prototype', () => {
    const counts = s.record(s.string(), s.number());
    const out = counts.parse(JSON.parse('{"__proto__": 1, "a": 2}'));
    expect([Object.getPrototypeOf(out), Object.keys(out)]).toEqual([Object.prototype, ['__proto__', 'a']]);
  });

  it('types: the output of a declaration, as z.output would infer it', () => {
    const value: Infer<typeof call> = { tool: 't' };
    // @ts-expect-error -- `tool` is required
    const missing: Infer<typeof call> = { n: 1 };
    expect([value, missing].length).toBe(2);
  });

  it('a pattern with the g or y flag is refused when declared (its test would write lastIndex)', () => {
    expect(() => s.string().regex(/a/g, 'x')).toThrow('regex(): a pattern with the g or y flag keeps state');
  });
});
