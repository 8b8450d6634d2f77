/**
 * What an error means, as one of a few kinds, and how a kind becomes a `FailureDraft`: the one meaning table of the
 * classifier. A protocol's code (recovery/classify/protocols), a client library's (recovery/classify/dialects) and a
 * word of the vocabulary (recovery/classify/words.ts) all name a kind, so "a unique violation" routes the same way
 * whether PostgreSQL, an LDAP server, MongoDB or a sentence said it.
 *
 * Phase rules (docs/DESIGN.md, "Phases": an unknown outcome is not a failure):
 * - `refused`: the server (or the client library) refused the call before applying it — a constraint, a
 *   rolled-back transaction, a throttle, a connection that never opened. Phase `dispatch`, replay-safe for any tool.
 * - `maybe`: the call may have been applied (a connection lost after the request was sent, a client-side timeout,
 *   a server fault while running it): the one phase decision of recovery/classify/sent.ts (`draftBySend`) says
 *   what it becomes. The adapter's `requestSent` wins over the code's own send fact.
 * - `returned`: the call returned and its result is unusable (`invalid_result`, phase `postcheck`); a write was
 *   applied, so only a read or a deduplicated write is replay-safe.
 * Said by words alone (no code), a kind is less sure (docs/DESIGN.md, "Facts, not libraries"): a refusal is still a
 * refusal, but a transient refusal is "may have been sent" and a result words call unusable is not proof that a
 * write was applied — words never make a write replayable.
 * Pure: no I/O.
 */
import { FailureClass, FailureReason } from '../failure';
import type { FieldIssue } from '../failure';
import type { FailureDraft } from './build';
import type { CallContext } from './context';
import { draftBySend, refusedDraft, returnedDraft } from './sent';
import type { WrappedHttp } from './wrapped-http';
import { literal, type PublicPart } from './message-parts';

/** What an error means. A const object plus a type of the same name. */
export const ErrorKind = {
  CONFLICT: 'conflict',
  ALREADY: 'already',
  PRECONDITION_FAILED: 'precondition_failed',
  NOT_FOUND: 'not_found',
  BUSINESS_RULE: 'business_rule',
  INVALID_ARGUMENT: 'invalid_argument',
  RULE_VIOLATION: 'rule_violation',
  RATE_LIMITED: 'rate_limited',
  UNAVAILABLE: 'unavailable',
  ABORTED: 'aborted',
  SERVER_TIMEOUT: 'server_timeout',
  NOT_SENT: 'not_sent',
  CONNECT_TIMEOUT: 'connect_timeout',
  CONNECTION_LOST: 'connection_lost',
  CLIENT_TIMEOUT: 'client_timeout',
  SERVER_ERROR: 'server_error',
  OUTCOME_UNKNOWN: 'outcome_unknown',
  AUTH_FAILED: 'auth_failed',
  CREDENTIAL_EXPIRED: 'credential_expired',
  FORBIDDEN: 'forbidden',
  POLICY_DENIED: 'policy_denied',
  SCOPE_MISSING: 'scope_missing',
  UNKNOWN_OPERATION: 'unknown_operation',
  QUOTA_EXHAUSTED: 'quota_exhausted',
  BILLING: 'billing',
  UNSUPPORTED: 'unsupported',
  RESOURCE_FAILURE: 'resource_failure',
  TOOL_BUG: 'tool_bug',
  PROGRAMMING_ERROR: 'programming_error',
  INVALID_RESULT: 'invalid_result',
} as const;
export type ErrorKind = (typeof ErrorKind)[keyof typeof ErrorKind];

/** When, relative to applying the call, a kind of error happens (see the module docs). */
export type PhaseRule = 'refused' | 'maybe' | 'returned';

/** A kind's class, reason, phase rule and the words the model reads. */
export interface KindRule {
  readonly class: FailureClass;
  readonly reason: FailureReason;
  readonly phase: PhaseRule;
  readonly what: PublicPart;
}

const C = FailureClass;
const R = FailureReason;
const k = (cls: FailureClass, reason: FailureReason, phase: PhaseRule, what: PublicPart): KindRule =>
  Object.freeze({ class: cls, reason, phase, what });

/** Kind → rule. One row per kind; the route table (recovery/routes.ts) then picks the action from the class. */
// prettier-ignore
export const KIND_RULES: Readonly<Record<ErrorKind, KindRule>> = Object.freeze({
  conflict: k(C.SEMANTIC_REJECTION, R.CONFLICT, 'refused', literal('the call conflicts with the current state (an existing row or resource); the same call against the same state fails again')),
  already: k(C.SEMANTIC_REJECTION, R.CONFLICT, 'refused', literal('the state the call asks for may already hold')),
  precondition_failed: k(C.SEMANTIC_REJECTION, R.PRECONDITION_FAILED, 'refused', literal('a condition of the call does not hold in the current state')),
  not_found: k(C.SEMANTIC_REJECTION, R.NOT_FOUND, 'refused', literal('something the call refers to was not found; retrying will not change that')),
  business_rule: k(C.SEMANTIC_REJECTION, R.BUSINESS_RULE, 'refused', literal('rejected by a business rule; the same call will be rejected again')),
  invalid_argument: k(C.INVALID_ARGUMENTS, R.SCHEMA, 'refused', literal('the arguments were rejected as invalid; change them')),
  rule_violation: k(C.INVALID_ARGUMENTS, R.BUSINESS_RULE, 'refused', literal('the values break a rule of the data (a constraint); change them')),
  rate_limited: k(C.TRANSIENT, R.RATE_LIMITED, 'refused', literal('rate limited or throttled')),
  unavailable: k(C.TRANSIENT, R.UNAVAILABLE, 'refused', literal('the service refused the call for now (busy, starting, read-only or out of connections)')),
  aborted: k(C.TRANSIENT, R.ABORTED, 'refused', literal('the transaction was aborted by a conflict with another one and rolled back')),
  server_timeout: k(C.TRANSIENT, R.TIMEOUT, 'refused', literal('the server stopped the call at its time limit and rolled it back')),
  not_sent: k(C.TRANSIENT, R.NETWORK, 'refused', literal('could not reach the service')),
  connect_timeout: k(C.TRANSIENT, R.TIMEOUT, 'refused', literal('the connection (or a pooled one) could not be had in time')),
  connection_lost: k(C.TRANSIENT, R.NETWORK, 'maybe', literal('the connection was lost')),
  client_timeout: k(C.TRANSIENT, R.TIMEOUT, 'maybe', literal('the call timed out')),
  server_error: k(C.TRANSIENT, R.UNAVAILABLE, 'maybe', literal('the server failed while handling the call')),
  outcome_unknown: k(C.OUTCOME_UNKNOWN, R.UNSPECIFIED, 'maybe', literal('the server cannot tell whether the call completed')),
  auth_failed: k(C.AUTHENTICATION, R.CREDENTIAL_MISSING, 'refused', literal('the credential was refused; a valid one is needed')),
  credential_expired: k(C.AUTHENTICATION, R.CREDENTIAL_EXPIRED, 'refused', literal('the credential is expired or revoked; it must be refreshed')),
  forbidden: k(C.AUTHORIZATION, R.FORBIDDEN, 'refused', literal('the caller is not allowed to do this')),
  policy_denied: k(C.AUTHORIZATION, R.POLICY_DENIED, 'refused', literal('denied by policy; do not try to work around it')),
  scope_missing: k(C.CAPABILITY_MISSING, R.NOT_PERMITTED_TOOL, 'refused', literal('the credential lacks a permission (scope) this call needs')),
  unknown_operation: k(C.CAPABILITY_MISSING, R.UNKNOWN_TOOL, 'refused', literal('the service does not know this operation')),
  quota_exhausted: k(C.UNRECOVERABLE, R.UNSPECIFIED, 'refused', literal('the account is out of quota or over a limit; waiting will not help, a person must act')),
  billing: k(C.UNRECOVERABLE, R.UNSPECIFIED, 'refused', literal('the account cannot pay for this call; a person must act')),
  unsupported: k(C.UNRECOVERABLE, R.UNSPECIFIED, 'refused', literal('the operation is not supported here')),
  resource_failure: k(C.UNRECOVERABLE, R.UNSPECIFIED, 'maybe', literal('the storage or the server failed (disk full, I/O error, corruption); an operator must act')),
  tool_bug: k(C.UNRECOVERABLE, R.TOOL_BUG, 'refused', literal('the tool sent something the service cannot run; this is a bug in the tool')),
  programming_error: k(C.UNRECOVERABLE, R.TOOL_BUG, 'maybe', literal('the tool\'s own code failed (a bug or a missing dependency); an operator must fix it')),
  invalid_result: k(C.INVALID_RESULT, R.SCHEMA_VIOLATION, 'returned', literal('the result could not be parsed; it is not a usable answer')),
});

/** A code's row in a table: the kind, the code's own name, and its send fact when the kind's is not enough. */
export interface CodeRow {
  readonly kind: ErrorKind;
  /** The spec's or library's own name for the code (`unique_violation`, `insufficientAccessRights`). */
  readonly name?: string;
  /** Overrides the kind's send fact (e.g. an error that can only happen before anything was sent). */
  readonly sent?: 'not_sent' | 'maybe_sent';
  /** The row's own source, when the table's is not enough (a section of the spec). */
  readonly source?: string;
}

/** A row builder bound to one source: `const s3 = rowsFrom(URL); s3(ErrorKind.NOT_FOUND)`. */
export function rowsFrom(source: string) {
  return (kind: ErrorKind): CodeRow => Object.freeze({ kind, source });
}

/** `table[key]` for an own key only (a code such as `constructor` must not reach `Object.prototype`). */
export function own<T>(table: Readonly<Record<string, T>>, key: string | number | undefined): T | undefined {
  if (key === undefined) return undefined;
  return Object.hasOwn(table, key) ? table[String(key)] : undefined;
}

/** The facts a table's reader found in one error. Nothing here is quoted unless it is safe (see `label`). */
export interface CodeFacts {
  /** The table that read it (`defineTool({ errors })` may name it). */
  readonly dialect: string;
  /** The kind, or `undefined` to classify `http` by the HTTP rules (a status the table does not name). */
  readonly kind?: ErrorKind;
  /**
   * What the model reads about the error: the protocol and code (`PostgreSQL 23505 unique_violation`), schema names
   * at most (a constraint, a column). Never a message, a value, SQL text, a host or a key.
   */
  readonly label: string;
  readonly sent?: 'not_sent' | 'maybe_sent';
  /** The server's requested delay, ms. */
  readonly retryAfterMs?: number;
  /** Field issues (a column, a parameter) for `invalid_argument` / `rule_violation`. */
  readonly issues?: readonly FieldIssue[];
  /** The provider's business code (`insufficient_funds`), for the ApplicationFailure type. */
  readonly code?: string;
  /** An HTTP answer the error carries (status, headers, body). */
  readonly http?: WrappedHttp;
  /** The server's own words, for protocols that speak to people (gRPC details): the failure's `serverSaid`. */
  readonly said?: string;
  /** The row's own words for the model, in place of its kind's. */
  readonly what?: string;
}

/**
 * A kind's draft for this call (see the module docs for the phase rules).
 * @param requestSent the adapter's knowledge; wins over `facts.sent`.
 * @param byWords the kind was read from words alone, not from a code.
 */
export function kindDraft(
  kind: ErrorKind,
  facts: Pick<CodeFacts, 'label' | 'sent' | 'retryAfterMs' | 'http' | 'issues' | 'code' | 'said' | 'what'>,
  requestSent: boolean | undefined,
  ctx: CallContext,
  byWords = false,
): FailureDraft {
  const rule = KIND_RULES[kind];
  const extra: Partial<FailureDraft> = {
    ...(facts.retryAfterMs === undefined ? {} : { retryAfterMs: facts.retryAfterMs }),
    ...(facts.http === undefined ? {} : { status: facts.http.status }),
    ...(facts.issues && facts.issues.length > 0 ? { issues: facts.issues } : {}),
    ...(facts.code === undefined ? {} : { code: facts.code }),
    ...(facts.said ? { serverSaid: facts.said } : {}),
  };
  const head = `${ctx.tool}: ${facts.label === '' ? '' : `${facts.label}: `}${facts.what ?? rule.what.text}`;
  const transient = rule.class === C.TRANSIENT;
  let draft: FailureDraft;
  if (rule.phase === 'returned' && (ctx.effect === 'read' || !byWords)) draft = returnedDraft({ ...rule, head }, ctx);
  else if (rule.phase === 'refused' && !(byWords && transient)) {
    const approval = rule.class === C.AUTHORIZATION && ctx.approvalCanLift;
    const reason = approval ? R.APPROVAL_REQUIRED : rule.reason;
    const meaning = { class: rule.class, reason, head: `${head}${approval ? ' without a human approval' : ''}` };
    const notSent =
      requestSent === false || facts.sent === 'not_sent' || kind === 'not_sent' || kind === 'connect_timeout';
    draft = transient ? draftBySend(meaning, notSent ? 'not_sent' : 'not_processed', ctx) : refusedDraft(meaning);
  } else {
    const sent = requestSent ?? (byWords || (facts.sent ?? 'maybe_sent') === 'maybe_sent');
    draft = draftBySend({ class: rule.class, reason: rule.reason, head }, sent ? 'maybe_sent' : 'not_sent', ctx);
  }
  return { ...extra, ...draft };
}
