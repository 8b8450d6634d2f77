/**
 * Pure unit tests of canonical argument hashing (recovery/canonical.ts): no workers, no servers.
 */
import fc from 'fast-check';
import { argsHash, canonicalize, MAX_CANONICAL_DEPTH } from '../../recovery/canonical';
import { isRecoveryInputError, RecoveryInputError } from '../../recovery/errors';

function thrown(fn: () => unknown): RecoveryInputError {
  try {
    fn();
  } catch (e) {
    if (e instanceof RecoveryInputError) return e;
    throw e;
  }
  throw new Error('expected a RecoveryInputError, nothing was thrown');
}

describe('canonicalize: equivalent encodings are no change', () => {
  test('canonicalize: object key order does not matter, keys sorted, no whitespace', () => {
    expect(canonicalize({ b: 1, a: { d: true, c: null } })).toBe('{"a":{"c":null,"d":true},"b":1}');
    expect(canonicalize({ a: { c: null, d: true }, b: 1 })).toBe('{"a":{"c":null,"d":true},"b":1}');
  });

  test('canonicalize: 1 and 1.0 and 1e0 are one number, written 1', () => {
    expect(canonicalize(JSON.parse('{"n":1.0}'))).toBe('{"n":1}');
    expect(canonicalize(JSON.parse('{"n":1e0}'))).toBe('{"n":1}');
    expect(argsHash(JSON.parse('{"amount_cents":80000.0}'))).toBe(argsHash({ amount_cents: 80000 }));
  });

  test('canonicalize: -0 is written 0, as JSON does', () => {
    expect(canonicalize({ x: -0 })).toBe('{"x":0}');
    expect(argsHash([-0])).toBe(argsHash([0]));
  });

  test('canonicalize: NFC and NFD spellings of a string value hash the same', () => {
    const nfc = 'caf\u00e9';
    const nfd = 'cafe\u0301';
    expect(nfc).not.toBe(nfd);
    expect(canonicalize({ name: nfd })).toBe(`{"name":"${nfc}"}`);
    expect(argsHash({ name: nfc })).toBe(argsHash({ name: nfd }));
  });

  test('canonicalize: NFC and NFD spellings of a key hash the same', () => {
    expect(argsHash({ 'r\u00e9sum\u00e9': 1 })).toBe(argsHash({ 're\u0301sume\u0301': 1 }));
  });

  test('canonicalize: an undefined-valued key is the same as an absent key', () => {
    expect(canonicalize({ a: 1, b: undefined })).toBe('{"a":1}');
    expect(argsHash({ a: 1, b: undefined })).toBe(argsHash({ a: 1 }));
  });

  test('canonicalize: undefined and holes in an array become null, as JSON does', () => {
    expect(canonicalize([undefined, , 1])).toBe('[null,null,1]');
  });

  test('canonicalize: a Date is written through its toJSON', () => {
    expect(canonicalize({ due: new Date(Date.UTC(2026, 9, 1)) })).toBe('{"due":"2026-10-01T00:00:00.000Z"}');
  });

  test('canonicalize: keys are sorted by UTF-16 code units (RFC 8785 §3.2.3)', () => {
    expect(canonicalize({ b: 0, a: 0, B: 0, '10': 0, '9': 0, '\u00e9': 0 })).toBe(
      '{"10":0,"9":0,"B":0,"a":0,"b":0,"\u00e9":0}',
    );
  });

  test('canonicalize: a null-prototype object is a plain object', () => {
    const o = Object.create(null) as Record<string, unknown>;
    o.z = 1;
    o.a = 2;
    expect(canonicalize(o)).toBe('{"a":2,"z":1}');
  });

  test('canonicalize: shared (non-cyclic) references are fine', () => {
    const shared = { k: 1 };
    expect(canonicalize({ a: shared, b: [shared, shared] })).toBe('{"a":{"k":1},"b":[{"k":1},{"k":1}]}');
  });

  test('canonicalize: a lone surrogate is escaped, not replaced, so two different ones differ', () => {
    expect(canonicalize('\ud800')).toBe('"\\ud800"');
    expect(argsHash('\ud800')).not.toBe(argsHash('\ud801'));
  });

  test('canonicalize: a "__proto__" key is an ordinary key', () => {
    expect(canonicalize(JSON.parse('{"__proto__":{"x":1},"a":2}'))).toBe('{"__proto__":{"x":1},"a":2}');
  });
});

describe('canonicalize: any value change is a change', () => {
  const base = argsHash({ order_id: 'O-1842', amount_cents: 80000, tags: ['a', 'b'] });
  test.each([
    ['0 vs "0"', { order_id: 'O-1842', amount_cents: '80000', tags: ['a', 'b'] }],
    ['array order', { order_id: 'O-1842', amount_cents: 80000, tags: ['b', 'a'] }],
    ['case of a string', { order_id: 'o-1842', amount_cents: 80000, tags: ['a', 'b'] }],
    ['null vs absent', { order_id: 'O-1842', amount_cents: 80000, tags: ['a', 'b'], note: null }],
    ['one more key', { order_id: 'O-1842', amount_cents: 80000, tags: ['a', 'b'], x: 0 }],
    ['a number', { order_id: 'O-1842', amount_cents: 80001, tags: ['a', 'b'] }],
  ])('argsHash: %s changes the hash', (_label, changed) => {
    expect(argsHash(changed)).not.toBe(base);
  });

  test('argsHash: 0 and "0" and false and null are four different values', () => {
    const hashes = new Set([argsHash(0), argsHash('0'), argsHash(false), argsHash(null)]);
    expect(hashes.size).toBe(4);
  });
});

describe('argsHash: sha256 hex of the canonical text', () => {
  test('argsHash: {} → sha256("{}")', () => {
    expect(argsHash({})).toBe('44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a');
  });

  test('argsHash: "abc" as a string value hashes the canonical text "\\"abc\\""', () => {
    // sha256 of the 5 bytes "abc" with quotes.
    expect(argsHash('abc')).toBe('6cc43f858fbb763301637b5af970e2a46b46f461f27e5a0f41e009c59b827b25');
  });

  test('argsHash: 64 lowercase hex characters', () => {
    expect(argsHash({ a: [1, 'x', null] })).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('canonicalize: values JSON cannot carry are refused with a typed error', () => {
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = cyclic;
  const cyclicArray: unknown[] = [];
  cyclicArray.push(cyclicArray);

  test.each<[string, unknown, string]>([
    ['a function', { f: () => 1 }, 'canonicalize: $.f is a function; JSON cannot carry it'],
    ['a symbol value', { s: Symbol('x') }, 'canonicalize: $.s is a symbol; JSON cannot carry it'],
    ['a bigint', { n: [1n] }, 'canonicalize: $.n[0] is a bigint; JSON cannot carry it (send it as a string)'],
    ['NaN', { amount: NaN }, 'canonicalize: $.amount is NaN; JSON has no NaN or Infinity'],
    ['Infinity', { amount: Infinity }, 'canonicalize: $.amount is Infinity; JSON has no NaN or Infinity'],
    ['-Infinity', [-Infinity], 'canonicalize: $[0] is -Infinity; JSON has no NaN or Infinity'],
    ['a cyclic object', cyclic, 'canonicalize: $.self is a cycle: it contains itself; JSON cannot carry it'],
    ['a cyclic array', cyclicArray, 'canonicalize: $[0] is a cycle: it contains itself; JSON cannot carry it'],
    [
      'top-level undefined',
      undefined,
      'canonicalize: $ is undefined; JSON cannot carry it at the top level (pass {} for "no arguments")',
    ],
    [
      'a Map',
      { m: new Map([['k', 1]]) },
      'canonicalize: $.m is a Map; only plain objects, arrays and values with toJSON are accepted (JSON would change or drop its content)',
    ],
    [
      'a Set',
      { 'a b': new Set([1]) },
      'canonicalize: $["a b"] is a Set; only plain objects, arrays and values with toJSON are accepted (JSON would change or drop its content)',
    ],
    [
      'a class instance',
      {
        c: new (class Money {
          cents = 1;
        })(),
      },
      'canonicalize: $.c is a Money; only plain objects, arrays and values with toJSON are accepted (JSON would change or drop its content)',
    ],
    [
      'a boxed number',
      { n: new Number(1) },
      'canonicalize: $.n is a Number; only plain objects, arrays and values with toJSON are accepted (JSON would change or drop its content)',
    ],
    ['a symbol key', { [Symbol('k')]: 1 }, 'canonicalize: $ has a symbol key (Symbol(k)); JSON cannot carry it'],
    [
      'two keys equal after NFC',
      { 'caf\u00e9': 1, 'cafe\u0301': 2 },
      'canonicalize: $["cafe\u0301"] is the same key as another key of its object after Unicode NFC normalisation',
    ],
  ])('canonicalize: %s → not_json', (_label, value, message) => {
    const e = thrown(() => canonicalize(value));
    expect(e.code).toBe('not_json');
    expect(e.message).toBe(message);
    expect(isRecoveryInputError(e)).toBe(true);
  });

  test('canonicalize: the error carries the path to the bad value', () => {
    expect(thrown(() => canonicalize({ items: [{ amount: 1 }, { amount: NaN }] })).path).toEqual([
      'items',
      1,
      'amount',
    ]);
  });

  test('argsHash: refuses what canonicalize refuses', () => {
    expect(thrown(() => argsHash({ f: () => 1 })).code).toBe('not_json');
  });

  test(`canonicalize: nesting deeper than ${MAX_CANONICAL_DEPTH} → limit_exceeded, not a stack overflow`, () => {
    let deep: unknown = 1;
    for (let i = 0; i < MAX_CANONICAL_DEPTH + 1; i++) deep = [deep];
    const e = thrown(() => canonicalize(deep));
    expect(e.code).toBe('limit_exceeded');
    expect(e.path).toHaveLength(MAX_CANONICAL_DEPTH);
  });

  test(`canonicalize: nesting of exactly ${MAX_CANONICAL_DEPTH} levels is accepted`, () => {
    let deep: unknown = 1;
    for (let i = 0; i < MAX_CANONICAL_DEPTH; i++) deep = [deep];
    expect(canonicalize(deep)).toBe(`${'['.repeat(MAX_CANONICAL_DEPTH)}1${']'.repeat(MAX_CANONICAL_DEPTH)}`);
  });

  test('canonicalize: toJSON is called once, like JSON.stringify: a toJSON returning its class instance is refused, no loop', () => {
    class Self {
      a = 1;
      toJSON(): unknown {
        return this;
      }
    }
    expect(thrown(() => canonicalize({ s: new Self() })).message).toBe(
      'canonicalize: $.s is a Self; only plain objects, arrays and values with toJSON are accepted (JSON would change or drop its content)',
    );
  });

  test('canonicalize: a toJSON result is canonicalised (keys sorted, strings NFC)', () => {
    const v = { toJSON: () => ({ z: 'cafe\u0301', a: 1 }) };
    expect(canonicalize({ v })).toBe('{"v":{"a":1,"z":"caf\u00e9"}}');
  });
});

describe('canonicalize: a value that throws when read → typed not_json naming the path (findings 24, 25)', () => {
  const HINT = '(a throwing getter or toJSON, or a revoked or hostile Proxy); only plain data is accepted';
  const throwingGetter = (thrownValue: unknown) =>
    Object.defineProperty({}, 'number', {
      enumerable: true,
      get() {
        throw thrownValue;
      },
    });
  const revoked = (() => {
    const r = Proxy.revocable({}, {});
    r.revoke();
    return r.proxy;
  })();

  test.each<[string, () => unknown, string, (string | number)[]]>([
    [
      'a getter throwing an Error that names a file path',
      () => argsHash({ card: throwingGetter(new Error('boom at /srv/app/secret.ts:1')) }),
      `canonicalize: $.card.number could not be read: its getter threw an Error ${HINT}`,
      ['card', 'number'],
    ],
    [
      'a getter throwing a string',
      () => canonicalize(throwingGetter('password=hunter2')),
      `canonicalize: $.number could not be read: its getter threw a string ${HINT}`,
      ['number'],
    ],
    [
      'a getter throwing null',
      () => canonicalize([throwingGetter(null)]),
      `canonicalize: $[0].number could not be read: its getter threw null ${HINT}`,
      [0, 'number'],
    ],
    [
      'an array element getter throwing a TypeError',
      () =>
        canonicalize({
          items: Object.defineProperty([1], 0, {
            get() {
              throw new TypeError('x');
            },
          }),
        }),
      `canonicalize: $.items[0] could not be read: its getter threw a TypeError ${HINT}`,
      ['items', 0],
    ],
    [
      'a toJSON() that throws',
      () =>
        argsHash({
          due: {
            toJSON: () => {
              throw new RangeError('Invalid time value');
            },
          },
        }),
      `canonicalize: $.due could not be read: its toJSON() threw a RangeError ${HINT}`,
      ['due'],
    ],
    [
      'a revoked Proxy inside the arguments',
      () => argsHash({ p: revoked }),
      `canonicalize: $.p could not be read: reading it threw a TypeError ${HINT}`,
      ['p'],
    ],
    [
      'a revoked Proxy as the arguments',
      () => argsHash(revoked),
      `canonicalize: $ could not be read: reading it threw a TypeError ${HINT}`,
      [],
    ],
    [
      'a Proxy whose ownKeys trap throws',
      () =>
        argsHash(
          new Proxy(
            {},
            {
              ownKeys() {
                throw new Error('trap');
              },
            },
          ),
        ),
      `canonicalize: $ could not be read: its keys threw an Error ${HINT}`,
      [],
    ],
    [
      'a getter throwing a hostile Proxy (whose every trap throws)',
      () =>
        canonicalize(
          throwingGetter(
            new Proxy(
              {},
              {
                get() {
                  throw new Error('get');
                },
                getPrototypeOf() {
                  throw new Error('proto');
                },
              },
            ),
          ),
        ),
      `canonicalize: $.number could not be read: its getter threw an object ${HINT}`,
      ['number'],
    ],
  ])('canonicalize: %s → not_json at its path, the thrown message not quoted', (_label, fn, message, path) => {
    const e = thrown(fn);
    expect([e.code, e.message, e.path, isRecoveryInputError(e), 'cause' in e]).toEqual([
      'not_json',
      message,
      path,
      true,
      false,
    ]);
  });
});

describe('canonicalize: properties', () => {
  // JSON values made of what JSON.parse can produce.
  const jsonValue = fc.jsonValue();

  test('canonicalize: agrees with JSON.parse of itself (the canonical text is JSON and a fixed point)', () => {
    fc.assert(
      fc.property(jsonValue, (v) => {
        const c = canonicalize(v);
        expect(canonicalize(JSON.parse(c))).toBe(c);
      }),
    );
  });

  test('canonicalize: shuffling object keys never changes the hash', () => {
    const shuffle = (v: unknown, seed: number): unknown => {
      if (Array.isArray(v)) return v.map((x, i) => shuffle(x, seed + i));
      if (v !== null && typeof v === 'object') {
        const entries = Object.entries(v as Record<string, unknown>);
        const rotated =
          entries.length === 0
            ? entries
            : [...entries.slice(seed % entries.length), ...entries.slice(0, seed % entries.length)].reverse();
        const out: Record<string, unknown> = {};
        for (const [k, x] of rotated)
          Object.defineProperty(out, k, {
            value: shuffle(x, seed + 1),
            enumerable: true,
            writable: true,
            configurable: true,
          });
        return out;
      }
      return v;
    };
    fc.assert(
      fc.property(jsonValue, fc.nat(1000), (v, seed) => {
        expect(argsHash(shuffle(v, seed))).toBe(argsHash(v));
      }),
    );
  });

  test('canonicalize: equals JSON.stringify for values without objects or non-NFC strings', () => {
    const flat = fc.array(
      fc.oneof(
        fc.integer(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.boolean(),
        fc.constant(null),
        fc.string().map((s) => s.normalize('NFC')),
      ),
    );
    fc.assert(
      fc.property(flat, (v) => {
        expect(canonicalize(v)).toBe(JSON.stringify(v));
      }),
    );
  });

  test('argsHash: two values hash the same exactly when their canonical texts are equal', () => {
    fc.assert(
      fc.property(jsonValue, jsonValue, (a, b) => {
        expect(argsHash(a) === argsHash(b)).toBe(canonicalize(a) === canonicalize(b));
      }),
    );
  });
});
