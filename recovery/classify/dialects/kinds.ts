/**
 * What an error of a client library means, as one of a few kinds, and how a kind becomes a `FailureDraft`.
 *
 * Every family's table (postgres.ts, aws.ts, grpc.ts, …) maps its codes to an `ErrorKind`; this one table
 * (`KIND_RULES`) maps a kind to a class, a reason and a phase rule, so the routing of "a unique violation" is the
 * same whether PostgreSQL, MySQL, SQLite, MongoDB or DynamoDB said it.
 *
 * Phase rules (docs/DESIGN.md, "Phases": an unknown outcome is not a failure):
 * - `refused`: the server (or the client library) refused the call before applying it — a constraint, a
 *   rolled-back transaction, a throttle, a connection that never opened. Phase `dispatch`, replay-safe for any tool.
 * - `maybe`: the call may have been applied (a connection lost after the request was sent, a client-side timeout,
 *   a server fault while running it): the one phase decision of recovery/classify/sent.ts (`draftBySend`) says
 *   what it becomes. The adapter's `requestSent` wins over the library's own send fact.
 * - `returned`: the call returned and its result is unusable (`invalid_result`, phase `postcheck`); a write was
 *   applied, so only a read or a deduplicated write is replay-safe.
 * Pure: no I/O.
 */
import { FailureClass, FailureReason, Phase } from '../../failure';
import type { FieldIssue } from '../../failure';
import type { FailureDraft } from '../build';
import type { CallContext } from '../context';
import { appliedWriteNote } from '../result';
import { draftBySend, refusedDraft } from '../sent';
import type { WrappedHttp } from '../wrapped-http';

/** What a library error means. A const object plus a type of the same name. */
export const ErrorKind = {
  CONFLICT: 'conflict',
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
  QUOTA_EXHAUSTED: 'quota_exhausted',
  UNSUPPORTED: 'unsupported',
  RESOURCE_FAILURE: 'resource_failure',
  TOOL_BUG: 'tool_bug',
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
  readonly what: string;
}

const C = FailureClass;
const R = FailureReason;
const k = (cls: FailureClass, reason: FailureReason, phase: PhaseRule, what: string): KindRule =>
  Object.freeze({ class: cls, reason, phase, what });

/** Kind → rule. One row per kind; the route table (recovery/routes.ts) then picks the action from the class. */
// prettier-ignore
export const KIND_RULES: Readonly<Record<ErrorKind, KindRule>> = Object.freeze({
  conflict: k(C.SEMANTIC_REJECTION, R.CONFLICT, 'refused', 'the call conflicts with the current state (an existing row or resource); the same call against the same state fails again'),
  precondition_failed: k(C.SEMANTIC_REJECTION, R.PRECONDITION_FAILED, 'refused', 'a condition of the call does not hold in the current state'),
  not_found: k(C.SEMANTIC_REJECTION, R.NOT_FOUND, 'refused', 'the resource was not found; retrying will not change that'),
  business_rule: k(C.SEMANTIC_REJECTION, R.BUSINESS_RULE, 'refused', 'rejected by a business rule; the same call will be rejected again'),
  invalid_argument: k(C.INVALID_ARGUMENTS, R.SCHEMA, 'refused', 'the arguments were rejected as invalid; change them'),
  rule_violation: k(C.INVALID_ARGUMENTS, R.BUSINESS_RULE, 'refused', 'the values break a rule of the data (a constraint); change them'),
  rate_limited: k(C.TRANSIENT, R.RATE_LIMITED, 'refused', 'rate limited or throttled; nothing was applied'),
  unavailable: k(C.TRANSIENT, R.UNAVAILABLE, 'refused', 'the service refused the call for now (busy, starting, read-only or out of connections); nothing was applied'),
  aborted: k(C.TRANSIENT, R.ABORTED, 'refused', 'the transaction was aborted by a conflict with another one and rolled back; nothing was applied'),
  server_timeout: k(C.TRANSIENT, R.TIMEOUT, 'refused', 'the server stopped the call at its time limit and rolled it back; nothing was applied'),
  not_sent: k(C.TRANSIENT, R.NETWORK, 'refused', 'could not reach the service; the request was not sent'),
  connect_timeout: k(C.TRANSIENT, R.TIMEOUT, 'refused', 'the connection (or a pooled one) could not be had in time; the request was not sent'),
  connection_lost: k(C.TRANSIENT, R.NETWORK, 'maybe', 'the connection was lost'),
  client_timeout: k(C.TRANSIENT, R.TIMEOUT, 'maybe', 'the call timed out'),
  server_error: k(C.TRANSIENT, R.UNAVAILABLE, 'maybe', 'the server failed while handling the call'),
  outcome_unknown: k(C.OUTCOME_UNKNOWN, R.UNSPECIFIED, 'maybe', 'the server cannot tell whether the call completed'),
  auth_failed: k(C.AUTHENTICATION, R.CREDENTIAL_MISSING, 'refused', 'the credential was refused; a valid one is needed'),
  credential_expired: k(C.AUTHENTICATION, R.CREDENTIAL_EXPIRED, 'refused', 'the credential is expired or revoked; it must be refreshed'),
  forbidden: k(C.AUTHORIZATION, R.FORBIDDEN, 'refused', 'the caller is not allowed to do this'),
  quota_exhausted: k(C.UNRECOVERABLE, R.UNSPECIFIED, 'refused', 'the account is out of quota; waiting will not help'),
  unsupported: k(C.UNRECOVERABLE, R.UNSPECIFIED, 'refused', 'the operation is not supported here'),
  resource_failure: k(C.UNRECOVERABLE, R.UNSPECIFIED, 'maybe', 'the storage or the server failed (disk full, I/O error, corruption); an operator must act'),
  tool_bug: k(C.UNRECOVERABLE, R.TOOL_BUG, 'refused', 'the tool sent something the service cannot run; this is a bug in the tool'),
  invalid_result: k(C.INVALID_RESULT, R.SCHEMA_VIOLATION, 'returned', 'the result could not be parsed; it is not a usable answer'),
});

/** Every dialect the classifier reads. A const object plus a type of the same name. */
export const Dialect = {
  POSTGRES: 'postgres',
  MYSQL: 'mysql',
  SQLITE: 'sqlite',
  PRISMA: 'prisma',
  MONGODB: 'mongodb',
  REDIS: 'redis',
  GRPC: 'grpc',
  AWS: 'aws',
  STRIPE: 'stripe',
  GOOGLE: 'google',
  OPENAI: 'openai',
  ANTHROPIC: 'anthropic',
  AXIOS: 'axios',
  NODE: 'node',
} as const;
export type Dialect = (typeof Dialect)[keyof typeof Dialect];
export const DIALECTS = Object.values(Dialect) as [Dialect, ...Dialect[]];

/** One row of a family's table: the kind, the library's name for the code, and where the row comes from. */
export interface DialectRow {
  readonly kind: ErrorKind;
  /** The library's or server's own name for the code (`unique_violation`, `ER_DUP_ENTRY`). */
  readonly name?: string;
  /** Overrides the kind's send fact (e.g. an error that can only happen before anything was sent). */
  readonly sent?: 'not_sent' | 'maybe_sent';
  /** The documentation or error-code list this row comes from. */
  readonly source: string;
}

/** A row builder bound to one source: `const pg = rowsFrom(URL); pg(K.CONFLICT, 'unique_violation')`. */
export function rowsFrom(source: string) {
  return (kind: ErrorKind, name?: string, sent?: 'not_sent' | 'maybe_sent'): DialectRow =>
    Object.freeze({ kind, source, ...(name === undefined ? {} : { name }), ...(sent === undefined ? {} : { sent }) });
}

/** `table[key]` for an own key only (a code such as `constructor` must not reach `Object.prototype`). */
export function own<T>(table: Readonly<Record<string, T>>, key: string | number | undefined): T | undefined {
  if (key === undefined) return undefined;
  return Object.prototype.hasOwnProperty.call(table, key) ? table[String(key)] : undefined;
}

/** The facts a family's reader found in one error. Nothing here is quoted unless it is safe (see `label`). */
export interface DialectFacts {
  readonly dialect: Dialect;
  /** The kind, or `undefined` to classify `http` by the HTTP rules (a status the family's table does not name). */
  readonly kind?: ErrorKind;
  /**
   * What the model reads about the error: the family and code (`PostgreSQL 23505 unique_violation`), schema names
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
  /** An HTTP answer the library carries (status, headers, body). */
  readonly http?: WrappedHttp;
  /** The server's own words, for families that speak to people (gRPC details): the failure's `serverSaid`. */
  readonly said?: string;
}

/** A family's reader: the facts of one error of the cause chain, or `undefined` when it is not that family's. */
export interface DialectReader {
  readonly dialect: Dialect;
  /**
   * @param node one error of the cause chain.
   * @param declared the tool named this dialect (`defineTool({ errors })`): shapes too loose to claim on their
   *   own (a bare SQLSTATE `code`, a codeless message) are read too.
   */
  read(node: unknown, declared: boolean): DialectFacts | undefined;
}

/**
 * A kind's draft for this call (see the module docs for the phase rules).
 * @param requestSent the adapter's knowledge; wins over `facts.sent`.
 */
export function kindDraft(
  kind: ErrorKind,
  facts: DialectFacts,
  requestSent: boolean | undefined,
  ctx: CallContext,
): FailureDraft {
  const rule = KIND_RULES[kind];
  const extra: Partial<FailureDraft> = {
    ...(facts.retryAfterMs === undefined ? {} : { retryAfterMs: facts.retryAfterMs }),
    ...(facts.http === undefined ? {} : { status: facts.http.status }),
    ...(facts.issues && facts.issues.length > 0 ? { issues: facts.issues } : {}),
    ...(facts.code === undefined ? {} : { code: facts.code }),
    ...(facts.said ? { serverSaid: facts.said } : {}),
  };
  const head = `${ctx.tool}: ${facts.label}: ${rule.what}`;
  if (rule.phase === 'returned') return { ...extra, ...returned(rule, ctx, head) };
  if (rule.phase === 'refused') {
    const approval = rule.class === C.AUTHORIZATION && ctx.approvalCanLift;
    const meaning = {
      class: rule.class,
      reason: approval ? R.APPROVAL_REQUIRED : rule.reason,
      head: `${head}${approval ? ' without a human approval' : ''}`,
    };
    return { ...extra, ...refusedDraft(meaning) };
  }
  const sent = requestSent ?? (facts.sent ?? 'maybe_sent') === 'maybe_sent';
  return {
    ...extra,
    ...draftBySend({ class: rule.class, reason: rule.reason, head }, sent ? 'maybe_sent' : 'not_sent', ctx),
  };
}

/**
 * A `returned` kind: the call came back, so a write was applied; replaying it is safe only for a read or a write its
 * receiver deduplicates, as for a result that fails the output schema (recovery/classify/result.ts).
 */
function returned(rule: KindRule, ctx: CallContext, head: string): FailureDraft {
  const replaySafe = ctx.effect === 'read' || ctx.deduplicates;
  return { ...base(rule), phase: Phase.POSTCHECK, replaySafe, publicMessage: `${head}.${appliedWriteNote(ctx)}` };
}

function base(rule: KindRule): Pick<FailureDraft, 'class' | 'reason' | 'retryable'> {
  return { class: rule.class, reason: rule.reason, retryable: rule.class === C.TRANSIENT };
}
