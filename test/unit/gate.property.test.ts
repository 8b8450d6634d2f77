/**
 * Property tests of the Change-before-Retry gate (recovery/gate.ts): no workers, no servers, no clock.
 */
import fc from 'fast-check';
import { FAILURE_CLASSES, FAILURE_REASONS, PHASES, toolFailureSchema } from '../../recovery/failure';
import type { ToolFailure } from '../../recovery/failure';
import { allowNextAttempt } from '../../recovery/gate';
import type { AttemptRecord, CandidateCall, ChangeEvidence } from '../../recovery/gate';

/** Any ToolFailure that passes ToolFailureSchema (its refinements included). */
const validFailure: fc.Arbitrary<ToolFailure> = fc
  .record({
    class: fc.constantFrom(...FAILURE_CLASSES),
    reason: fc.constantFrom(...FAILURE_REASONS),
    phase: fc.constantFrom(...PHASES),
    retryable: fc.boolean(),
    replaySafe: fc.boolean(),
    retryAfterMs: fc.option(fc.nat(100_000), { nil: undefined }),
  })
  .map((f) => {
    const retryable = f.retryable && f.class === 'transient';
    const v: Record<string, unknown> = {
      tool: 't',
      callId: 'c',
      class: f.class,
      reason: f.reason,
      phase: f.class === 'outcome_unknown' ? 'commit_unknown' : f.phase,
      retryable,
      replaySafe: f.replaySafe || retryable,
      publicMessage: 'm',
      diagnosticRef: 'd',
    };
    if (f.retryAfterMs !== undefined) v.retryAfterMs = f.retryAfterMs;
    return toolFailureSchema().parse(v);
  });

const hash = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString('hex'));
const tool = fc.constantFrom('issue_refund', 'get_refund_status', 'search_docs');

const previousRecord: fc.Arbitrary<AttemptRecord> = fc
  .record({
    tool,
    argsHash: hash,
    credentialVersion: fc.nat(5),
    failure: validFailure,
    endedAtMs: fc.nat(1_000_000),
    delayMs: fc.option(fc.nat(100_000), { nil: undefined }),
  })
  .map(({ delayMs, ...r }) => (delayMs === undefined ? r : { ...r, earliestRetryAtMs: r.endedAtMs + delayMs }));

const evidence: fc.Arbitrary<ChangeEvidence | null> = fc.oneof(
  fc.constant(null),
  fc.constantFrom<ChangeEvidence>(
    { kind: 'time_elapsed' },
    { kind: 'args_changed' },
    { kind: 'credential_refreshed' },
    { kind: 'tool_changed' },
    { kind: 'state_verified', externalState: 'applied' },
    { kind: 'state_verified', externalState: 'not_applied' },
    { kind: 'state_verified', externalState: 'unknown' },
  ),
);
const nowMs = fc.nat(1_200_000);

/** When the time the router scheduled after a transient failure is over (a backoff, a deferral), or never when none was. */
function dueMs(prev: AttemptRecord): number {
  if (prev.earliestRetryAtMs === undefined) return Infinity;
  return Math.max(prev.earliestRetryAtMs, prev.endedAtMs + (prev.failure.retryAfterMs ?? 0));
}

describe('gate: properties', () => {
  test('gate: an identical call passes only with time_elapsed after a replay-safe transient failure past the time the router scheduled, or state_verified not_applied after an unknown outcome', () => {
    fc.assert(
      fc.property(previousRecord, evidence, nowMs, (prev, ev, now) => {
        const identical: CandidateCall = {
          tool: prev.tool,
          argsHash: prev.argsHash,
          credentialVersion: prev.credentialVersion,
        };
        const d = allowNextAttempt(prev, identical, ev, now);
        const byTime =
          ev?.kind === 'time_elapsed' &&
          prev.failure.class === 'transient' &&
          prev.failure.replaySafe &&
          now >= dueMs(prev);
        const byState =
          ev?.kind === 'state_verified' &&
          ev.externalState === 'not_applied' &&
          prev.failure.class === 'outcome_unknown';
        expect(d.allowed).toBe(byTime || byState);
        if (d.allowed)
          expect(now).toBeGreaterThanOrEqual(
            prev.failure.class === 'transient' ? prev.endedAtMs + (prev.failure.retryAfterMs ?? 0) : 0,
          );
      }),
      { numRuns: 2000 },
    );
  });

  test('gate: no evidence is always refused, whatever changed', () => {
    fc.assert(
      fc.property(previousRecord, tool, hash, fc.nat(9), nowMs, (prev, t, h, v, now) => {
        expect(allowNextAttempt(prev, { tool: t, argsHash: h, credentialVersion: v }, null, now)).toMatchObject({
          allowed: false,
          reason: 'no_evidence',
        });
      }),
    );
  });

  test('gate: changed arguments always pass with args_changed, whatever the failure', () => {
    fc.assert(
      fc.property(previousRecord, hash, nowMs, (prev, h, now) => {
        fc.pre(h !== prev.argsHash);
        const d = allowNextAttempt(
          prev,
          { tool: prev.tool, argsHash: h, credentialVersion: prev.credentialVersion },
          { kind: 'args_changed' },
          now,
        );
        expect(d).toMatchObject({ allowed: true, evidence: { kind: 'args_changed' } });
      }),
    );
  });

  test('gate: a changed tool always passes with tool_changed, whatever the failure', () => {
    fc.assert(
      fc.property(previousRecord, tool, nowMs, (prev, t, now) => {
        fc.pre(t !== prev.tool);
        const d = allowNextAttempt(
          prev,
          { tool: t, argsHash: prev.argsHash, credentialVersion: prev.credentialVersion },
          { kind: 'tool_changed' },
          now,
        );
        expect(d).toMatchObject({ allowed: true, evidence: { kind: 'tool_changed' } });
      }),
    );
  });

  test('gate: a newer credential always passes with credential_refreshed after an authentication or authorization failure', () => {
    fc.assert(
      fc.property(previousRecord, fc.integer({ min: 1, max: 10 }), nowMs, (prev, bump, now) => {
        const v = prev.credentialVersion + bump;
        const d = allowNextAttempt(
          prev,
          { tool: prev.tool, argsHash: prev.argsHash, credentialVersion: v },
          { kind: 'credential_refreshed' },
          now,
        );
        expect(d.allowed).toBe(prev.failure.class === 'authentication' || prev.failure.class === 'authorization');
      }),
    );
  });

  test('gate: a retryable transient failure passes with time_elapsed exactly from its due time on', () => {
    const transient = previousRecord.filter(
      (p) => p.failure.class === 'transient' && p.failure.retryable && p.earliestRetryAtMs !== undefined,
    );
    fc.assert(
      fc.property(transient, fc.integer({ min: -5000, max: 5000 }), (prev, offset) => {
        const now = Math.max(0, dueMs(prev) + offset);
        const same: CandidateCall = {
          tool: prev.tool,
          argsHash: prev.argsHash,
          credentialVersion: prev.credentialVersion,
        };
        expect(allowNextAttempt(prev, same, { kind: 'time_elapsed' }, now).allowed).toBe(now >= dueMs(prev));
      }),
    );
  });

  test('gate: every decision is frozen and carries a one-sentence message', () => {
    fc.assert(
      fc.property(previousRecord, tool, hash, fc.nat(9), evidence, nowMs, (prev, t, h, v, ev, now) => {
        const d = allowNextAttempt(prev, { tool: t, argsHash: h, credentialVersion: v }, ev, now);
        expect(Object.isFrozen(d)).toBe(true);
        expect(d.message).toMatch(/^(Allowed|Refused) "[^"]+": [^\n]+\.$/);
      }),
    );
  });
});
