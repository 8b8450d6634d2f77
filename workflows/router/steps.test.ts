/**
 * Each recovery as a pure decision (./steps.ts): (call state, failure, facts) → the next step, as data. Pure unit
 * tests: no workers, no servers, no workflow API (`patched` and randomness are facts passed in).
 */
import { DEFAULT_BACKOFF_POLICY } from '../../recovery/backoff';
import { spend, startCall, startRun, startTurn } from '../../recovery/budgets';
import { ACTIONS } from '../../recovery/actions';
import { RecoveryAction, routeFor } from '../../recovery/routes';
import {
  MAY_HAVE_APPLIED_PATCH,
  mayHaveApplied,
  retriesSpent,
  WRITE_RETRIES_PATCH,
  type CallState,
  type Facts,
} from '../../recovery/steps';
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
/** `patched`: every patch (true), none (false), or these ids only. */
const facts = (patched: boolean | readonly string[] = true): Facts => ({
  backoff: { ...DEFAULT_BACKOFF_POLICY, jitterRatio: 0 },
  random: () => 0.5,
  patched: (id) => (patchIds.push(id), typeof patched === 'boolean' ? patched : patched.includes(id)),
  route: (f) => routeFor(f).action,
});
/** A write whose receiver does not deduplicate by its key: a replay may apply it twice. */
const oneShotWrite = dedupWrite({
  name: 'pay',
  idempotency: { carrier: 'header', name: 'Idempotency-Key', deduplicates: false },
});
const EARLIER_APPLIED =
  'An earlier attempt of this write may have been applied before this one failed; it is looked up before anything runs again.';
const DUPLICATE_KEY =
  'A repeat of this write was refused as a duplicate of its idempotency key: the first one may have been applied.';
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
    // The receiver deduplicates by the key: a replay with it cannot apply the write twice (replay-safe).
    expect(step).toEqual({
      kind: 'reconcile',
      afterApplied: true,
      failure: {
        ...f.failure,
        class: 'outcome_unknown',
        phase: 'commit_unknown',
        retryable: false,
        replaySafe: true,
        publicMessage: EARLIER_APPLIED,
      },
    });
    expect(patchIds).toEqual([WRITE_RETRIES_PATCH]);
  });

  it('steps: a later refusal of a write that does not deduplicate, an earlier attempt of which may have applied → not replay-safe', () => {
    const f = failed({ tool: 'pay', class: 'invalid_arguments', reason: 'schema', retryable: false, status: 422 });
    const step = decide(call({ spec: oneShotWrite, maybeApplied: true }), f, facts());
    expect(step).toEqual({
      kind: 'reconcile',
      afterApplied: true,
      failure: {
        ...f.failure,
        class: 'outcome_unknown',
        phase: 'commit_unknown',
        retryable: false,
        replaySafe: false,
        publicMessage: EARLIER_APPLIED,
      },
    });
    expect(patchIds).toEqual([WRITE_RETRIES_PATCH, MAY_HAVE_APPLIED_PATCH]);
  });

  it('steps: the same on a run recorded before replaySafe followed the receiver → the refusal’s replaySafe kept', () => {
    const f = failed({ tool: 'pay', class: 'invalid_arguments', reason: 'schema', retryable: false, status: 422 });
    const step = decide(call({ spec: oneShotWrite, maybeApplied: true }), f, facts([WRITE_RETRIES_PATCH]));
    expect(step).toMatchObject({ kind: 'reconcile', failure: { class: 'outcome_unknown', replaySafe: true } });
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
  it('steps: a replay of a write that does not deduplicate refused after an unknown outcome → reconciled again, not replay-safe', () => {
    const refused = failure({ tool: 'pay', class: 'semantic_rejection', reason: 'business_rule', retryable: false });
    const settled = { state: 'replay_failed', failure: refused, replays: 1 } as never;
    const c = call({ spec: oneShotWrite, maybeApplied: true });
    expect(afterReconcile(c, { failure: unknown }, settled, facts())).toEqual({
      kind: 'reconcile',
      afterApplied: true,
      failure: {
        ...refused,
        class: 'outcome_unknown',
        phase: 'commit_unknown',
        retryable: false,
        replaySafe: false,
        publicMessage: EARLIER_APPLIED,
      },
    });
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

describe('mayHaveApplied: an earlier attempt of this write may have been applied (one fact, two reasons)', () => {
  const conflict = failure({
    tool: 'pay',
    class: 'semantic_rejection',
    reason: 'conflict',
    phase: 'dispatch',
    retryable: false,
    status: 409,
  });
  const unknownOf = (replaySafe: boolean, publicMessage: string) => ({
    ...conflict,
    class: 'outcome_unknown',
    phase: 'commit_unknown',
    retryable: false,
    replaySafe,
    publicMessage,
  });
  const asked = (patched: boolean) => (id: string) => (patchIds.push(id), patched);

  it('steps: a repeat refused as a duplicate key, receiver does not deduplicate → outcome_unknown, not replay-safe, no patch asked', () => {
    expect(mayHaveApplied(conflict, 'duplicate_key', oneShotWrite, asked(true))).toEqual(
      unknownOf(false, DUPLICATE_KEY),
    );
    expect(patchIds).toEqual([]);
  });

  it('steps: a repeat refused as a duplicate key, receiver deduplicates → replay-safe (a replay with the key cannot apply it twice); before the patch: not', () => {
    expect(mayHaveApplied(conflict, 'duplicate_key', dedupWrite(), asked(true))).toEqual(
      unknownOf(true, DUPLICATE_KEY),
    );
    expect(mayHaveApplied(conflict, 'duplicate_key', dedupWrite(), asked(false))).toEqual(
      unknownOf(false, DUPLICATE_KEY),
    );
    expect(patchIds).toEqual([MAY_HAVE_APPLIED_PATCH, MAY_HAVE_APPLIED_PATCH]);
  });

  it('steps: a later failure, receiver does not deduplicate → not replay-safe; before the patch: the failure’s own', () => {
    expect(mayHaveApplied(conflict, 'later_failure', oneShotWrite, asked(true))).toEqual(
      unknownOf(false, EARLIER_APPLIED),
    );
    expect(mayHaveApplied(conflict, 'later_failure', oneShotWrite, asked(false))).toEqual(
      unknownOf(true, EARLIER_APPLIED),
    );
  });

  it('steps: a later failure, receiver deduplicates → replay-safe as the failure was, no patch asked; a failure not replay-safe stays so', () => {
    expect(mayHaveApplied(conflict, 'later_failure', dedupWrite(), asked(true))).toEqual(
      unknownOf(true, EARLIER_APPLIED),
    );
    const unsafe = { ...conflict, replaySafe: false };
    expect(mayHaveApplied(unsafe, 'later_failure', dedupWrite(), asked(true))).toEqual({
      ...unknownOf(false, EARLIER_APPLIED),
    });
    expect(patchIds).toEqual([]);
  });

  it('steps: the patch id recorded histories will carry', () => {
    expect(MAY_HAVE_APPLIED_PATCH).toBe('recovery-router:may-have-applied');
  });
});
