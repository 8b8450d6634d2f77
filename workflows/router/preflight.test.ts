/**
 * A call before anything is dispatched: the capability check, the arguments' hash and operation_id, and the
 * Change-before-Retry gate. Pure unit tests: no workers, no servers; workflow time is jest's clock. The steps that
 * end the call (`routed`: a workflow log line and sink calls) need a workflow context and run in the Temporal tier
 * (test/temporal/routing.test.ts, cases.test.ts).
 */
import { lastFailure, recordFailure } from '../../recovery/call-ledger';
import { argsHash } from '../../recovery/canonical';
import type { ToolFailure } from '../../recovery/failure';
import type { CallScope, ReadyScope, RouterContext } from './context';
import { failure, readyScope, routerContext, spec } from '../../test/fixtures/router';
import { allowAgain, checkCapability, gate, hashArguments } from './preflight';

beforeEach(() => jest.useFakeTimers({ now: 100_000 }));
afterEach(() => jest.useRealTimers());

const order = spec({
  inputSchema: { type: 'object', properties: { id: { type: 'string' }, note: { type: 'string' } } },
});

/** A scope as `openCall` leaves it: no spec, no hash, the step's first operation id. */
function opened(args: unknown): CallScope & { spec: typeof order } {
  const { hash: _hash, ...scope } = readyScope(order, args);
  return { ...scope, operationId: 'wf-1:s1', spec: order };
}

function failed(
  ctx: RouterContext,
  scope: ReadyScope,
  f: ToolFailure,
  more: { credentialVersion?: number; earliestRetryAtMs?: number } = {},
) {
  ctx.st.calls = recordFailure(ctx.st.calls, {
    tool: scope.name,
    argsHash: scope.hash,
    credentialVersion: more.credentialVersion ?? 0,
    grantVersion: 0,
    failure: f,
    endedAtMs: 90_000,
    ...(more.earliestRetryAtMs === undefined ? {} : { earliestRetryAtMs: more.earliestRetryAtMs }),
  });
}

describe('checkCapability', () => {
  it('preflight: a catalogued, permitted tool passes, its spec set, the unknown-tool streak ended', () => {
    const ctx = routerContext([order]);
    ctx.st.unknownToolTurns = { count: 1, lastTurn: 1 };
    const { spec: _spec, hash: _hash, ...rest } = readyScope(order);
    const scope: CallScope = rest;
    expect(checkCapability(ctx, scope)).toBeUndefined();
    expect(scope.spec).toBe(order);
    expect(ctx.st.unknownToolTurns).toEqual({ count: 0, lastTurn: 0 });
  });
});

describe('hashArguments (a read)', () => {
  it('preflight: the hash covers what the schema keeps; fields it strips never reach the activity', () => {
    const ctx = routerContext([order]);
    const scope = opened({ id: 'o-1', note: 'n', injected: 'dropped' });
    expect(hashArguments(ctx, scope)).toBeUndefined();
    expect(scope.hash).toBe(argsHash({ id: 'o-1', note: 'n' }));
    expect(scope.args).toEqual({ id: 'o-1', note: 'n' });
    expect(scope.operationId).toBe('wf-1:s1');
  });

  it('preflight: the n-th different arguments of a step take `~n`; the first ones again keep the first key', () => {
    const ctx = routerContext([order]);
    const ids = [{ id: 'a' }, { id: 'b' }, { id: 'a' }, { id: 'c' }].map((args) => {
      const scope = opened(args);
      hashArguments(ctx, scope);
      return scope.operationId;
    });
    expect(ids).toEqual(['wf-1:s1', 'wf-1:s1~2', 'wf-1:s1', 'wf-1:s1~3']);
    expect(ctx.st.stepArgs).toEqual({ s1: [argsHash({ id: 'a' }), argsHash({ id: 'b' }), argsHash({ id: 'c' })] });
  });
});

describe('gate', () => {
  it('preflight: a call with no failure on record passes, judged by nobody (no guardrail span)', () => {
    const ctx = routerContext([order]);
    const scope = readyScope(order);
    expect(gate(ctx, scope)).toBeUndefined();
    expect(scope.traceSteps).toBeUndefined();
    expect(scope.evidence).toBeUndefined();
  });

  it('preflight: the same call after a 401 runs again once the credential version grew (credential_refreshed)', () => {
    const ctx = routerContext([order]);
    const scope = readyScope(order);
    failed(ctx, scope, failure({ class: 'authentication', reason: 'credential_expired', retryable: false }), {
      credentialVersion: 1,
    });
    ctx.st.credentialVersions = { get_order: 2 };
    expect(gate(ctx, scope)).toBeUndefined();
    expect(scope.evidence).toBe('credential_refreshed');
    expect(
      scope.traceSteps!.map((s) => [
        s.name,
        s.attributes['gen_ai.security.decision.type'],
        s.attributes['recovery_router.action'],
      ]),
    ).toEqual([['apply_guardrail change_before_retry', 'allow', 'reauth']]);
  });

  it('preflight: the same call after a 503 runs again once its earliest retry time has come (time_elapsed)', () => {
    const ctx = routerContext([order]);
    const scope = readyScope(order);
    failed(ctx, scope, failure(), { earliestRetryAtMs: 100_000 });
    expect(gate(ctx, scope)).toBeUndefined();
    expect(scope.evidence).toBe('time_elapsed');
  });

  it('preflight: other arguments of the same tool are another call: the gate has nothing on them', () => {
    const ctx = routerContext([order]);
    failed(
      ctx,
      readyScope(order, { id: 'a' }),
      failure({ class: 'invalid_arguments', reason: 'schema', retryable: false }),
    );
    const other = readyScope(order, { id: 'b' });
    expect(gate(ctx, other)).toBeUndefined();
    expect(other.traceSteps).toBeUndefined();
  });
});

describe('allowAgain', () => {
  it('preflight: a re-execution with nothing on record is allowed', () => {
    const ctx = routerContext([order]);
    expect(allowAgain(ctx, readyScope(order))).toBe(true);
  });

  it('preflight: a re-execution after a person’s approval of this exact call is allowed (approval_granted)', () => {
    const ctx = routerContext([order]);
    const scope = readyScope(order);
    failed(ctx, scope, failure({ class: 'authorization', reason: 'approval_required', retryable: false }));
    ctx.st.grants = { [`get_order|${scope.hash}`]: 1 };
    expect(allowAgain(ctx, scope)).toBe(true);
    expect(scope.evidence).toBe('approval_granted');
    expect(lastFailure(ctx.st.calls, 'get_order', scope.hash)?.failure.reason).toBe('approval_required');
  });
});
