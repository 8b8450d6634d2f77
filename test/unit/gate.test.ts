/**
 * Pure unit tests of the Change-before-Retry gate (recovery/gate.ts): no workers, no servers, no clock.
 */
import { argsHash } from '../../recovery/canonical';
import { parseInput, RecoveryInputError } from '../../recovery/errors';
import { toolFailureSchema } from '../../recovery/failure';
import type { ToolFailure } from '../../recovery/failure';
import { allowNextAttempt, attemptRecordSchema, EVIDENCE_APPLIES_AFTER } from '../../recovery/gate';
import type { AttemptRecord, CandidateCall } from '../../recovery/gate';
import { observedEvidence } from '../../recovery/call-ledger';

const REFUND = argsHash({ order: 'O-1842', amount_cents: 80000 });
const REFUND_FIXED = argsHash({ order: 'O-1842', amount_cents: 50000 });

function failure(over: Partial<ToolFailure> & Pick<ToolFailure, 'class'>): ToolFailure {
  return toolFailureSchema().parse({
    tool: 'issue_refund',
    callId: 'call-1',
    reason: 'unspecified',
    phase: over.class === 'outcome_unknown' ? 'commit_unknown' : 'dispatch',
    retryable: false,
    replaySafe: false,
    publicMessage: 'The call failed.',
    diagnosticRef: 'diag-1',
    ...over,
  });
}

const transient429 = failure({
  class: 'transient',
  reason: 'rate_limited',
  retryable: true,
  replaySafe: true,
  retryAfterMs: 3000,
  status: 429,
});

function attempt(f: ToolFailure, over: Partial<AttemptRecord> = {}): AttemptRecord {
  return { tool: 'issue_refund', argsHash: REFUND, credentialVersion: 1, failure: f, endedAtMs: 10_000, ...over };
}
const same: CandidateCall = { tool: 'issue_refund', argsHash: REFUND, credentialVersion: 1 };

function thrown(fn: () => unknown): RecoveryInputError {
  try {
    fn();
  } catch (e) {
    if (e instanceof RecoveryInputError) return e;
    throw e;
  }
  throw new Error('expected a RecoveryInputError, nothing was thrown');
}

describe('gate: no evidence, no retry (docs/DESIGN.md, "The Change-before-Retry gate")', () => {
  test('gate: identical refund after a commit_unknown timeout, no evidence → refused no_evidence', () => {
    const d = allowNextAttempt(attempt(failure({ class: 'outcome_unknown', reason: 'timeout' })), same, null, 20_000);
    expect(d).toEqual({
      allowed: false,
      reason: 'no_evidence',
      message: 'Refused "issue_refund": nothing changed since the outcome_unknown failure and no evidence was given.',
    });
    expect(Object.isFrozen(d)).toBe(true);
  });

  test('gate: identical args after a 409 conflict, no evidence → refused, no dispatch', () => {
    const prev = attempt(failure({ class: 'semantic_rejection', reason: 'conflict', status: 409 }));
    expect(allowNextAttempt(prev, same, null, 99_999)).toMatchObject({ allowed: false, reason: 'no_evidence' });
  });
});

describe('gate: time_elapsed (only after a retryable transient failure, only once the backoff is over)', () => {
  const prev = attempt(transient429, { earliestRetryAtMs: 13_300 });

  test('gate: 429, retry at 13 300 ms, now 13 300 ms → allowed', () => {
    expect(allowNextAttempt(prev, same, { kind: 'time_elapsed' }, 13_300)).toEqual({
      allowed: true,
      evidence: { kind: 'time_elapsed' },
      message: 'Allowed "issue_refund": the backoff after the transient failure ended at 13300 ms (now 13300 ms).',
    });
  });

  test('gate: 429, retry at 13 300 ms, now 13 299 ms → refused too_early, 1 ms early', () => {
    expect(allowNextAttempt(prev, same, { kind: 'time_elapsed' }, 13_299)).toEqual({
      allowed: false,
      reason: 'too_early',
      message: 'Refused "issue_refund": the next attempt is allowed at 13300 ms and it is 13299 ms (1 ms early).',
    });
  });

  test('gate: a schedule that forgot Retry-After is floored by it (ended 10 000 + Retry-After 3000 → 13 000)', () => {
    const forgot = attempt(transient429, { earliestRetryAtMs: 10_500 });
    expect(allowNextAttempt(forgot, same, { kind: 'time_elapsed' }, 12_999)).toMatchObject({
      allowed: false,
      reason: 'too_early',
    });
    expect(allowNextAttempt(forgot, same, { kind: 'time_elapsed' }, 13_000)).toMatchObject({ allowed: true });
  });

  test('gate: time_elapsed with no scheduled backoff → refused backoff_not_scheduled', () => {
    expect(allowNextAttempt(attempt(transient429), same, { kind: 'time_elapsed' }, 1_000_000)).toEqual({
      allowed: false,
      reason: 'backoff_not_scheduled',
      message:
        'Refused "issue_refund": time_elapsed needs a scheduled backoff, but the previous attempt has no earliestRetryAtMs.',
    });
  });

  test('gate: time_elapsed after a transient failure that may have sent something → refused not_retryable', () => {
    const sent = attempt(failure({ class: 'transient', reason: 'unavailable', replaySafe: false }), {
      earliestRetryAtMs: 10_000,
    });
    expect(allowNextAttempt(sent, same, { kind: 'time_elapsed' }, 1_000_000)).toEqual({
      allowed: false,
      reason: 'not_retryable',
      message:
        'Refused "issue_refund": the transient failure (unavailable) is not replay-safe, so waiting does not make a replay safe.',
    });
  });

  test('gate: a replay-safe failure the router deferred to a stated time (not retryable by Temporal) → allowed once due, not before', () => {
    const quota = attempt(
      failure({ class: 'transient', reason: 'rate_limited', replaySafe: true, retryAfterMs: 120_000 }),
      {
        earliestRetryAtMs: 130_000,
      },
    );
    expect(allowNextAttempt(quota, same, { kind: 'time_elapsed' }, 129_999)).toMatchObject({ reason: 'too_early' });
    expect(allowNextAttempt(quota, same, { kind: 'time_elapsed' }, 130_000)).toMatchObject({ allowed: true });
  });

  test('gate: time_elapsed after a 409 conflict → refused evidence_not_applicable (time does not cure it, docs/DESIGN.md, "The Change-before-Retry gate")', () => {
    const prev409 = attempt(failure({ class: 'semantic_rejection', reason: 'conflict' }), {
      earliestRetryAtMs: 10_000,
    });
    expect(allowNextAttempt(prev409, same, { kind: 'time_elapsed' }, 1_000_000)).toEqual({
      allowed: false,
      reason: 'evidence_not_applicable',
      message:
        'Refused "issue_refund": time_elapsed does not answer a failure of class semantic_rejection (it applies after transient).',
    });
  });
});

describe('gate: args_changed (a byte-identical invalid call is blocked, docs/DESIGN.md, "The Change-before-Retry gate")', () => {
  const prev = attempt(failure({ class: 'invalid_arguments', reason: 'schema', phase: 'preflight' }));

  test('gate: repaired arguments → allowed, naming both hashes', () => {
    const d = allowNextAttempt(prev, { ...same, argsHash: REFUND_FIXED }, { kind: 'args_changed' }, 10_001);
    expect(d).toEqual({
      allowed: true,
      evidence: { kind: 'args_changed' },
      message: `Allowed "issue_refund": the canonical arguments changed (hash ${REFUND.slice(0, 12)} → ${REFUND_FIXED.slice(0, 12)}).`,
    });
  });

  test('gate: args_changed claimed with the same hash → refused args_unchanged', () => {
    expect(allowNextAttempt(prev, same, { kind: 'args_changed' }, 10_001)).toEqual({
      allowed: false,
      reason: 'args_unchanged',
      message: `Refused "issue_refund": args_changed was claimed but the canonical arguments hash is unchanged (${REFUND.slice(0, 12)}).`,
    });
  });

  test('gate: re-ordered keys and 80000.0 are the same arguments → refused args_unchanged', () => {
    const reordered = argsHash(JSON.parse('{"amount_cents":80000.0,"order":"O-1842"}'));
    expect(allowNextAttempt(prev, { ...same, argsHash: reordered }, { kind: 'args_changed' }, 10_001)).toMatchObject({
      allowed: false,
      reason: 'args_unchanged',
    });
  });
});

describe('gate: credential_refreshed (replay once with the new token, docs/DESIGN.md, "The Change-before-Retry gate")', () => {
  const prev401 = attempt(failure({ class: 'authentication', reason: 'credential_expired', status: 401 }));

  test('gate: 401, credential version 1 → 2 → allowed', () => {
    expect(
      allowNextAttempt(prev401, { ...same, credentialVersion: 2 }, { kind: 'credential_refreshed' }, 10_001),
    ).toEqual({
      allowed: true,
      evidence: { kind: 'credential_refreshed' },
      message: 'Allowed "issue_refund": the credential version rose from 1 to 2.',
    });
  });

  test('gate: 401, same credential version → refused credential_not_newer (never retry with the expired token)', () => {
    expect(allowNextAttempt(prev401, same, { kind: 'credential_refreshed' }, 10_001)).toEqual({
      allowed: false,
      reason: 'credential_not_newer',
      message: 'Refused "issue_refund": credential_refreshed was claimed but version 1 is not newer than 1.',
    });
  });

  test('gate: 403 approval_required, grant version bumped after approval → allowed', () => {
    const prev403 = attempt(failure({ class: 'authorization', reason: 'approval_required', status: 403 }));
    expect(
      allowNextAttempt(prev403, { ...same, credentialVersion: 7 }, { kind: 'credential_refreshed' }, 10_001),
    ).toMatchObject({ allowed: true });
  });

  test('gate: a refreshed credential does not unlock an unreconciled write → refused evidence_not_applicable', () => {
    const unknown = attempt(failure({ class: 'outcome_unknown', reason: 'timeout' }));
    expect(
      allowNextAttempt(unknown, { ...same, credentialVersion: 2 }, { kind: 'credential_refreshed' }, 10_001),
    ).toEqual({
      allowed: false,
      reason: 'evidence_not_applicable',
      message:
        'Refused "issue_refund": credential_refreshed does not answer a failure of class outcome_unknown (it applies after authentication or authorization).',
    });
  });
});

describe('gate: approval_granted (a person approved this exact call after a 403)', () => {
  const prev403 = attempt(failure({ class: 'authorization', reason: 'approval_required', status: 403 }));
  test('gate: a newer grant after a 403 → allowed, with evidence approval_granted', () => {
    expect(allowNextAttempt(prev403, { ...same, grantVersion: 1 }, { kind: 'approval_granted' }, 10_001)).toEqual({
      allowed: true,
      evidence: { kind: 'approval_granted' },
      message: 'Allowed "issue_refund": a person approved this exact call (grant 0 → 1).',
    });
  });
  test('gate: no newer grant → refused no_new_grant', () => {
    expect(allowNextAttempt(prev403, same, { kind: 'approval_granted' }, 10_001)).toEqual({
      allowed: false,
      reason: 'no_new_grant',
      message: 'Refused "issue_refund": approval_granted was claimed but no new grant exists (0).',
    });
  });
  test('gate: a grant does not answer a 401 → refused evidence_not_applicable', () => {
    const prev401 = attempt(failure({ class: 'authentication', reason: 'credential_expired', status: 401 }));
    expect(allowNextAttempt(prev401, { ...same, grantVersion: 1 }, { kind: 'approval_granted' }, 10_001)).toMatchObject(
      {
        allowed: false,
        reason: 'evidence_not_applicable',
      },
    );
  });
  test('gate: the evidence found in the records for a newer grant is approval_granted, not credential_refreshed', () => {
    expect(observedEvidence(prev403, { ...same, grantVersion: 1 }, 10_001)).toEqual({ kind: 'approval_granted' });
    expect(observedEvidence(prev403, { ...same, credentialVersion: 2 }, 10_001)).toEqual({
      kind: 'credential_refreshed',
    });
  });
});

describe('gate: tool_changed (replan to another tool)', () => {
  const prev = attempt(failure({ class: 'capability_missing', reason: 'unknown_tool', phase: 'preflight' }), {
    tool: 'get_date',
  });

  test('gate: unknown tool get_date, then search_docs → allowed', () => {
    expect(allowNextAttempt(prev, { ...same, tool: 'search_docs' }, { kind: 'tool_changed' }, 10_001)).toEqual({
      allowed: true,
      evidence: { kind: 'tool_changed' },
      message: 'Allowed "search_docs": the tool changed from "get_date".',
    });
  });

  test('gate: unknown tool get_date repeated with tool_changed claimed → refused tool_unchanged (docs/DESIGN.md, "The Change-before-Retry gate")', () => {
    expect(allowNextAttempt(prev, { ...same, tool: 'get_date' }, { kind: 'tool_changed' }, 10_001)).toEqual({
      allowed: false,
      reason: 'tool_unchanged',
      message: 'Refused "get_date": tool_changed was claimed but it is the same tool.',
    });
  });
});

describe('gate: state_verified (reconcile before any replay, docs/DESIGN.md, "Reconcile")', () => {
  const prev = attempt(failure({ class: 'outcome_unknown', reason: 'timeout' }));

  test('gate: lookup says not_applied → the identical call may run (with the same idempotency key)', () => {
    expect(allowNextAttempt(prev, same, { kind: 'state_verified', externalState: 'not_applied' }, 40_000)).toEqual({
      allowed: true,
      evidence: { kind: 'state_verified', externalState: 'not_applied' },
      message: 'Allowed "issue_refund": a lookup verified that the previous attempt was not applied.',
    });
  });

  test('gate: lookup says applied → refused already_applied (return the first result)', () => {
    expect(allowNextAttempt(prev, same, { kind: 'state_verified', externalState: 'applied' }, 40_000)).toEqual({
      allowed: false,
      reason: 'already_applied',
      message:
        'Refused "issue_refund": a lookup found the previous attempt applied; return its result instead of running it again.',
    });
  });

  test('gate: lookup cannot tell → refused state_unknown (human review)', () => {
    expect(allowNextAttempt(prev, same, { kind: 'state_verified', externalState: 'unknown' }, 40_000)).toEqual({
      allowed: false,
      reason: 'state_unknown',
      message:
        'Refused "issue_refund": a lookup could not tell whether the previous attempt was applied; it needs human review.',
    });
  });

  test('gate: state_verified after an invalid_arguments failure → refused evidence_not_applicable', () => {
    const invalid = attempt(failure({ class: 'invalid_arguments', reason: 'schema', phase: 'preflight' }));
    expect(
      allowNextAttempt(invalid, same, { kind: 'state_verified', externalState: 'not_applied' }, 40_000),
    ).toMatchObject({
      allowed: false,
      reason: 'evidence_not_applicable',
    });
  });
});

describe('gate: the applicability table', () => {
  test('gate: EVIDENCE_APPLIES_AFTER is the documented table', () => {
    expect(EVIDENCE_APPLIES_AFTER).toEqual({
      time_elapsed: ['transient'],
      args_changed: 'any',
      credential_refreshed: ['authentication', 'authorization'],
      approval_granted: ['authorization'],
      tool_changed: 'any',
      state_verified: ['outcome_unknown'],
    });
    expect(Object.isFrozen(EVIDENCE_APPLIES_AFTER)).toBe(true);
  });
});

describe('gate records: a carried record that breaks its shape is a typed error where it enters', () => {
  // The gate itself takes typed values; a record from outside (carried state) is parsed once, at the edge.
  test.each<{ label: string; record: unknown; message: string }>([
    {
      label: 'a negative credential version',
      record: attempt(transient429, { credentialVersion: -1 }),
      message: 'previous.credentialVersion: Too small: expected number to be >=0',
    },
    {
      label: 'earliestRetryAtMs before endedAtMs',
      record: attempt(transient429, { earliestRetryAtMs: 9_999 }),
      message: 'previous.earliestRetryAtMs: cannot be before endedAtMs',
    },
    {
      label: 'an invalid failure in the record',
      record: attempt({ ...transient429, phase: 'later' } as unknown as ToolFailure),
      message:
        'previous.failure.phase: Invalid option: expected one of "preflight"|"dispatch"|"commit_unknown"|"postcheck"',
    },
  ])('gate records: $label → invalid_input', ({ record, message }) => {
    const e = thrown(() => parseInput(attemptRecordSchema(), record, 'previous'));
    expect([e.code, e.message]).toEqual(['invalid_input', message]);
  });
});
