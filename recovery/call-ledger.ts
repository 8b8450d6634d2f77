/**
 * The call ledger: what the gate and no-progress detection need to remember across calls of one run.
 * Plain JSON, so workflow code can carry it across continue-as-new.
 *
 * - `failures`: the last failed attempt of each (tool, argsHash), as the gate's `AttemptRecord`. A success of the
 *   same call clears it.
 * - `outcomes`: how often each (tool, argsHash, outcome digest) was seen. Loop detection keyed only on tool and
 *   arguments misses a call that "succeeds" with the same useless result, so the key includes the result; 2
 *   identical outcomes mean no progress (docs/DESIGN.md, "The Change-before-Retry gate").
 *
 * Pure: every function returns a new frozen ledger.
 */
import {
  allowNextAttempt,
  type AttemptRecord,
  type CandidateCall,
  type ChangeEvidence,
  type GateDecision,
} from './gate';

/**
 * Identical (tool, args, outcome) observations that mean no progress (docs/DESIGN.md, "The Change-before-Retry gate").
 */
export const NO_PROGRESS_REPEATS = 2;

/**
 * What the Change-before-Retry gate remembers of the run's calls: the last failure per call signature (tool,
 * argument hash, credential and grant versions) and the successes counted per signature.
 */
export type CallLedger = Readonly<{
  failures: Readonly<Record<string, AttemptRecord>>;
  outcomes: Readonly<Record<string, number>>;
}>;

export const EMPTY_CALL_LEDGER: CallLedger = Object.freeze({
  failures: Object.freeze({}),
  outcomes: Object.freeze({}),
});

const callKey = (tool: string, argsHash: string) => `${tool}\u0000${argsHash}`;

/** The last failed attempt of this exact call, if any. */
export function lastFailure(ledger: CallLedger, tool: string, argsHash: string): AttemptRecord | undefined {
  return Object.hasOwn(ledger.failures, callKey(tool, argsHash)) ? ledger.failures[callKey(tool, argsHash)] : undefined;
}

/**
 * Records a failed attempt (replacing the previous one of the same call). The entry moves to the end: both maps are
 * in the order of their last entry, newest last, so a compaction that keeps the newest entries keeps the failures
 * and outcomes seen most recently (workflows/router/compact.ts).
 */
export function recordFailure(ledger: CallLedger, attempt: AttemptRecord): CallLedger {
  return freeze({ ...ledger, failures: movedLast(ledger.failures, callKey(attempt.tool, attempt.argsHash), attempt) });
}

/** Forgets the failure of a call that has since succeeded (or was verified applied). */
export function clearFailure(ledger: CallLedger, tool: string, argsHash: string): CallLedger {
  const failures = { ...ledger.failures };
  delete failures[callKey(tool, argsHash)];
  return freeze({ ...ledger, failures });
}

/**
 * Counts one observed outcome of a call. `outcomeDigest` identifies the outcome (e.g. `argsHash` of the result
 * value, or of the failure's class, reason and status).
 * @returns the new ledger and how often this exact outcome has now been seen (1 the first time).
 */
export function recordOutcome(
  ledger: CallLedger,
  tool: string,
  argsHash: string,
  outcomeDigest: string,
): { ledger: CallLedger; seen: number } {
  const key = `${callKey(tool, argsHash)}\u0000${outcomeDigest}`;
  const seen = (ledger.outcomes[key] ?? 0) + 1;
  return { ledger: freeze({ ...ledger, outcomes: movedLast(ledger.outcomes, key, seen) }), seen };
}

/** A copy of `map` with `key` set to `value` as its last entry. */
function movedLast<V>(map: Readonly<Record<string, V>>, key: string, value: V): Record<string, V> {
  const out: Record<string, V> = { ...map };
  delete out[key];
  out[key] = value;
  return out;
}

/**
 * The evidence that is TRUE for running `candidate` again after `previous`, found from the records rather than
 * claimed: a changed tool, changed arguments, a newer grant (a person approved this call) or credential, or an elapsed backoff after a
 * transient failure. `state_verified` comes only from a reconcile lookup, so it is passed in.
 * Returns null when nothing changed.
 */
export function observedEvidence(
  previous: AttemptRecord,
  candidate: CandidateCall,
  nowMs: number,
  verified?: ChangeEvidence,
): ChangeEvidence | null {
  if (candidate.tool !== previous.tool) return { kind: 'tool_changed' };
  if (candidate.argsHash !== previous.argsHash) return { kind: 'args_changed' };
  if (verified) return verified;
  if ((candidate.grantVersion ?? 0) > (previous.grantVersion ?? 0)) return { kind: 'approval_granted' };
  if (candidate.credentialVersion > previous.credentialVersion) return { kind: 'credential_refreshed' };
  if (
    previous.failure.class === 'transient' &&
    previous.earliestRetryAtMs !== undefined &&
    nowMs >= previous.earliestRetryAtMs
  ) {
    return { kind: 'time_elapsed' };
  }
  return null;
}

/** The gate's decision for re-running an identical call, with the evidence found in the records. */
export function gateIdenticalCall(
  previous: AttemptRecord,
  candidate: CandidateCall,
  nowMs: number,
  verified?: ChangeEvidence,
): GateDecision {
  return allowNextAttempt(previous, candidate, observedEvidence(previous, candidate, nowMs, verified), nowMs);
}

function freeze(ledger: { failures: Record<string, AttemptRecord>; outcomes: Record<string, number> }): CallLedger {
  return Object.freeze({ failures: Object.freeze(ledger.failures), outcomes: Object.freeze(ledger.outcomes) });
}
