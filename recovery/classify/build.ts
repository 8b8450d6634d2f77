/**
 * Assembling a `ToolFailure` from a classifier's draft: fills in the call's identity, enforces the contract's
 * invariants, validates against `toolFailureSchema()`, freezes, and marks the result valid (recovery/valid-failure.ts).
 * Pure: no I/O.
 */
import {
  ERROR_CODE_PATTERN,
  FailureClass,
  FINGERPRINT_PATTERN,
  FailureReason,
  MAX_PUBLIC_MESSAGE_CHARS,
  MAX_RECEIVED_CHARS,
  Phase,
  toolFailureSchema,
} from '../failure';
import { redact } from '../redact';
import { pathNamesSecret } from '../redact-keys';
import { markValid } from '../valid-failure';
import type { FieldIssue, ToolFailure } from '../failure';
import type { CallContext } from './context';
import { PublicPart } from './public-parts';
import { finishPublicMessage, pathSegment, stripControls } from './text';

/** A classifier's answer before the call's identity is added. */
export interface FailureDraft {
  class: FailureClass;
  reason: FailureReason;
  phase: Phase;
  retryable: boolean;
  replaySafe: boolean;
  retryAfterMs?: number;
  /** a plain string gets the whole final pass; a settled `PublicPart` (classify/public-parts.ts) is already final */
  publicMessage: string | PublicPart;
  status?: number;
  issues?: readonly FieldIssue[];
  /** The provider's structured error code; kept when it matches `ERROR_CODE_PATTERN` (lower-cased). */
  code?: string;
  /** The fingerprint of an error no fact spoke for (`FINGERPRINT_PATTERN`). */
  fingerprint?: string;
}

/** The identity fields every failure carries (a `CallContext` is one). */
export type FailureIdentity = Pick<CallContext, 'tool' | 'callId' | 'diagnosticRef'>;

/**
 * A frozen, valid `ToolFailure`. Enforces the contract (recovery/failure.ts): `retryable` only when transient and
 * replay-safe; `outcome_unknown` always in phase `commit_unknown`; `retryAfterMs` a non-negative integer;
 * `publicMessage` redacted and at most 500 characters. Should the result still fail the schema (a bug here), an
 * `unrecoverable/tool_bug` failure is returned instead, so callers never get an invalid value or an exception.
 */
export function buildFailure(id: FailureIdentity, d: FailureDraft): ToolFailure {
  const candidate: ToolFailure = {
    tool: id.tool,
    callId: id.callId,
    class: d.class,
    reason: d.reason,
    phase: d.class === FailureClass.OUTCOME_UNKNOWN ? Phase.COMMIT_UNKNOWN : d.phase,
    retryable: d.retryable && d.replaySafe && d.class === FailureClass.TRANSIENT,
    replaySafe: d.replaySafe,
    publicMessage: finalMessage(d.publicMessage),
    diagnosticRef: id.diagnosticRef,
  };
  if (d.retryAfterMs !== undefined && Number.isFinite(d.retryAfterMs) && d.retryAfterMs >= 0) {
    candidate.retryAfterMs = Math.min(Number.MAX_SAFE_INTEGER, Math.ceil(d.retryAfterMs));
  }
  if (d.status !== undefined && Number.isInteger(d.status) && d.status >= 100 && d.status <= 599)
    candidate.status = d.status;
  if (d.issues && d.issues.length > 0) candidate.issues = d.issues.map(safeIssue);
  if (d.code !== undefined) {
    const code = d.code.toLowerCase();
    // A "code" the redaction would change (a token a server put in its `code` field) is no code: it stays out.
    if (ERROR_CODE_PATTERN.test(code) && redact(d.code) === d.code) candidate.code = code;
  }
  if (d.fingerprint !== undefined && FINGERPRINT_PATTERN.test(d.fingerprint)) candidate.fingerprint = d.fingerprint;
  if (toolFailureSchema().safeParse(candidate).success) return markValid(candidate);
  return markValid(unbuildable(id, d));
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

/**
 * The draft's message in its final form. A settled composed message is already redacted, one line and without
 * controls; only a longer one than `MAX_PUBLIC_MESSAGE_CHARS` is cut, and then given the whole pass (a cut end can
 * make a match the whole text did not have).
 */
function finalMessage(message: string | PublicPart): string {
  const final = message instanceof PublicPart && message.settled;
  if (final && message.text !== '' && message.text.length <= MAX_PUBLIC_MESSAGE_CHARS) return message.text;
  return finishPublicMessage(stripControls(String(message)));
}

/** Every text of a field issue is redacted and bounded, whoever wrote it (a schema, a server body, a rule). */
function safeIssue(i: FieldIssue): FieldIssue {
  const clean = (t: string, max: number) => {
    const r = redact(stripControls(t));
    return r.length > max ? `${r.slice(0, max - 1)}…` : r;
  };
  // The value a server echoes for a field named like a secret (`password`, `api_key`) is never shown.
  const secretField = pathNamesSecret(i.path);
  return {
    path: i.path.slice(0, 16).map((seg) => {
      const s = pathSegment(seg);
      return typeof s === 'string' ? clean(s, 64) : s;
    }),
    expected: clean(i.expected, 200) || 'a valid value',
    received: secretField && i.received !== '' ? '[redacted]' : clean(i.received, MAX_RECEIVED_CHARS),
    suggestion: clean(i.suggestion, 200) || 'Fix this field.',
  };
}
