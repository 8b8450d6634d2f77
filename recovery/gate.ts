/**
 * The Change-before-Retry gate: before a call runs again after a failure, something must have changed that makes
 * this attempt more likely to succeed, and the gate checks that the claimed change is TRUE.
 *
 * Source: docs/DESIGN.md, "The Change-before-Retry gate": no identical re-execution without new evidence — new
 * arguments, a new credential or grant, another tool path, elapsed time or a verified external state. Its kinds of
 * evidence are the `ChangeEvidence` union (recovery/gate-records.ts, re-exported here).
 * Pure: no clock (`nowMs` is a parameter), no I/O.
 */
import { FailureClass } from './failure';
import type { AttemptRecord, CandidateCall, ChangeEvidence, EvidenceKind } from './gate-records';

export { attemptRecordSchema, ExternalState } from './gate-records';
export type { AttemptRecord, CandidateCall, ChangeEvidence, EvidenceKind } from './gate-records';

/**
 * Failure classes after which each kind of evidence means something. One table.
 * Why the limits: a refreshed credential does not change a 409 or an unknown write outcome, and replaying an
 * unreconciled write with a new token could apply it twice; "state verified" only answers an unknown outcome;
 * time only cures transient failures (docs/DESIGN.md, "The Change-before-Retry gate").
 * `'any'`: a changed argument or tool is a different call whatever the failure was.
 */
export const EVIDENCE_APPLIES_AFTER: Readonly<Record<EvidenceKind, readonly FailureClass[] | 'any'>> = Object.freeze({
  time_elapsed: Object.freeze([FailureClass.TRANSIENT]),
  args_changed: 'any',
  credential_refreshed: Object.freeze([FailureClass.AUTHENTICATION, FailureClass.AUTHORIZATION]),
  approval_granted: Object.freeze([FailureClass.AUTHORIZATION]),
  tool_changed: 'any',
  state_verified: Object.freeze([FailureClass.OUTCOME_UNKNOWN]),
});

/**
 * Why the gate refused: no evidence offered; evidence not applicable to this class (`EVIDENCE_APPLIES_AFTER`);
 * time_elapsed after a failure that is not replay-safe (`not_retryable`), with no time scheduled
 * (`backoff_not_scheduled`), or before it (`too_early`); a claimed change that did not happen (`args_unchanged`,
 * `credential_not_newer`, `no_new_grant`, `tool_unchanged`); a lookup that found the write applied (return its
 * result) or could not tell (`state_unknown`: human review).
 */
export type GateRefusal =
  | 'no_evidence'
  | 'evidence_not_applicable'
  | 'not_retryable'
  | 'backoff_not_scheduled'
  | 'too_early'
  | 'args_unchanged'
  | 'credential_not_newer'
  | 'no_new_grant'
  | 'tool_unchanged'
  | 'already_applied'
  | 'state_unknown';

/**
 * The gate's answer. `message` is one sentence for the workflow log, naming the tool and the fact checked.
 * Refusals carry a `reason` code the workflow can branch on.
 */
export type GateDecision =
  | Readonly<{ allowed: true; evidence: ChangeEvidence; message: string }>
  | Readonly<{ allowed: false; reason: GateRefusal; message: string }>;

/**
 * Decides whether `candidate` may run after `previous` failed, given the claimed `evidence`.
 * The gate of docs/DESIGN.md, "The Change-before-Retry gate", with every claim checked against the records instead
 * of trusted.
 *
 * An identical call (same tool, args hash and credential version) passes only with `time_elapsed` after a
 * replay-safe transient failure once the time the router scheduled for it is over, or with `state_verified` `not_applied` after an unknown
 * outcome. A changed call passes with the evidence that names the change.
 *
 * Typed values only: the records are the router's own or were checked where they entered (carried state:
 * workflows/router-state-shape.ts); nothing here parses them again.
 * @param prev the failed attempt (`attemptRecordSchema()`).
 * @param cand the proposed call.
 * @param ev the claimed change, or `null` for none (always refused).
 * @param now the current workflow time, ms since the epoch, integer ≥ 0.
 * @returns a frozen `GateDecision`.
 */
export function allowNextAttempt(
  prev: AttemptRecord,
  cand: CandidateCall,
  ev: ChangeEvidence | null,
  now: number,
): GateDecision {
  const tool = JSON.stringify(cand.tool);
  const cls = prev.failure.class;

  if (ev === null) {
    return refuse(
      'no_evidence',
      `Refused ${tool}: nothing changed since the ${cls} failure and no evidence was given.`,
    );
  }
  const applies = EVIDENCE_APPLIES_AFTER[ev.kind];
  if (applies !== 'any' && !applies.includes(cls)) {
    return refuse(
      'evidence_not_applicable',
      `Refused ${tool}: ${ev.kind} does not answer a failure of class ${cls} (it applies after ${applies.join(' or ')}).`,
    );
  }
  // The row's type ties `ev` to its kind; TypeScript cannot follow that through the index, hence the cast.
  const check = EVIDENCE_CHECKS[ev.kind] as EvidenceCheck<EvidenceKind>;
  return check({ prev, cand, ev, now, tool });
}

/** What an evidence check sees: the parsed records, `now` (ms since the epoch), `tool` JSON-quoted for messages. */
type CheckInput = Readonly<{ prev: AttemptRecord; cand: CandidateCall; now: number; tool: string }>;
/** One evidence check, run once `EVIDENCE_APPLIES_AFTER` has passed: evidence `ev` of kind `K` → the decision. */
type EvidenceCheck<K extends EvidenceKind> = (
  c: CheckInput & { ev: Extract<ChangeEvidence, { kind: K }> },
) => GateDecision;

/**
 * How the gate verifies each kind of evidence against the records: kind → check. One table (docs/DESIGN.md, "The
 * Change-before-Retry gate").
 */
const EVIDENCE_CHECKS: { readonly [K in EvidenceKind]: EvidenceCheck<K> } = Object.freeze({
  time_elapsed: ({ prev, ev, now, tool }) => {
    // The router's own schedule is the claim that waiting cures it (a retry's backoff, a deferral's stated time);
    // only a failure that may have sent something stays refused: waiting does not make its replay safe.
    if (!prev.failure.replaySafe) {
      return refuse(
        'not_retryable',
        `Refused ${tool}: the transient failure (${prev.failure.reason}) is not replay-safe, so waiting does not make a replay safe.`,
      );
    }
    if (prev.earliestRetryAtMs === undefined) {
      return refuse(
        'backoff_not_scheduled',
        `Refused ${tool}: time_elapsed needs a scheduled backoff, but the previous attempt has no earliestRetryAtMs.`,
      );
    }
    // Retry-After is a floor even if the record's schedule forgot it (RFC 9110 §10.2.3; docs/DESIGN.md, "Routes").
    const dueMs = Math.max(prev.earliestRetryAtMs, prev.endedAtMs + (prev.failure.retryAfterMs ?? 0));
    if (now < dueMs) {
      return refuse(
        'too_early',
        `Refused ${tool}: the next attempt is allowed at ${dueMs} ms and it is ${now} ms (${dueMs - now} ms early).`,
      );
    }
    return allow(ev, `Allowed ${tool}: the backoff after the transient failure ended at ${dueMs} ms (now ${now} ms).`);
  },
  args_changed: ({ prev, cand, ev, tool }) =>
    cand.argsHash !== prev.argsHash
      ? allow(
          ev,
          `Allowed ${tool}: the canonical arguments changed (hash ${short(prev.argsHash)} → ${short(cand.argsHash)}).`,
        )
      : refuse(
          'args_unchanged',
          `Refused ${tool}: args_changed was claimed but the canonical arguments hash is unchanged (${short(cand.argsHash)}).`,
        ),
  credential_refreshed: ({ prev, cand, ev, tool }) =>
    cand.credentialVersion > prev.credentialVersion
      ? allow(
          ev,
          `Allowed ${tool}: the credential version rose from ${prev.credentialVersion} to ${cand.credentialVersion}.`,
        )
      : refuse(
          'credential_not_newer',
          `Refused ${tool}: credential_refreshed was claimed but version ${cand.credentialVersion} is not newer than ${prev.credentialVersion}.`,
        ),
  approval_granted: ({ prev, cand, ev, tool }) => {
    const before = prev.grantVersion ?? 0;
    const granted = cand.grantVersion ?? 0;
    return granted > before
      ? allow(ev, `Allowed ${tool}: a person approved this exact call (grant ${before} → ${granted}).`)
      : refuse('no_new_grant', `Refused ${tool}: approval_granted was claimed but no new grant exists (${granted}).`);
  },
  tool_changed: ({ prev, cand, ev, tool }) =>
    cand.tool !== prev.tool
      ? allow(ev, `Allowed ${tool}: the tool changed from ${JSON.stringify(prev.tool)}.`)
      : refuse('tool_unchanged', `Refused ${tool}: tool_changed was claimed but it is the same tool.`),
  state_verified: ({ ev, tool }) => {
    if (ev.externalState === 'not_applied') {
      return allow(ev, `Allowed ${tool}: a lookup verified that the previous attempt was not applied.`);
    }
    return ev.externalState === 'applied'
      ? refuse(
          'already_applied',
          `Refused ${tool}: a lookup found the previous attempt applied; return its result instead of running it again.`,
        )
      : refuse(
          'state_unknown',
          `Refused ${tool}: a lookup could not tell whether the previous attempt was applied; it needs human review.`,
        );
  },
});

function allow(evidence: ChangeEvidence, message: string): GateDecision {
  return Object.freeze({ allowed: true, evidence: Object.freeze({ ...evidence }), message });
}

function refuse(reason: GateRefusal, message: string): GateDecision {
  return Object.freeze({ allowed: false, reason, message });
}

function short(hash: string): string {
  return hash.slice(0, 12);
}
