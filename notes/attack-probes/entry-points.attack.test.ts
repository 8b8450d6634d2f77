/**
 * Attack probes on the pure / Node-side entry points. Each test asserts the PROMISE; a failing test is a finding.
 */
import { z } from 'zod';
import { defineTool, ToolDefinitionError } from '../../../activities/define-tool';
import { RecoveryPlugin, RecoveryPluginOptionsError } from '../../../plugin/recovery-plugin';
import { ConfigError, loadConfig, parseConfig } from '../../../config/load';
import {
  allowNextAttempt,
  argsHash,
  canonicalize,
  classify,
  isRecoveryInputError,
  nextDelay,
  routeFor,
  spend,
  startCall,
  startRun,
  startTurn,
  restoreLedger,
  DEFAULT_BACKOFF_POLICY,
} from '../../../recovery';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const tool = (over: Record<string, unknown> = {}) =>
  ({
    name: 'probe',
    description: 'probe',
    input: z.object({ a: z.string() }),
    output: z.object({ ok: z.boolean() }),
    effect: 'read',
    execute: async () => ({ ok: true }),
    ...over,
  }) as never;

describe('defineTool', () => {
  test('defineTool(undefined) throws ToolDefinitionError (not a TypeError)', () => {
    expect(() => defineTool(undefined as never)).toThrow(ToolDefinitionError);
  });
  test('defineTool(null) throws ToolDefinitionError', () => {
    expect(() => defineTool(null as never)).toThrow(ToolDefinitionError);
  });
  test('a name that is 1 MB long is refused with a bounded message', () => {
    let err: unknown;
    try {
      defineTool(tool({ name: 'x'.repeat(1_000_000) }));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ToolDefinitionError);
    expect((err as Error).message.length).toBeLessThan(2_000);
  });
  test.each(['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty'])(
    'a tool named %s (Object.prototype member) is refused or safe',
    (name) => {
      // Accepting it is fine ONLY if the router treats it as an ordinary key; see temporal probe "proto-named tool".
      // This unit probe records whether defineTool refuses it.
      expect(() => defineTool(tool({ name }))).toThrow(ToolDefinitionError);
    },
  );
  test('unicode / empty names are refused with ToolDefinitionError', () => {
    for (const name of ['', 'ｂｏｏｋ', 'book\u200d', 'a b', 'é']) {
      expect(() => defineTool(tool({ name }))).toThrow(ToolDefinitionError);
    }
  });
  test('timeouts 0 / NaN / Infinity refused', () => {
    for (const t of [0, NaN, Infinity, -1, 1.5]) {
      expect(() => defineTool(tool({ timeouts: { startToCloseMs: t } }))).toThrow(ToolDefinitionError);
    }
  });
});

describe('RecoveryPlugin options', () => {
  const good = () => defineTool(tool());
  test('undefined / empty tools → RecoveryPluginOptionsError', () => {
    expect(() => new RecoveryPlugin(undefined as never)).toThrow(RecoveryPluginOptionsError);
    expect(() => new RecoveryPlugin({ tools: [] })).toThrow(RecoveryPluginOptionsError);
  });
  test('a fake tool object { spec: 1 } is refused', () => {
    expect(() => new RecoveryPlugin({ tools: [{ spec: 1 } as never], config: {} })).toThrow(RecoveryPluginOptionsError);
  });
  test('config with a function-valued field is refused, not silently defaulted', () => {
    expect(() => new RecoveryPlugin({ tools: [good()], config: { budgets: { perCallRetries: (() => 9) as never } } as never })).toThrow(
      ConfigError,
    );
  });
  test('config with a symbol taskQueue is refused, not silently defaulted', () => {
    expect(() => new RecoveryPlugin({ tools: [good()], config: { taskQueue: Symbol('q') as never } as never })).toThrow(ConfigError);
  });
  test('config with a bigint is refused with ConfigError (not TypeError)', () => {
    expect(() => new RecoveryPlugin({ tools: [good()], config: { budgets: { perCallRetries: 3n as never } } as never })).toThrow(
      ConfigError,
    );
  });
  test('cyclic config object is refused with ConfigError (not TypeError)', () => {
    const c: Record<string, unknown> = { taskQueue: 5 };
    c.self = c;
    expect(() => new RecoveryPlugin({ tools: [good()], config: c as never })).toThrow(ConfigError);
  });
  test('NaN in config names NaN, not "null"', () => {
    let err: unknown;
    try {
      new RecoveryPlugin({ tools: [good()], config: { budgets: { perCallRetries: NaN } } as never });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).not.toMatch(/received null/);
  });
  test('config path that is a directory → ConfigError (not EISDIR)', () => {
    expect(() => new RecoveryPlugin({ tools: [good()], config: tmpdir() })).toThrow(ConfigError);
  });
});

describe('loadConfig / parseConfig', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rr-cfg-'));
  test('directory → ConfigError', () => {
    expect(() => loadConfig(dir)).toThrow(ConfigError);
  });
  test('empty-string path → ConfigError', () => {
    expect(() => loadConfig('')).toThrow(ConfigError);
  });
  test('UTF-8 BOM file is accepted (or refused with a clear message)', () => {
    const f = join(dir, 'bom.json');
    writeFileSync(f, '\ufeff{"taskQueue":"q"}');
    expect(loadConfig(f).taskQueue).toBe('q');
  });
  test('non-string text → ConfigError', () => {
    expect(() => parseConfig(undefined as never, 'x')).toThrow(ConfigError);
    expect(() => parseConfig(42 as never, 'x')).toThrow(ConfigError);
  });
  test('"__proto__" key at root is refused (strict) and does not pollute', () => {
    expect(() => parseConfig('{"__proto__":{"taskQueue":"evil"}}', 'x')).toThrow(ConfigError);
  });
  test('tools."__proto__" override is kept as data or refused, never becomes a prototype', () => {
    let cfg: ReturnType<typeof parseConfig> | undefined;
    try {
      cfg = parseConfig('{"tools":{"__proto__":{"budgets":{"perCallRetries":0}}}}', 'x');
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      return;
    }
    expect(Object.getPrototypeOf(cfg.tools)).toBe(Object.prototype);
    expect(Object.keys(cfg.tools)).toContain('__proto__');
  });
  test('duplicate keys are refused (silently last-wins today)', () => {
    expect(() => parseConfig('{"taskQueue":"a","taskQueue":"b"}', 'x')).toThrow(ConfigError);
  });
  test('1e400 → ConfigError', () => {
    expect(() => parseConfig('{"budgets":{"perCallRetries":1e400}}', 'x')).toThrow(ConfigError);
  });
  test('maxRetryAfterMs has an upper bound (an unbounded wait is refused)', () => {
    expect(() => parseConfig('{"backoff":{"maxRetryAfterMs":9007199254740991}}', 'x')).toThrow(ConfigError);
  });
});

describe('canonicalize / argsHash', () => {
  const typed = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      return isRecoveryInputError(e) ? (e as { code: string }).code : `UNTYPED ${(e as Error)?.name}`;
    }
    return 'no error';
  };
  test('cyclic, bigint, NaN, symbol, Map, deep → typed errors', () => {
    const c: Record<string, unknown> = {};
    c.c = c;
    expect(typed(() => argsHash(c))).toBe('not_json');
    expect(typed(() => argsHash({ a: 1n }))).toBe('not_json');
    expect(typed(() => argsHash({ a: NaN }))).toBe('not_json');
    expect(typed(() => argsHash({ a: Symbol('s') }))).toBe('not_json');
    expect(typed(() => argsHash(new Map()))).toBe('not_json');
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(typed(() => argsHash(deep))).toBe('limit_exceeded');
  });
  test('a throwing getter / throwing toJSON / hostile Proxy → typed error, not a raw Error', () => {
    const getter = Object.defineProperty({}, 'x', {
      enumerable: true,
      get() {
        throw new Error('boom at /srv/app/secret.ts:1');
      },
    });
    expect(typed(() => argsHash(getter))).toBe('not_json');
    expect(typed(() => argsHash({ toJSON: () => { throw new Error('boom'); } }))).toBe('not_json');
    const proxy = new Proxy({}, { ownKeys() { throw new Error('trap'); } });
    expect(typed(() => argsHash(proxy))).toBe('not_json');
  });
  test('equivalences: key order, -0, NFC/NFD, undefined key', () => {
    expect(argsHash({ a: 1, b: 2 })).toBe(argsHash({ b: 2, a: 1 }));
    expect(argsHash({ a: -0 })).toBe(argsHash({ a: 0 }));
    expect(argsHash({ s: 'caf\u00e9' })).toBe(argsHash({ s: 'cafe\u0301' }));
    expect(argsHash({ 'caf\u00e9': 1 })).toBe(argsHash({ 'cafe\u0301': 1 }));
    expect(argsHash({ a: 1, u: undefined })).toBe(argsHash({ a: 1 }));
  });
  test('lone surrogates hash deterministically and differently from U+FFFD', () => {
    expect(argsHash({ s: '\ud800' })).not.toBe(argsHash({ s: '\ufffd' }));
  });
  test('50 MB string hashes in bounded time (< 5 s)', () => {
    const t0 = Date.now();
    argsHash({ s: 'a'.repeat(50_000_000) });
    expect(Date.now() - t0).toBeLessThan(5_000);
  });
  test('wide object (200k keys) hashes in < 5 s', () => {
    const o: Record<string, number> = {};
    for (let i = 0; i < 200_000; i++) o[`k${i}`] = i;
    const t0 = Date.now();
    canonicalize(o);
    expect(Date.now() - t0).toBeLessThan(5_000);
  });
});

describe('routeFor / allowNextAttempt', () => {
  const f = {
    tool: 't',
    callId: 'c',
    class: 'transient',
    reason: 'unavailable',
    phase: 'dispatch',
    retryable: true,
    replaySafe: true,
    publicMessage: 'x',
    diagnosticRef: 'd',
  } as const;
  test('routeFor(null/garbage) → RecoveryInputError', () => {
    for (const bad of [null, undefined, 1, 'x', {}, { ...f, class: '__proto__' }, { ...f, extra: 1 }]) {
      let e: unknown;
      try {
        routeFor(bad as never);
      } catch (x) {
        e = x;
      }
      expect(isRecoveryInputError(e)).toBe(true);
    }
  });
  test('allowNextAttempt: NaN / -1 / 1.5 nowMs → typed', () => {
    const prev = { tool: 't', argsHash: argsHash({}), credentialVersion: 0, failure: f, endedAtMs: 0, earliestRetryAtMs: 10 };
    const cand = { tool: 't', argsHash: argsHash({}), credentialVersion: 0 };
    for (const now of [NaN, -1, 1.5, Infinity, '5']) {
      let e: unknown;
      try {
        allowNextAttempt(prev, cand, { kind: 'time_elapsed' }, now as never);
      } catch (x) {
        e = x;
      }
      expect(isRecoveryInputError(e)).toBe(true);
    }
    // -0 is accepted as 0, and is too early
    expect(allowNextAttempt(prev, cand, { kind: 'time_elapsed' }, -0).allowed).toBe(false);
  });
  test('forged evidence is not trusted', () => {
    const prev = { tool: 't', argsHash: argsHash({ a: 1 }), credentialVersion: 0, failure: { ...f, class: 'semantic_rejection', reason: 'conflict', retryable: false }, endedAtMs: 0 } as never;
    const cand = { tool: 't', argsHash: argsHash({ a: 1 }), credentialVersion: 0 };
    for (const ev of [{ kind: 'args_changed' }, { kind: 'time_elapsed' }, { kind: 'credential_refreshed' }, { kind: 'tool_changed' }, { kind: 'state_verified', externalState: 'not_applied' }]) {
      expect(allowNextAttempt(prev, cand, ev as never, 10 ** 12).allowed).toBe(false);
    }
  });
});

describe('nextDelay (Retry-After is a floor; never crash, zero or unbounded)', () => {
  const base = { retryNumber: 1, policy: DEFAULT_BACKOFF_POLICY, random: () => 0.5 };
  test.each([-1, NaN, Infinity, 1.5, '3000', null])('retryAfterMs=%p → typed error', (v) => {
    let e: unknown;
    try {
      nextDelay({ ...base, retryAfterMs: v as never });
    } catch (x) {
      e = x;
    }
    expect(isRecoveryInputError(e)).toBe(true);
  });
  test('huge Retry-After → give_up, not a wait', () => {
    expect(nextDelay({ ...base, retryAfterMs: Number.MAX_SAFE_INTEGER }).kind).toBe('give_up');
  });
  test('0 Retry-After → floor is still the exponential (no zero delay)', () => {
    const d = nextDelay({ ...base, retryAfterMs: 0 });
    expect(d.kind === 'wait' && d.delayMs >= 500).toBe(true);
  });
  test('retryNumber 1e9 → capped at maximumIntervalMs*(1+jitter)', () => {
    const d = nextDelay({ ...base, retryNumber: 1e9 });
    expect(d.kind === 'wait' && d.delayMs <= 12_000).toBe(true);
  });
  test('random() returning 1, -0.1, NaN, "0" → typed', () => {
    for (const r of [1, -0.1, NaN, '0']) {
      let e: unknown;
      try {
        nextDelay({ ...base, random: () => r as never });
      } catch (x) {
        e = x;
      }
      expect(isRecoveryInputError(e)).toBe(true);
    }
  });
  test('every delay is a safe integer even with an extreme (schema-valid) policy', () => {
    const policy = { ...DEFAULT_BACKOFF_POLICY, maxRetryAfterMs: Number.MAX_SAFE_INTEGER };
    const d = nextDelay({ retryNumber: 1, retryAfterMs: Number.MAX_SAFE_INTEGER, policy, random: () => 0.99 });
    expect(d.kind === 'wait' && Number.isSafeInteger(d.delayMs)).toBe(true);
  });
});

describe('budgets', () => {
  test('bad policies → typed', () => {
    for (const p of [null, 1, { perCallRetries: -1 }, { perCallRetries: '3' }, { perRunAttempts: 0 }, { extra: 1 }, { perCallRetries: NaN }]) {
      let e: unknown;
      try {
        startRun(p as never);
      } catch (x) {
        e = x;
      }
      expect(isRecoveryInputError(e)).toBe(true);
    }
  });
  test('spend with kind __proto__/constructor → typed', () => {
    const l = startTurn(startRun());
    for (const k of ['__proto__', 'constructor', 'toString']) {
      let e: unknown;
      try {
        spend(l, k as never);
      } catch (x) {
        e = x;
      }
      expect(isRecoveryInputError(e)).toBe(true);
    }
  });
  test('restarting a call key or restoring a forged ledger cannot reset counters', () => {
    let l = startCall(startTurn(startRun({ perCallRepairs: 1 })), 'k');
    l = spend(l, 'repair', 'k').ledger;
    expect(spend(l, 'repair', 'k').allowed).toBe(false);
    expect(() => startCall(l, 'k')).toThrow();
    // a restored ledger with negative counts is refused
    const forged = JSON.parse(JSON.stringify(l));
    forged.calls[0].repairs = -5;
    expect(() => restoreLedger(forged)).toThrow();
  });
  test('__proto__ as a call key is ordinary', () => {
    let l = startCall(startTurn(startRun({ perCallRepairs: 1 })), '__proto__');
    l = spend(l, 'repair', '__proto__').ledger;
    expect(spend(restoreLedger(JSON.parse(JSON.stringify(l))), 'repair', '__proto__').allowed).toBe(false);
  });
});

describe('classify with hostile raw outcomes', () => {
  const ctx = { tool: 't', callId: 'c', effect: 'read' as const, deduplicates: false, approvalCanLift: false, nowMs: 1_700_000_000_000, diagnosticRef: 'd' };
  const hostile = new Proxy(
    {},
    {
      get() {
        throw new Error('trap get');
      },
      ownKeys() {
        throw new Error('trap keys');
      },
      getPrototypeOf() {
        throw new Error('trap proto');
      },
    },
  );
  test('never throws on hostile bodies/headers/errors', () => {
    const raws = [
      { kind: 'http', status: 503, headers: hostile, body: hostile },
      { kind: 'http', status: 429, headers: { get: () => { throw new Error('x'); } }, body: '{'.repeat(100_000) },
      { kind: 'http', status: 422, headers: {}, body: JSON.stringify({ errors: Array.from({ length: 100_000 }, (_, i) => ({ field: `f${i}`, message: 'x'.repeat(1000) })) }) },
      { kind: 'thrown', error: hostile },
      { kind: 'thrown', error: (() => { const e: Record<string, unknown> = {}; e.cause = e; return e; })() },
      { kind: 'http', status: 1e308, headers: {}, body: null },
      { kind: 'http', status: 429, headers: { 'retry-after': '9'.repeat(5000) }, body: '' },
      { kind: 'http', status: 429, headers: { 'retry-after': '-5' }, body: '' },
      { kind: 'http', status: 429, headers: { 'retry-after': 'Wed, 31 Dec 275760 23:59:59 GMT' }, body: '' },
      { kind: 'http', status: 429, headers: { 'retry-after': 'NaN' }, body: '' },
      { kind: 'http', status: 429, headers: { 'retry-after': ['1', '2'] }, body: '' },
      { kind: 'http', status: 429, headers: { 'x-ratelimit-reset': '99999999999999999999999', 'x-ratelimit-remaining': '0' }, body: '' },
      { kind: 'http', status: 429, headers: { 'x-ratelimit-reset-requests': '9'.repeat(400) + 'h', 'x-ratelimit-remaining-requests': '0' }, body: '' },
    ];
    for (const raw of raws) {
      const t0 = Date.now();
      const f = classify(raw as never, ctx);
      expect(Date.now() - t0).toBeLessThan(2_000);
      expect(f.publicMessage.length).toBeLessThanOrEqual(500);
      if (f.retryAfterMs !== undefined) expect(Number.isSafeInteger(f.retryAfterMs)).toBe(true);
    }
  });
  test('bad ctx / bad raw → ClassifyError (typed)', () => {
    for (const [raw, c] of [
      [null, ctx],
      [{ kind: 'http', status: 500, headers: {} }, { ...ctx, nowMs: -1 }],
      [{ kind: 'http', status: 500, headers: {} }, null],
      [{ kind: 'http', status: 200, headers: {} }, ctx],
    ] as const) {
      expect(() => classify(raw as never, c as never)).toThrow(expect.objectContaining({ name: 'ClassifyError' }));
    }
  });
});
