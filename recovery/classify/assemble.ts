/**
 * A `ToolFailure` from a classifier's draft whose public texts are final: fills in the call's identity, enforces
 * the contract's invariants, validates against `toolFailureSchema()` and freezes. It redacts nothing: `buildFailure`
 * (recovery/classify/build.ts) brings a draft's texts to their public form first; the workflow side assembles
 * failures whose message is its own template text (workflows/activity-failure.ts), so its bundle has no redaction
 * rules (docs/DESIGN.md, "What the model sees").
 * Pure: no I/O.
 */
import { FailureClass, FINGERPRINT_PATTERN, FailureReason, Phase, toolFailureSchema } from '../failure';
import type { FieldIssue, ToolFailure } from '../failure';
import type { CallContext } from './context';
import type { PublicPart } from './message-parts';

/** A classifier's answer before the call's identity is added. */
export interface FailureDraft {
  class: FailureClass;
  reason: FailureReason;
  phase: Phase;
  retryable: boolean;
  replaySafe: boolean;
  retryAfterMs?: number;
  /** a plain string gets the whole final pass; a settled `PublicPart` (classify/message-parts.ts) is already final */
  publicMessage: string | PublicPart;
  status?: number;
  issues?: readonly FieldIssue[];
  /** The provider's structured error code; kept when it matches `ERROR_CODE_PATTERN` (lower-cased). */
  code?: string;
  /** The fingerprint of an error no fact spoke for (`FINGERPRINT_PATTERN`). */
  fingerprint?: string;
  /** The server's own words, raw: `buildFailure` quotes them (classify/text.ts `quoted`). Never in `publicMessage`. */
  serverSaid?: string | undefined;
}

/** The identity fields every failure carries (a `CallContext` is one). */
export type FailureIdentity = Pick<CallContext, 'tool' | 'callId' | 'diagnosticRef'>;

/** A draft's texts in their public form: the message, the field issues, the provider's code (lower-cased), the server's words. */
export interface PublicTexts {
  publicMessage: string;
  issues?: FieldIssue[] | undefined;
  code?: string | undefined;
  serverSaid?: string | undefined;
}

/**
 * A frozen, valid `ToolFailure` of draft `d` with texts `t`, which must already be public (redacted, bounded).
 * Enforces the contract (recovery/failure.ts): `retryable` only when transient and replay-safe; `outcome_unknown`
 * always in phase `commit_unknown`; `retryAfterMs` a non-negative integer. Should the result still fail the schema
 * (a bug of the caller), an `unrecoverable/tool_bug` failure is returned instead, so callers never get an invalid
 * value or an exception.
 */
export function assembleFailure(id: FailureIdentity, d: FailureDraft, t: PublicTexts): ToolFailure {
  const candidate: ToolFailure = {
    tool: id.tool,
    callId: id.callId,
    class: d.class,
    reason: d.reason,
    phase: d.class === FailureClass.OUTCOME_UNKNOWN ? Phase.COMMIT_UNKNOWN : d.phase,
    retryable: d.retryable && d.replaySafe && d.class === FailureClass.TRANSIENT,
    replaySafe: d.replaySafe,
    publicMessage: t.publicMessage,
    diagnosticRef: id.diagnosticRef,
  };
  if (d.retryAfterMs !== undefined && Number.isFinite(d.retryAfterMs) && d.retryAfterMs >= 0) {
    candidate.retryAfterMs = Math.min(Number.MAX_SAFE_INTEGER, Math.ceil(d.retryAfterMs));
  }
  if (d.status !== undefined && Number.isInteger(d.status) && d.status >= 100 && d.status <= 599)
    candidate.status = d.status;
  if (t.issues && t.issues.length > 0) candidate.issues = t.issues;
  if (t.code !== undefined) candidate.code = t.code;
  if (t.serverSaid !== undefined) candidate.serverSaid = t.serverSaid;
  if (d.fingerprint !== undefined && FINGERPRINT_PATTERN.test(d.fingerprint)) candidate.fingerprint = d.fingerprint;
  return deepFrozen(toolFailureSchema().safeParse(candidate).success ? candidate : unbuildable(id, d));
}

/** `f` frozen with its issues and their paths: a built failure cannot change after it was checked. */
function deepFrozen(f: ToolFailure): ToolFailure {
  for (const i of f.issues ?? []) Object.freeze(Object.freeze(i).path);
  Object.freeze(f.issues);
  return Object.freeze(f);
}

/**
 * The failure that stands in for a draft that does not validate (a bug here): a draft that says a write may have
 * been applied stays an unknown outcome (docs/DESIGN.md, "Phases"); anything else is `unrecoverable/tool_bug`.
 */
function unbuildable(id: FailureIdentity, d: FailureDraft): ToolFailure {
  const mayHaveApplied =
    d.class === FailureClass.OUTCOME_UNKNOWN || (d.phase === Phase.COMMIT_UNKNOWN && !d.replaySafe);
  return {
    tool: id.tool,
    callId: id.callId,
    class: mayHaveApplied ? FailureClass.OUTCOME_UNKNOWN : FailureClass.UNRECOVERABLE,
    reason: mayHaveApplied ? FailureReason.UNRECOGNIZED : FailureReason.TOOL_BUG,
    phase: mayHaveApplied ? Phase.COMMIT_UNKNOWN : Phase.DISPATCH,
    retryable: false,
    replaySafe: false,
    publicMessage: mayHaveApplied
      ? 'The write may or may not have been applied; its failure could not be classified.'
      : 'The tool call failed in a way that could not be classified.',
    diagnosticRef: id.diagnosticRef,
  };
}
