/**
 * recovery/classify/context.ts's plain reading of a `CallContext` against its schema (`callContextSchema()`): a
 * context it returns without the schema is one the schema accepts, and what it returns is a copy of what it read.
 * Values are valid contexts with fields replaced by odd values, keys added or removed.
 */
import fc from 'fast-check';
import { parseCallContext, callContextSchema } from '../../recovery/classify/context';
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

describe('parseCallContext', () => {
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

  it('parseCallContext answers with a copy of what it read: a list that changes its length cannot slip past', () => {
    let lengthReads = 0;
    const items = Array.from({ length: 2_000 }, () => 'a');
    const shifty = new Proxy(items, {
      get: (t, k) => (k === 'length' ? (lengthReads++ === 0 ? 0 : t.length) : Reflect.get(t, k)),
    });
    const ctx = parseCallContext({ ...ctxOf(), inputFields: shifty, extra: 1 });
    expect([ctx.inputFields, 'extra' in ctx, lengthReads]).toEqual([[], false, 1]);
  });

  it('an array dressed as an object is refused, naming its type', () => {
    expect(() => parseCallContext(Object.setPrototypeOf(Object.assign([], ctxOf()), Object.prototype))).toThrow(
      'expected object, received array',
    );
  });
});
