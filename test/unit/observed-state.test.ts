/**
 * `publicObservedState` (recovery/observed-state.ts): what a 409 body becomes as observed state. Secrets and account
 * ids are dropped by key meaning at any depth, every string is redacted, and the traversal of a foreign value is
 * total and bounded. Pure: no workers, no servers.
 */
import {
  MAX_OBSERVED_DEPTH,
  MAX_OBSERVED_ENTRIES,
  MAX_OBSERVED_NODES,
  MAX_OBSERVED_STRING_CHARS,
  publicObservedState,
} from '../../recovery/observed-state';

describe('publicObservedState: keys by meaning, at any depth', () => {
  it("drops the issue's samples: existing.api.key, creds.pw, recovery_codes, code_verifier", () => {
    const body = {
      error: 'duplicate',
      existing: { id: 'int_7', api: { key: 'live-4411-aa' } },
      creds: { user: 'svc', pw: 'Tr0ub4dor' },
      recovery_codes: ['7a1c-93fe', 'b2d4-0c11'],
      request: { code_verifier: 'v', amount: 1200 },
    };
    expect(publicObservedState(body)).toEqual({
      error: 'duplicate',
      existing: { id: 'int_7', api: {} },
      request: { amount: 1200 },
    });
  });

  it('drops account and organisation ids, keeps business ids', () => {
    expect(
      publicObservedState({
        account_id: '493817206451',
        org: { id: 'o1' },
        customer_id: 'cus_42',
        order: { id: 'O-1' },
      }),
    ).toEqual({ customer_id: 'cus_42', order: { id: 'O-1' } });
  });

  it('keeps counters and words that only contain a stem', () => {
    const body = { token_count: 42, max_tokens: 1000, keyword: 'monkey', passenger: 'Ann', token_type: 'Bearer' };
    expect(publicObservedState(body)).toEqual(body);
  });

  it('drops the value of a secret key whatever its type: number, array, object, boolean', () => {
    expect(publicObservedState({ pin: 1234, otp: [1, 2], auth: { user: 'u' }, password: true, n: 1 })).toEqual({
      n: 1,
    });
  });

  it('drops the value of a named entry whose name names a secret (env lists, header lists)', () => {
    expect(
      publicObservedState({
        env: [
          { name: 'API_KEY', value: 'abc123' },
          { name: 'REGION', value: 'eu' },
        ],
        headers: [{ Key: 'Authorization', Value: 'Bearer x' }],
      }),
    ).toEqual({ env: [{ name: 'API_KEY' }, { name: 'REGION', value: 'eu' }], headers: [{ Key: 'Authorization' }] });
  });

  it('drops stack traces by key', () => {
    expect(publicObservedState({ message: 'x', stack: 'Error\n at f (/srv/a.js:1:1)', stackTrace: [] })).toEqual({
      message: 'x',
    });
  });

  it('parses a JSON text body and judges its keys', () => {
    expect(publicObservedState('{"existing":{"hook":{"secret":"swordfish","id":"h1"}}}')).toEqual({
      existing: { hook: { id: 'h1' } },
    });
    expect(publicObservedState('{not json')).toBe('{not json');
  });

  it('redacts strings and keys: e-mail addresses, tokens, key=value in a key', () => {
    expect(
      publicObservedState({
        owner: 'ann.lee@example.com',
        'x token=abc123': 'x',
        note: 'use key-3ax6xnjp29jd6fds4gc373sgvjxteol0',
      }),
    ).toEqual({ owner: '[email]', 'x token=[redacted]': 'x', note: 'use [redacted]' });
  });
});

describe('publicObservedState: bounded', () => {
  it(`cuts depth at ${MAX_OBSERVED_DEPTH}, entries at ${MAX_OBSERVED_ENTRIES}, strings at ${MAX_OBSERVED_STRING_CHARS}`, () => {
    const deep = { a: { b: { c: { d: { e: 1 } } } } };
    expect(publicObservedState(deep)).toEqual({ a: { b: { c: { d: '[…]' } } } });
    const wide = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i]));
    expect(Object.keys(publicObservedState(wide) as object)).toHaveLength(MAX_OBSERVED_ENTRIES);
    expect(publicObservedState(Array.from({ length: 50 }, (_, i) => i))).toHaveLength(MAX_OBSERVED_ENTRIES);
    const long = publicObservedState({ s: 'word '.repeat(1000) }) as { s: string };
    expect(long.s).toHaveLength(MAX_OBSERVED_STRING_CHARS + 1);
    expect(long.s.endsWith('…')).toBe(true);
  });

  it(`reads at most ${MAX_OBSERVED_NODES} values of one body`, () => {
    let reads = 0;
    const leaf = () =>
      new Proxy(
        {},
        {
          get: () => (reads++, 1),
          ownKeys: () => ['a', 'b'],
          getOwnPropertyDescriptor: () => ({ enumerable: true, configurable: true }),
        },
      );
    const body = Array.from({ length: 20 }, () =>
      Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, leaf()])),
    );
    publicObservedState(body);
    expect(reads).toBeLessThanOrEqual(MAX_OBSERVED_NODES);
  });

  it('a string of 1 MB without a space is cut before redaction, and no half of a token is left', () => {
    const out = publicObservedState({ s: `sk-${'a1B2'.repeat(250_000)}` }) as { s: string };
    expect(out.s).toBe('…');
  });

  it('a cycle ends at the depth bound', () => {
    const a: Record<string, unknown> = { name: 'a' };
    a.self = a;
    expect(publicObservedState(a)).toEqual({
      name: 'a',
      self: { name: 'a', self: { name: 'a', self: { name: 'a', self: '[…]' } } },
    });
  });
});

describe('publicObservedState: total on foreign values', () => {
  it('a getter that throws leaves its key out', () => {
    const body = {
      ok: 1,
      get bad(): never {
        throw new Error('boom at /srv/a.js:1:1');
      },
    };
    expect(publicObservedState(body)).toEqual({ ok: 1 });
  });

  it('a revoked Proxy, at the top or inside, is left out', () => {
    const { proxy, revoke } = Proxy.revocable({ a: 1 }, {});
    revoke();
    expect(publicObservedState(proxy)).toBeUndefined();
    expect(publicObservedState({ ok: 1, p: proxy })).toEqual({ ok: 1 });
    expect(publicObservedState([proxy, 2])).toEqual([2]);
  });

  it('a Proxy whose traps throw is left out', () => {
    const hostile = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('trap');
        },
        get: () => {
          throw new Error('trap');
        },
      },
    );
    expect(publicObservedState({ ok: 1, h: hostile })).toEqual({ ok: 1 });
    const arrayTrap = new Proxy([1, 2], {
      get: () => {
        throw new Error('trap');
      },
    });
    expect(publicObservedState({ a: arrayTrap, ok: 1 })).toEqual({ ok: 1 });
  });

  it('BigInt, symbols, functions and undefined are left out; NaN and Infinity become null', () => {
    expect(
      publicObservedState({ b: 1n, s: Symbol('x'), f: () => 1, u: undefined, n: NaN, i: Infinity, ok: 'y' }),
    ).toEqual({
      n: null,
      i: null,
      ok: 'y',
    });
    expect(publicObservedState(10n)).toBeUndefined();
  });

  it('a key named __proto__ stays a plain key and changes no prototype', () => {
    const body = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as unknown;
    const out = publicObservedState(body) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['__proto__', 'a']);
    expect(JSON.stringify(out)).toBe('{"__proto__":{"polluted":true},"a":1}');
  });

  it('dates become ISO strings, binary data a marker', () => {
    expect(
      publicObservedState({ at: new Date(Date.UTC(2026, 0, 2)), bad: new Date(NaN), buf: new Uint8Array([1, 2]) }),
    ).toEqual({
      at: '2026-01-02T00:00:00.000Z',
      bad: null,
      buf: '[binary]',
    });
  });

  it('a key longer than 100 characters is left out with its value', () => {
    expect(publicObservedState({ [`k${'x'.repeat(100)}`]: 1, ok: 2 })).toEqual({ ok: 2 });
  });
});
