/**
 * One dispatch of a call, around the `invokeTool` activity: what it sends, the attempts it counts, the failure it
 * hands back as data. Pure unit tests: no workers, no servers; the activity's answers and errors are built as
 * Temporal delivers them (an `ActivityFailure` around the edge's `ApplicationFailure`), workflow time is jest's clock.
 */
import {
  ActivityFailure,
  ApplicationFailure,
  CancelledFailure,
  RetryState,
  TimeoutFailure,
  TimeoutType,
} from '@temporalio/common';
import { lastFailure } from '../../recovery/call-ledger';
import type { ToolFailure } from '../../recovery/failure';
import { dedupWrite, failure, readyScope, routerContext, spec, state } from '../../test/fixtures/router';
import { dispatched, dispatchFailed, recordAttempt, startDispatch } from './dispatch';

/** Temporal's `patched`, answered by `patchedNow` and recorded in `patchIds` (it needs a workflow context). */
const patchIds: string[] = [];
let patchedNow = true;
jest.mock('@temporalio/workflow', () => ({
  ...jest.requireActual('@temporalio/workflow'),
  patched: (id: string) => (patchIds.push(id), patchedNow),
}));

beforeEach(() => {
  jest.useFakeTimers({ now: 50_000 });
  patchIds.length = 0;
  patchedNow = true;
});
afterEach(() => jest.useRealTimers());

/** What `await invokeTool(...)` throws for a failure the activity edge shaped. */
const thrown = (f: ToolFailure, meta: Record<string, unknown> = {}) =>
  new ActivityFailure(
    'activity failed',
    'invokeTool',
    '1',
    RetryState.NON_RETRYABLE_FAILURE,
    undefined,
    ApplicationFailure.create({ type: f.class, message: f.publicMessage, nonRetryable: true, details: [f, meta] }),
  );

const oneShotWrite = dedupWrite({
  name: 'pay',
  idempotency: { carrier: 'header', name: 'Idempotency-Key', deduplicates: false },
});

describe('startDispatch', () => {
  it('dispatch: a first dispatch sends the call’s tool, arguments and ids, and counts one activity', () => {
    const ctx = routerContext([spec()]);
    ctx.st.credentialVersions = { get_order: 2 };
    const scope = readyScope(spec(), { id: 'o-1' }, { activities: 0 });
    expect(startDispatch(ctx, scope)).toEqual({
      input: { tool: 'get_order', args: { id: 'o-1' }, callId: 'c1', operationId: 'wf-1:s1' },
      used: { credentialVersion: 2, grantVersion: 0 },
    });
    expect(scope.activities).toBe(1);
  });

  it('dispatch: the replay after a refresh sends the refreshed version and asks for no second refresh', () => {
    const ctx = routerContext([spec()]);
    ctx.st.credentialVersions = { get_order: 3 };
    const { input } = startDispatch(ctx, readyScope(spec(), { id: 'o-1' }, { reauthed: true }));
    expect(input).toMatchObject({ refreshOnAuthFailure: false, credentialVersion: 3 });
  });

  it('dispatch: a call a person approved carries its grant', () => {
    const ctx = routerContext([spec()]);
    const approval = { by: 'ana', reason: 'ok', at: '2026-12-06T00:00:00Z' } as never;
    expect(startDispatch(ctx, readyScope(spec(), {}, { approval })).input).toMatchObject({ approval });
  });
});

describe('dispatched', () => {
  it('dispatch: a first-attempt answer is the value, nothing recovered, nothing spent', () => {
    const ctx = routerContext([spec()]);
    const scope = readyScope(spec(), {}, { attempts: 0 });
    expect(dispatched(ctx, scope, { value: { total: 3 }, attempt: 1 })).toEqual({ ok: true, value: { total: 3 } });
    expect(scope.attempts).toBe(1);
    expect(scope.recovered).toBeUndefined();
    expect(ctx.st.budgets.calls).toEqual([{ key: 's1', retries: 0, repairs: 0 }]);
  });

  it('dispatch: an answer at Temporal’s third attempt spends 2 retries and records the first failure’s class as recovered', () => {
    const ctx = routerContext([spec()]);
    const scope = readyScope(spec(), {}, { attempts: 0 });
    const result = {
      value: 'ok',
      attempt: 3,
      credentialVersion: 4,
      retriedAfter: { class: 'transient', reason: 'rate_limited' },
    } as const;
    expect(dispatched(ctx, scope, result as never)).toEqual({ ok: true, value: 'ok' });
    expect(scope.attempts).toBe(3);
    expect(ctx.st.budgets.calls).toEqual([{ key: 's1', retries: 2, repairs: 0 }]);
    expect(ctx.st.credentialVersions).toEqual({ get_order: 4 });
    expect(scope.recovered?.action).toBe('retry');
    expect(scope.recovered?.failure).toMatchObject({
      class: 'transient',
      reason: 'rate_limited',
      phase: 'dispatch',
      publicMessage: 'Retried by Temporal.',
    });
  });

  it('dispatch: a retried answer from a worker that did not carry the first failure reads transient/unspecified', () => {
    const ctx = routerContext([spec()]);
    const scope = readyScope(spec());
    dispatched(ctx, scope, { value: 1, attempt: 2 } as never);
    expect(scope.recovered?.failure).toMatchObject({ class: 'transient', reason: 'unspecified' });
  });
});

describe('dispatchFailed', () => {
  it('dispatch: the edge’s failure comes back as it was shaped, with its facts, the versions used and the end time', () => {
    const ctx = routerContext([spec()]);
    const scope = readyScope(spec(), {}, { attempts: 0 });
    const started = startDispatch(ctx, scope);
    const f = failure({ class: 'invalid_arguments', reason: 'schema', phase: 'preflight', retryable: false });
    const out = dispatchFailed(ctx, scope, started, thrown(f, { attempt: 2, credentialVersion: 5 }));
    expect(out).toEqual({
      ok: false,
      attempt: {
        failure: f,
        meta: { attempt: 2, credentialVersion: 5 },
        versions: { credentialVersion: 0, grantVersion: 0 },
        endedAtMs: 50_000,
      },
    });
    expect(scope.attempts).toBe(2);
    expect(ctx.st.budgets.calls).toEqual([{ key: 's1', retries: 1, repairs: 0 }]);
    expect(ctx.st.credentialVersions).toEqual({ get_order: 5 });
  });

  it('dispatch: a 409 answering a write’s re-execution under the same key may mean it landed → outcome_unknown', () => {
    const ctx = routerContext([oneShotWrite]);
    const scope = readyScope(oneShotWrite, {}, { activities: 1 });
    const started = startDispatch(ctx, scope);
    const conflict = failure({ tool: 'pay', class: 'semantic_rejection', reason: 'conflict', retryable: false });
    const out = dispatchFailed(ctx, scope, started, thrown(conflict));
    expect(out.ok ? undefined : out.attempt.failure).toEqual({
      ...conflict,
      class: 'outcome_unknown',
      phase: 'commit_unknown',
      retryable: false,
      replaySafe: false,
      publicMessage:
        'A repeat of this write was refused as a duplicate of its idempotency key: the first one may have been applied.',
    });
    // One fact: the call is maybe-applied, as after a lost answer, so a later failure is that unknown outcome too.
    expect(scope.maybeApplied).toBe(true);
    expect(patchIds).toEqual(['recovery-router:may-have-applied']);
  });

  it('dispatch: the same 409 on a write whose receiver deduplicates by the key → outcome_unknown, replay-safe', () => {
    const write = dedupWrite();
    const ctx = routerContext([write]);
    const scope = readyScope(write, {}, { activities: 1 });
    const started = startDispatch(ctx, scope);
    const conflict = failure({ tool: 'refund', class: 'semantic_rejection', reason: 'conflict', retryable: false });
    const out = dispatchFailed(ctx, scope, started, thrown(conflict));
    expect(out.ok ? undefined : out.attempt.failure).toEqual({
      ...conflict,
      class: 'outcome_unknown',
      phase: 'commit_unknown',
      retryable: false,
      replaySafe: true,
      publicMessage:
        'A repeat of this write was refused as a duplicate of its idempotency key: the first one may have been applied.',
    });
    expect(scope.maybeApplied).toBe(true);
    expect(new Set(patchIds)).toEqual(new Set(['recovery-router:may-have-applied']));
  });

  it('dispatch: the same on a run recorded before the fact was one → not replay-safe and not maybe-applied, as recorded', () => {
    patchedNow = false;
    const write = dedupWrite();
    const ctx = routerContext([write]);
    const scope = readyScope(write, {}, { activities: 1 });
    const precondition = failure({ tool: 'refund', class: 'semantic_rejection', reason: 'precondition_failed' });
    const out = dispatchFailed(ctx, scope, startDispatch(ctx, scope), thrown({ ...precondition, retryable: false }));
    expect(out.ok ? undefined : out.attempt.failure).toMatchObject({ class: 'outcome_unknown', replaySafe: false });
    expect(scope.maybeApplied).toBeUndefined();
  });

  it('dispatch: a 409 to a write’s first dispatch stays a conflict (semantic_rejection)', () => {
    const ctx = routerContext([oneShotWrite]);
    const scope = readyScope(oneShotWrite, {}, { activities: 0 });
    const started = startDispatch(ctx, scope);
    const conflict = failure({ tool: 'pay', class: 'semantic_rejection', reason: 'conflict', retryable: false });
    const out = dispatchFailed(ctx, scope, started, thrown(conflict));
    expect(out.ok ? undefined : out.attempt.failure).toEqual(conflict);
    expect(scope.maybeApplied).toBeUndefined();
  });

  it('dispatch: a write’s commit_unknown failure marks the call maybe-applied; a read’s does not', () => {
    const unknown = failure({ class: 'outcome_unknown', reason: 'timeout', phase: 'commit_unknown', retryable: false });
    const write = readyScope(oneShotWrite);
    dispatchFailed(
      routerContext([oneShotWrite]),
      write,
      startDispatch(routerContext([oneShotWrite]), write),
      thrown(unknown),
    );
    expect(write.maybeApplied).toBe(true);
    const read = readyScope(spec());
    dispatchFailed(routerContext([spec()]), read, startDispatch(routerContext([spec()]), read), thrown(unknown));
    expect(read.maybeApplied).toBeUndefined();
  });

  it('dispatch: a StartToClose timeout of a write that is not replay-safe is an unknown outcome, never a retry', () => {
    const ctx = routerContext([oneShotWrite]);
    const scope = readyScope(oneShotWrite);
    const timeout = new ActivityFailure(
      'timed out',
      'invokeTool',
      '1',
      RetryState.TIMEOUT,
      undefined,
      new TimeoutFailure('t', undefined, TimeoutType.START_TO_CLOSE),
    );
    const out = dispatchFailed(ctx, scope, startDispatch(ctx, scope), timeout);
    expect(out.ok ? undefined : out.attempt.failure).toMatchObject({
      class: 'outcome_unknown',
      reason: 'timeout',
      retryable: false,
      replaySafe: false,
    });
  });

  it('dispatch: a read that timed out on every attempt is transient, not retried again here', () => {
    const ctx = routerContext([spec()]);
    const scope = readyScope(spec());
    const timeout = new ActivityFailure(
      'timed out',
      'invokeTool',
      '1',
      RetryState.TIMEOUT,
      undefined,
      new TimeoutFailure('t', undefined, TimeoutType.START_TO_CLOSE),
    );
    const out = dispatchFailed(ctx, scope, startDispatch(ctx, scope), timeout);
    expect(out.ok ? undefined : out.attempt.failure).toMatchObject({
      class: 'transient',
      reason: 'timeout',
      retryable: false,
      publicMessage: expect.stringMatching(/^The tool "get_order" .* on every allowed attempt\.$/),
    });
  });

  it('dispatch: a cancellation is not a failure of the call: it is thrown on', () => {
    const ctx = routerContext([spec()]);
    const scope = readyScope(spec());
    const cancelled = new CancelledFailure('cancelled');
    expect(() => dispatchFailed(ctx, scope, startDispatch(ctx, scope), cancelled)).toThrow(cancelled);
  });
});

describe('recordAttempt', () => {
  it('dispatch: the failed attempt is what the gate reads next, with the earliest retry when one was scheduled', () => {
    const ctx = routerContext([spec()], { st: state({}, ['s1']) });
    const scope = readyScope(spec());
    const f = failure();
    const attempt = { failure: f, meta: {}, versions: { credentialVersion: 1, grantVersion: 0 }, endedAtMs: 40_000 };
    recordAttempt(ctx, scope, attempt, f, 42_000);
    expect(lastFailure(ctx.st.calls, 'get_order', scope.hash)).toEqual({
      tool: 'get_order',
      argsHash: scope.hash,
      credentialVersion: 1,
      grantVersion: 0,
      failure: f,
      endedAtMs: 40_000,
      earliestRetryAtMs: 42_000,
    });
  });
});
