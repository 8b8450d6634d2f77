/**
 * Each recovery as a pure decision (./steps.ts): (call state, failure, facts) → the next step, as data. Pure unit
 * tests: no workers, no servers, no workflow API (`patched` and randomness are facts passed in).
 */
import { DEFAULT_BACKOFF_POLICY } from '../../recovery/backoff';
import { spend, startCall, startRun, startTurn } from '../../recovery/budgets';
import { ACTIONS } from '../../recovery/actions';
import { RecoveryAction, routeFor } from '../../recovery/routes';
import { retriesSpent, WRITE_RETRIES_PATCH, type CallState, type Facts } from '../../recovery/steps';
import { dedupWrite, failure, spec } from '../../test/fixtures/router';
import { afterApproval, afterReconcile, decide, reconcileFailed, span } from './steps';

const budgets = (perCallRetries = 3) => startCall(startTurn(startRun({ perCallRetries })), 's1');
const call = (over: Partial<CallState> = {}): CallState => ({
  spec: spec(),
  stepId: 's1',
  operationId: 'wf-1:s1',
  reauthed: false,
  approved: false,
  workflowRetries: 0,
  maybeApplied: false,
  budgets: budgets(),
  ...over,
});
const patchIds: string[] = [];
const facts = (patched = true): Facts => ({
  backoff: { ...DEFAULT_BACKOFF_POLICY, jitterRatio: 0 },
  random: () => 0.5,
  patched: (id) => (patchIds.push(id), patched),
  route: (f) => routeFor(f).action,
});
const failed = (over: Parameters<typeof failure>[0] = {}) => ({ failure: failure(over), endedAtMs: 10_000 });
beforeEach(() => (patchIds.length = 0));

describe('ACTIONS: decide', () => {
  it('steps: reauth, request_approval, retry and reconcile decide; the other actions end with their route', () => {
    const deciding = Object.entries(ACTIONS)
      .filter(([, d]) => d.decide !== null)
      .map(([a]) => a);
    expect(deciding.sort()).toEqual(['reauth', 'reconcile', 'request_approval', 'retry']);
    expect(Object.keys(ACTIONS).sort()).toEqual(Object.values(RecoveryAction).sort());
    expect(Object.isFrozen(ACTIONS)).toBe(true);
  });
});

describe('decide: ends with the route', () => {
  it('steps: a 409 conflict → end with replan, its own route (counted for no-progress), no patch asked', () => {
    const f = failed({ class: 'semantic_rejection', reason: 'conflict', retryable: false, status: 409 });
    expect(decide(call(), f, facts())).toEqual({ kind: 'end', failure: f.failure, action: 'replan', routed: true });
    expect(patchIds).toEqual([]);
  });

  it('steps: a later failure of a write that may have applied → reconcile it as an unknown outcome, once', () => {
    const f = failed({ class: 'semantic_rejection', reason: 'conflict', retryable: false });
    const step = decide(call({ spec: dedupWrite(), maybeApplied: true }), f, facts());
    expect(step).toMatchObject({ kind: 'reconcile', afterApplied: true, failure: { class: 'outcome_unknown' } });
    expect(step.failure).toMatchObject({ phase: 'commit_unknown', retryable: false });
    expect(patchIds).toEqual([WRITE_RETRIES_PATCH]);
  });

  it('steps: the same on a run recorded before the patch → its own route', () => {
    const f = failed({ class: 'semantic_rejection', reason: 'conflict', retryable: false });
    expect(decide(call({ maybeApplied: true }), f, facts(false))).toMatchObject({ kind: 'end', action: 'replan' });
  });
});

describe('decide: reauth', () => {
  const expired = failed({ class: 'authentication', reason: 'credential_expired', retryable: false });
  it('steps: a 401 → run again with reauth, else escalate', () => {
    expect(decide(call(), expired, facts())).toEqual({
      kind: 'run_again',
      failure: expired.failure,
      action: 'reauth',
      otherwise: {
        kind: 'end',
        failure: expired.failure,
        action: 'escalate',
        routed: false,
        message: 'The credential was refused even after a refresh; a person must re-authorise.',
      },
    });
  });
  it('steps: a second 401 after a refresh → escalate, never a second refresh', () => {
    expect(decide(call({ reauthed: true }), expired, facts())).toMatchObject({ kind: 'end', action: 'escalate' });
  });
});

describe('decide: request_approval', () => {
  const forbidden = failed({ class: 'authorization', reason: 'approval_required', retryable: false });
  it('steps: a 403 a person can lift → ask a person', () => {
    expect(decide(call(), forbidden, facts())).toEqual({ kind: 'ask_person', failure: forbidden.failure });
  });
  it('steps: still forbidden after an approval → stop', () => {
    expect(decide(call({ approved: true }), forbidden, facts())).toMatchObject({
      kind: 'end',
      action: 'stop',
      message: 'The action is still forbidden after approval.',
    });
  });
  it.each([
    [
      { kind: 'expired', afterMs: 3_600_000 },
      'The approval request expired after 1 h without a decision; the action was not taken.',
    ],
    [{ kind: 'revoked' }, 'The approval was revoked before it was used; the action was not taken.'],
  ] as const)('steps: approval %j → stop with its message', (outcome, message) => {
    expect(afterApproval(forbidden.failure, outcome)).toMatchObject({ kind: 'end', action: 'stop', message });
  });
  it('steps: denied → stop, the person’s words kept apart; approved → run again', () => {
    const grant = { by: 'ana', reason: 'no', signed: false, via: 'update' as const, approved: false };
    expect(afterApproval(forbidden.failure, { kind: 'denied', grant })).toMatchObject({
      kind: 'end',
      message: 'A person declined this action.',
      personSaid: 'no',
    });
    expect(afterApproval(forbidden.failure, { kind: 'approved', grant: { ...grant, approved: true } })).toMatchObject({
      kind: 'run_again',
      action: 'request_approval',
      otherwise: { kind: 'end', action: 'stop', message: 'The approved call could not run again.' },
    });
  });
  it('steps: durations for people', () => {
    expect([span(7_200_000), span(120_000), span(3_000), span(1_500)]).toEqual(['2 h', '2 min', '3 s', '1500 ms']);
  });
});

describe('decide: retry', () => {
  const notSent = { class: 'transient', reason: 'unavailable', retryable: true, replaySafe: true } as const;
  const write = spec({ name: 'refund', effect: 'write' });

  it('steps: a retryable read → Temporal retried it already: its retries are spent, its route is replan', () => {
    const step = decide(call(), failed(notSent), facts());
    expect(step).toMatchObject({ kind: 'end', action: 'replan', routed: true, failure: { retryable: false } });
    expect(step.budgets).toBeUndefined();
  });

  it('steps: a write refused before it was sent → wait until its backoff’s time, one retry spent', () => {
    const step = decide(call({ spec: write }), failed({ ...notSent, retryAfterMs: 4_000 }), facts());
    // Retry-After (4 s) is the floor over the first backoff (500 ms, no jitter): ended at 10 s → due at 14 s.
    expect(step).toMatchObject({ kind: 'wait_until', why: 'retry_after', atMs: 14_000, action: 'retry' });
    expect(step.budgets?.calls).toEqual([{ key: 's1', retries: 1, repairs: 0 }]);
  });

  it('steps: the per-call retry budget spent → the failure’s own route, the ledger kept', () => {
    const spent = spend(budgets(1), 'retry', 's1').ledger;
    const step = decide(call({ spec: write, budgets: spent }), failed(notSent), facts());
    expect(step).toMatchObject({ kind: 'end', action: 'replan', failure: { retryable: false } });
  });

  it('steps: a write an open breaker kept refusing → escalate as never sent', () => {
    const open = failed({ ...notSent, reason: 'circuit_open' });
    expect(retriesSpent(call({ spec: write }), open, facts())).toMatchObject({
      kind: 'end',
      action: 'escalate',
      exhausted: 'per_call_retries',
    });
  });
});

describe('afterReconcile', () => {
  const unknown = failure({ class: 'outcome_unknown', reason: 'timeout', phase: 'commit_unknown', retryable: false });
  const tally = { attempts: 1, replays: 0 } as never;
  it('steps: applied by a lookup → settled with its value; by verify → already_satisfied', () => {
    const base = { ...(tally as object), state: 'applied', value: { id: 'r1' } } as const;
    expect(afterReconcile(call(), { failure: unknown }, { ...base, via: 'lookup' } as never, facts())).toEqual({
      kind: 'settled',
      failure: unknown,
      value: { id: 'r1' },
      via: 'lookup',
    });
    expect(afterReconcile(call(), { failure: unknown }, { ...base, via: 'verify' } as never, facts())).toMatchObject({
      via: 'already_satisfied',
    });
  });
  it('steps: a replay that failed after an unknown outcome was taken as one → its own route, not reconciled again', () => {
    const conflict = failure({ class: 'semantic_rejection', reason: 'conflict', retryable: false });
    const settled = { state: 'replay_failed', failure: conflict, replays: 1 } as never;
    const c = call({ maybeApplied: true });
    expect(afterReconcile(c, { failure: unknown, afterApplied: true }, settled, facts())).toMatchObject({
      kind: 'end',
      action: 'replan',
    });
    expect(afterReconcile(c, { failure: unknown }, settled, facts())).toMatchObject({ kind: 'reconcile' });
  });
  it('steps: a reconciliation that did not finish → escalate naming the operation', () => {
    expect(reconcileFailed(call(), unknown)).toMatchObject({
      kind: 'end',
      action: 'escalate',
      message:
        'The reconciliation of operation wf-1:s1 did not finish; a person must check whether the write was applied before anything is replayed.',
    });
  });
});
