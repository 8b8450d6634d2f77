/**
 * The tool activity under faults nobody listed (issue 27): whatever a tool throws or returns after its request may
 * have left, the activity answers with a shaped failure (no stack), and a write that may have been applied is
 * `outcome_unknown` — never a tool bug — while a committed write whose result cannot travel succeeds as applied.
 * Through the real `invokeTool` under `MockActivityEnvironment`; no server.
 */
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import type { MockActivityEnvironment } from '@temporalio/testing';
import { activityEnv } from '../fixtures/activity-env';
import { z } from 'zod';
import { defineTool, type AnyTool } from '../../activities/define-tool';
import { createToolActivities, type ToolInvocationResult } from '../../activities/invoke-tool';
import { DEFAULT_BACKOFF_POLICY } from '../../recovery/backoff';
import { MAX_RESULT_BYTES } from '../../recovery/bounds';
import type { ToolFailure } from '../../recovery/failure';
import { routeFor } from '../../recovery/routes';

const silent = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };

function tool(effect: 'read' | 'write', execute: AnyTool['execute'], more: Partial<AnyTool> = {}): AnyTool {
  return defineTool({
    name: effect === 'write' ? 'pay' : 'get_balance',
    description: 'A tool under test.',
    input: z.object({}),
    output: z.unknown(),
    effect,
    ...(effect === 'write' ? { idempotency: { carrier: 'header', deduplicates: false } } : {}),
    ...more,
    execute,
  } as Parameters<typeof defineTool>[0]);
}

interface Ran {
  result?: ToolInvocationResult;
  failure?: ToolFailure;
  error?: unknown;
  ms: number;
}

async function run(t: AnyTool, info: Record<string, unknown> = {}, during?: (env: MockActivityEnvironment) => void) {
  const { invokeTool } = createToolActivities({ tools: [t], backoff: DEFAULT_BACKOFF_POLICY });
  const env = activityEnv({ activityId: 'act-1', ...info }, { logger: silent });
  const started = Date.now();
  const pending = env.run(invokeTool, { tool: t.name, args: {}, callId: 'call-1', operationId: 'wf:step' });
  during?.(env);
  const out: Ran = { ms: 0 };
  try {
    out.result = (await pending) as ToolInvocationResult;
  } catch (err) {
    out.error = err;
    if (err instanceof ApplicationFailure) out.failure = (err.details as [ToolFailure])[0];
  }
  out.ms = Date.now() - started;
  return out;
}

/** A revoked Proxy: every read of it throws a TypeError. */
function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

const NON_ERRORS: [string, () => unknown][] = [
  ['null', () => null],
  ['undefined', () => undefined],
  ['a string', () => 'boom'],
  ['a number', () => 42],
  ['a Symbol', () => Symbol('x')],
  ['a revoked Proxy', revoked],
  [
    'an object whose getters throw',
    () =>
      Object.defineProperties(
        {},
        {
          message: {
            get: () => {
              throw new Error('getter');
            },
          },
          name: {
            get: () => {
              throw new Error('getter');
            },
          },
          cause: {
            get: () => {
              throw new Error('getter');
            },
          },
        },
      ),
  ],
  ['an object with no prototype', () => Object.create(null) as object],
];

describe('activity edge: a write that committed and then threw something that is not an Error', () => {
  it.each(NON_ERRORS)(
    'activity edge: write throws %s after commit → outcome_unknown, reconcile, no stack',
    async (_n, make) => {
      let rows = 0;
      const r = await run(
        tool('write', async () => {
          rows += 1;
          throw make();
        }),
      );
      expect(rows).toBe(1);
      expect(r.error).toBeInstanceOf(ApplicationFailure);
      expect((r.error as ApplicationFailure).stack).toBe('');
      expect(r.failure).toMatchObject({
        class: 'outcome_unknown',
        phase: 'commit_unknown',
        retryable: false,
        replaySafe: false,
      });
      expect(routeFor(r.failure!).action).toBe('reconcile');
      expect((r.error as ApplicationFailure).nonRetryable).toBe(true);
    },
  );

  it.each(NON_ERRORS)(
    'activity edge: read throws %s → a shaped failure, never a crash of the edge',
    async (_n, make) => {
      const r = await run(
        tool('read', async () => {
          throw make();
        }),
      );
      expect(r.error).toBeInstanceOf(ApplicationFailure);
      expect(r.failure).toMatchObject({ class: 'unrecoverable', reason: 'unrecognized', replaySafe: true });
      expect(r.failure?.fingerprint).toMatch(/^fp_[0-9a-f]{12}$/);
    },
  );
});

describe('activity edge: a cause chain that loops', () => {
  const looping = (): Error => {
    const e = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    (e as { cause?: unknown }).cause = e;
    return e;
  };
  const twoLoop = (): Error => {
    const a = Object.assign(new Error('a'), { code: 'ECONNRESET' });
    const b = new Error('b', { cause: a });
    (a as { cause?: unknown }).cause = b;
    return a;
  };
  it.each([
    ['cause = itself', looping],
    ['a → b → a', twoLoop],
  ])('activity edge: ECONNRESET with %s on a write → outcome_unknown/network (no RangeError)', async (_n, make) => {
    const r = await run(
      tool('write', async () => {
        throw make();
      }),
    );
    expect(r.failure).toMatchObject({ class: 'outcome_unknown', reason: 'network', phase: 'commit_unknown' });
  });
});

describe('activity edge: a committed write whose result cannot be carried back', () => {
  const circular = () => {
    const o: Record<string, unknown> = { id: 'pay_1' };
    o.self = o;
    return o;
  };
  it.each([
    ['3 MB', () => ({ blob: 'x'.repeat(3 * 1024 * 1024) }), 'over the'],
    ['5 MB', () => ({ blob: 'y'.repeat(5 * 1024 * 1024) }), 'over the'],
    ['a circular object', circular, 'cycle'],
  ])('activity edge: write returns %s → succeeds as applied, the value a marker', async (_n, make, why) => {
    let rows = 0;
    const r = await run(
      tool('write', async () => {
        rows += 1;
        return make();
      }),
    );
    expect(rows).toBe(1);
    expect(r.error).toBeUndefined();
    expect(r.result?.value).toMatchObject({ omitted: true, applied: true });
    expect((r.result?.value as { why: string }).why).toContain(why);
    expect((r.result?.value as { note: string }).note).toBe(
      'The write was applied; only its result could not be carried back. Do not repeat it.',
    );
    expect(JSON.stringify(r.result).length).toBeLessThan(1_000);
  });

  it('activity edge: a BigInt in a result (a bigint column) travels as its decimal string', async () => {
    const r = await run(tool('write', async () => ({ id: 12345678901234567890n, rows: 1 })));
    expect(r.result?.value).toEqual({ id: '12345678901234567890', rows: 1 });
  });

  it(`activity edge: a read whose result is over ${MAX_RESULT_BYTES} bytes → invalid_result/result_too_large, reject`, async () => {
    const r = await run(tool('read', async () => ({ blob: 'z'.repeat(MAX_RESULT_BYTES) })));
    expect(r.failure).toMatchObject({ class: 'invalid_result', reason: 'result_too_large', replaySafe: true });
    expect(routeFor(r.failure!).action).toBe('reject');
    expect(r.failure?.publicMessage).toBe(
      `get_balance: the result could not be carried back: it is ${MAX_RESULT_BYTES + 11} bytes, over the ${MAX_RESULT_BYTES}-byte limit a result may carry. Ask for less (a filter, a smaller page).`,
    );
  });
});

describe('activity edge: a tool that never settles', () => {
  const never = () => new Promise<never>(() => undefined);

  it('activity edge: a write that never settles ends at its deadline (StartToClose 300 ms) → outcome_unknown/interrupted, its signal aborted', async () => {
    // On jest's fake clock: the deadline fires at exactly 300 ms of it, whatever the machine's load.
    jest.useFakeTimers();
    try {
      let signal: AbortSignal | undefined;
      let ended = false;
      const ran = run(
        tool('write', async (_a, ctx) => {
          signal = ctx.signal;
          return never();
        }),
        { startToCloseTimeoutMs: 300, scheduleToCloseTimeoutMs: 0 },
      ).finally(() => (ended = true));
      await jest.advanceTimersByTimeAsync(299);
      expect([ended, signal?.aborted]).toEqual([false, false]);
      await jest.advanceTimersByTimeAsync(1);
      const r = await ran;
      expect(r.failure).toMatchObject({ class: 'outcome_unknown', reason: 'interrupted', phase: 'commit_unknown' });
      expect(r.failure?.publicMessage).toBe(
        'pay: the attempt was interrupted because it ran past its time limit after the write was sent; it may or may not have been applied. Check its status before any new attempt.',
      );
      expect(signal?.aborted).toBe(true);
      expect(r.ms).toBe(300);
    } finally {
      jest.useRealTimers();
    }
  });

  it('activity edge: a read that never settles ends at its deadline → transient/interrupted, retryable', async () => {
    const r = await run(tool('read', never), { startToCloseTimeoutMs: 300, scheduleToCloseTimeoutMs: 0 });
    expect(r.failure).toMatchObject({ class: 'transient', reason: 'interrupted', retryable: true });
    expect((r.error as ApplicationFailure).nonRetryable).toBe(false);
  });

  it('activity edge: a worker shutdown during a write → outcome_unknown/interrupted (the row may exist), not a tool bug', async () => {
    const r = await run(tool('write', never), { startToCloseTimeoutMs: 60_000 }, (env) =>
      setTimeout(() => env.cancel('WORKER_SHUTDOWN' as never), 50),
    );
    expect(r.failure).toMatchObject({ class: 'outcome_unknown', reason: 'interrupted' });
    expect(r.failure?.publicMessage).toContain('because the worker running it shut down after the write was sent');
  });

  it('activity edge: a worker shutdown that makes the tool throw AbortError → outcome_unknown/interrupted', async () => {
    const r = await run(
      tool(
        'write',
        (_a, ctx) =>
          new Promise((_r, reject) =>
            ctx.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
          ),
      ),
      { startToCloseTimeoutMs: 60_000 },
      (env) => setTimeout(() => env.cancel('WORKER_SHUTDOWN' as never), 50),
    );
    expect(r.failure).toMatchObject({ class: 'outcome_unknown', reason: 'interrupted' });
  });

  it('activity edge: a cancellation the workflow asked for is confirmed as the SDK CancelledFailure', async () => {
    const r = await run(tool('write', never), { startToCloseTimeoutMs: 60_000 }, (env) =>
      setTimeout(() => env.cancel('CANCELLED' as never), 50),
    );
    expect(r.error).toBeInstanceOf(CancelledFailure);
    expect(r.failure).toBeUndefined();
  });
});
