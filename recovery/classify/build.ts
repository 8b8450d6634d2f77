/**
 * Assembling a `ToolFailure` from a classifier's draft: brings the draft's texts (message, field issues, the
 * provider's code, the server's words as `serverSaid`) to their public form, then `assembleFailure` (recovery/classify/assemble.ts) fills in the call's
 * identity, enforces the contract's invariants, validates against `toolFailureSchema()` and freezes. Pure: no I/O.
 */
import { ERROR_CODE_PATTERN, MAX_PUBLIC_MESSAGE_CHARS, MAX_RECEIVED_CHARS } from '../failure';
import { redact } from '../redact';
import { pathNamesSecret } from '../redact-keys';
import type { FieldIssue, ToolFailure } from '../failure';
import { assembleFailure, type FailureDraft, type FailureIdentity } from './assemble';
import { PublicPart } from './message-parts';
import { stripControls } from '../untrusted';
import { finishPublicMessage, pathSegment, quoted } from './text';

export type { FailureDraft } from './assemble';

/**
 * A frozen, valid `ToolFailure`. Enforces the contract (recovery/failure.ts): `retryable` only when transient and
 * replay-safe; `outcome_unknown` always in phase `commit_unknown`; `retryAfterMs` a non-negative integer;
 * `publicMessage` redacted and at most 500 characters. Should the result still fail the schema (a bug here), an
 * `unrecoverable/tool_bug` failure is returned instead, so callers never get an invalid value or an exception.
 */
export function buildFailure(id: FailureIdentity, d: FailureDraft): ToolFailure {
  return assembleFailure(id, d, {
    publicMessage: finalMessage(d.publicMessage),
    issues: d.issues?.map(safeIssue),
    code: d.code === undefined ? undefined : publicCode(d.code),
    serverSaid: quoted(d.serverSaid),
  });
}

/** A provider's code, lower-cased, when it matches `ERROR_CODE_PATTERN`; `undefined` otherwise. */
function publicCode(raw: string): string | undefined {
  const code = raw.toLowerCase();
  // A "code" the redaction would change (a token a server put in its `code` field) is no code: it stays out.
  return ERROR_CODE_PATTERN.test(code) && redact(raw) === raw ? code : undefined;
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
  const said = quoted(i.serverSaid);
  return {
    path: i.path.slice(0, 16).map((seg) => {
      const s = pathSegment(seg);
      return typeof s === 'string' ? clean(s, 64) : s;
    }),
    expected: clean(i.expected, 200) || 'a valid value',
    received: secretField && i.received !== '' ? '[redacted]' : clean(i.received, MAX_RECEIVED_CHARS),
    suggestion: clean(i.suggestion, 200) || 'Fix this field.',
    ...(said === undefined ? {} : { serverSaid: said }),
  };
}
