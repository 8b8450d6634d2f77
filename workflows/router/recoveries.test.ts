/**
 * The effects loop (./recoveries.ts): the steps that end in "run again" or wait for a person, without a workflow
 * API. Pure unit tests: no workers, no servers; the approval desk is the fake the context injects. The
 * loop's other ends (`routed`/`succeed` write the record through Temporal's logger and sinks), the retry's
 * `sleep`, the reconciliation's child workflow and `patched` need a workflow context: the Temporal tier runs them
 * (test/temporal/approval-lifecycle.test.ts, reconcile*.test.ts, breaker-and-secrets.test.ts,
 * already-satisfied.test.ts).
 */
import { lastFailure } from '../../recovery/call-ledger';
import { desk, failure, readyScope, routerContext, spec } from '../../test/fixtures/router';
import type { FailedAttempt } from './dispatch';
import { recover, WRITE_RETRIES_PATCH } from './recoveries';

beforeEach(() => jest.useFakeTimers({ now: 200_000 }));
afterEach(() => jest.useRealTimers());

const order = spec({ approvalCanLift: true });
const attemptOf = (f: ReturnType<typeof failure>, more: Partial<FailedAttempt> = {}): FailedAttempt => ({
  failure: f,
  meta: {},
  versions: { credentialVersion: 1, grantVersion: 0 },
  endedAtMs: 190_000,
  ...more,
});

it('recoveries: the write-retries patch id is the one recorded histories carry', () => {
  expect(WRITE_RETRIES_PATCH).toBe('recovery-router:write-retries-in-workflow');
});

describe('recover: reauth', () => {
  it('recoveries: a 401 after the broker refreshed (version 1 → 2) → run again once, recorded as recovered by reauth', async () => {
    const ctx = routerContext([order]);
    ctx.st.credentialVersions = { get_order: 2 };
    const scope = readyScope(order);
    const expired = failure({ class: 'authentication', reason: 'credential_expired', retryable: false });
    await expect(recover(ctx, scope, attemptOf(expired))).resolves.toEqual({ kind: 'again' });
    expect(scope.reauthed).toBe(true);
    expect(scope.recovered).toEqual({ failure: expired, action: 'reauth' });
    expect(scope.evidence).toBe('credential_refreshed');
    expect(lastFailure(ctx.st.calls, 'get_order', scope.hash)).toMatchObject({
      credentialVersion: 1,
      failure: expired,
    });
    expect(scope.activities).toBe(1);
  });
});

describe('recover: request_approval', () => {
  const grant = { by: 'ana', reason: 'refund ok', signed: false, via: 'update' as const, approved: true };
  const forbidden = failure({
    class: 'authorization',
    reason: 'approval_required',
    retryable: false,
    publicMessage: 'get_order: HTTP 403.',
    serverSaid: 'needs a manager',
  });

  it('recoveries: a 403 a person can lift → one request bound to these arguments; approved → run again with the grant', async () => {
    const { approvals, asked } = desk({ kind: 'approved', grant });
    const ctx = routerContext([order], { approvals });
    const scope = readyScope(order, { id: 'o-1' });
    const next = await recover(ctx, scope, attemptOf(forbidden, { meta: { argsPreview: { id: 'o-1' } } }));
    expect(next).toEqual({ kind: 'again' });
    expect(asked).toEqual([
      {
        callId: 'c1',
        tool: 'get_order',
        operationId: 'wf-1:s1',
        message: 'get_order: HTTP 403. Server said: "needs a manager".',
        argsDigest: scope.hash,
        argsPreview: { id: 'o-1' },
        args: { id: 'o-1' },
        turn: 1,
      },
    ]);
    expect(scope.approval).toEqual({ by: 'ana', reason: 'refund ok', signed: false, via: 'update' });
    expect(ctx.st.grants).toEqual({ [`get_order|${scope.hash}`]: 1 });
    expect(scope.recovered).toEqual({ failure: forbidden, action: 'request_approval' });
    expect(scope.evidence).toBe('approval_granted');
    expect(scope.traceSteps!.map((s) => [s.name, s.startMs, s.attributes['gen_ai.security.decision.type']])).toEqual([
      ['apply_guardrail human_approval', 200_000, 'allow'],
      ['apply_guardrail change_before_retry', 200_000, 'allow'],
    ]);
  });

  it('recoveries: a worker that sent no preview → the request says null, never the raw arguments', async () => {
    const { approvals, asked } = desk({ kind: 'approved', grant });
    const ctx = routerContext([order], { approvals });
    await recover(ctx, readyScope(order, { id: 'o-1' }), attemptOf({ ...forbidden, serverSaid: undefined } as never));
    expect(asked[0]).toMatchObject({ argsPreview: null, message: 'get_order: HTTP 403.' });
  });
});
