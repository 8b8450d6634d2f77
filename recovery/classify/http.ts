/**
 * HTTP answers → ToolFailure.
 *
 * One table (`STATUS_RULES`) maps a status to a rule; statuses not in it fall to their family (`4xx` →
 * `client_error`, `5xx` → `server_error`). Each rule is one small function of the status, headers, body and call.
 *
 * Sources:
 * - RFC 9110 §15 (status semantics): 408 and 503 say the server did not process the request; 425 (RFC 8470 §5.2)
 *   says it refused early data; 421 (§15.5.20) may be retried on a new connection whatever the method; a 4xx
 *   rejects the request (nothing applied), so it is replay-safe. 507 (RFC 4918), 508 (RFC 5842), 511 (RFC 6585)
 *   and 530 (Cloudflare) say the operation was not performed and time alone will not fix it; 505 and 510 are the
 *   client's protocol bug.
 * - RFC 6585 §4 (429) and RFC 9110 §10.2.3 (`Retry-After`), retry-after.ts and rate-limit.ts for the headers.
 *   GitHub answers an exhausted quota with 403 + `X-RateLimit-Remaining: 0`: that is a rate limit, not a denial.
 * - RFC 6750 §3.1: a 401 with `WWW-Authenticate: Bearer error="invalid_token"` means the token expired or was
 *   revoked; re-authentication (not time) cures a 401, and it was rejected before it ran, so replay is safe.
 * - docs/DESIGN.md, "Phases" and "Routes": a 5xx from a write whose commit is unknown is `outcome_unknown`
 *   (reconcile, never a blind retry), unless the receiver deduplicates by idempotency key; 403 → approval or stop,
 *   never retry.
 * - docs/DESIGN.md, "Failure classes and the two axes": `Retry-After` survives as `retryAfterMs`; a 404 is not
 *   transient; a 401 is `credential_expired`; `422 {"code":"insufficient_funds"}` is a business rejection, one
 *   attempt.
 *
 * `publicMessage` names the status and may quote the body's `code`/`message`, redacted and cut to 200
 * characters. Headers are never echoed.
 * Pure: `ctx.nowMs` is the clock.
 */
import { FailureClass, FailureReason, Phase } from '../failure';
import type { ToolFailure } from '../failure';
import { readBodyFacts, serverDetail, type BodyFacts } from './body';
import { buildFailure, type FailureDraft } from './build';
import type { CallContext } from './context';
import { ClassifyError, ClassifyErrorCode } from './errors';
import { headerValues } from './headers';
import { readRateLimit, type RateLimitSignals } from './rate-limit';
import { retryAfterMsFromHeaders } from './retry-after';
import { MAX_SERVER_DETAIL_CHARS, summarizeIssues } from './text';
import { issuesNamedIn } from './named-fields';
import { saysAlready } from '../postcondition';

/** How a status is handled. A const object plus a type of the same name. */
export const HttpRule = {
  BAD_REQUEST: 'bad_request',
  UNAUTHORIZED: 'unauthorized',
  FORBIDDEN: 'forbidden',
  NOT_FOUND: 'not_found',
  GONE: 'gone',
  CONFLICT: 'conflict',
  PRECONDITION_FAILED: 'precondition_failed',
  UNPROCESSABLE: 'unprocessable',
  TOO_LARGE: 'too_large',
  NOT_PROCESSED: 'not_processed',
  RATE_LIMITED: 'rate_limited',
  LEGAL_BLOCK: 'legal_block',
  PROTOCOL_BUG: 'protocol_bug',
  CLIENT_ERROR: 'client_error',
  UNAVAILABLE: 'unavailable',
  NOT_IMPLEMENTED: 'not_implemented',
  NOT_PERFORMED: 'not_performed',
  SERVER_ERROR: 'server_error',
} as const;
export type HttpRule = (typeof HttpRule)[keyof typeof HttpRule];

const H = HttpRule;

/** Status → rule. A status not listed falls to its family: 4xx `client_error`, 5xx `server_error`. */
export const STATUS_RULES: Readonly<Record<number, HttpRule>> = Object.freeze({
  400: H.BAD_REQUEST,
  401: H.UNAUTHORIZED,
  403: H.FORBIDDEN,
  404: H.NOT_FOUND,
  405: H.PROTOCOL_BUG, // the adapter used a method the endpoint does not allow
  406: H.PROTOCOL_BUG, // the adapter's Accept cannot be served
  408: H.NOT_PROCESSED, // RFC 9110 §15.5.9: the server timed out waiting for the request
  409: H.CONFLICT,
  410: H.GONE,
  411: H.PROTOCOL_BUG, // Length Required
  412: H.PRECONDITION_FAILED,
  413: H.TOO_LARGE, // the arguments are too large: a smaller call can pass
  414: H.TOO_LARGE,
  415: H.PROTOCOL_BUG, // the adapter sent a media type the endpoint does not take
  421: H.NOT_PROCESSED, // RFC 9110 §15.5.20: Misdirected Request; may be retried on a new connection, any method
  422: H.UNPROCESSABLE,
  425: H.NOT_PROCESSED, // RFC 8470 §5.2: Too Early, the request was not processed
  428: H.PRECONDITION_FAILED, // RFC 6585 §3: Precondition Required
  429: H.RATE_LIMITED,
  431: H.TOO_LARGE,
  451: H.LEGAL_BLOCK, // RFC 7725: unavailable for legal reasons
  500: H.SERVER_ERROR,
  501: H.NOT_IMPLEMENTED, // the operation is not supported: time will not change that
  502: H.SERVER_ERROR,
  503: H.UNAVAILABLE, // RFC 9110 §15.6.4: not processed, temporarily overloaded or down
  504: H.SERVER_ERROR,
  505: H.PROTOCOL_BUG, // RFC 9110 §15.6.6: the HTTP version the client used is not supported
  507: H.NOT_PERFORMED, // RFC 4918 §11.5: Insufficient Storage; the method could not be performed, nothing stored
  508: H.NOT_PERFORMED, // RFC 5842 §7.2: Loop Detected; the server terminated the whole operation
  510: H.PROTOCOL_BUG, // RFC 2774 §7: Not Extended; the request lacks a mandatory extension
  511: H.NOT_PERFORMED, // RFC 6585 §6: Network Authentication Required; a captive portal, the origin never saw it
  529: H.UNAVAILABLE, // Anthropic API docs, "Errors": overloaded_error, temporarily overloaded
  530: H.NOT_PERFORMED, // Cloudflare docs, "Error 530" (with a 1xxx error): the origin could not be reached
});

/** What a `not_performed` status means, in the model's words. */
const NOT_PERFORMED_TEXT: Readonly<Record<number, string>> = Object.freeze({
  507: 'the server has no storage left for this request; nothing was stored, and it must not be repeated until an operator acts',
  508: 'the server detected a loop and stopped the whole operation',
  511: 'the network requires a sign-in before any request reaches the service',
  530: 'the service could not be reached behind its proxy',
});

/** Body codes that mean "rate limited" whatever the status (lower case). */
const RATE_LIMIT_CODES: ReadonlySet<string> = new Set([
  'rate_limited',
  'rate_limit_exceeded',
  'ratelimitexceeded',
  'rate_limit',
  'too_many_requests',
  'throttled',
  'throttling',
  'throttlingexception',
  'slowdown',
  'slow_down',
  'requestlimitexceeded',
  'secondary_rate_limit',
]);
/** Body codes on a 403 that are an explicit policy deny (lower case). */
const POLICY_DENY_CODES: ReadonlySet<string> = new Set([
  'policy_denied',
  'denied_by_policy',
  'policy_violation',
  'blocked_by_policy',
  'access_denied_by_policy',
  'policy_deny',
]);
/** Body codes on a 401 that mean the credential expired or was revoked (lower case). */
const EXPIRED_TOKEN_CODES: ReadonlySet<string> = new Set(['invalid_token', 'token_expired', 'expired_token']);
/** A 429 whose body says the account is out of quota (billing), not out of rate: waiting does not help. */
const QUOTA_EXHAUSTED_CODES: ReadonlySet<string> = new Set(['insufficient_quota', 'billing_hard_limit_reached']);

/** The rule for a status: its row in `STATUS_RULES`, else its family's. */
export function ruleForStatus(status: number): HttpRule {
  return STATUS_RULES[status] ?? (status >= 500 ? H.SERVER_ERROR : H.CLIENT_ERROR);
}

interface Facts {
  status: number;
  headers: unknown;
  body: BodyFacts;
  ctx: CallContext;
  retryAfterMs: number | undefined;
  rateLimit: RateLimitSignals;
}

/** `" Server said: …"` when the body has words of its own. */
function said(f: Facts): string {
  const detail = serverDetail(f.body, MAX_SERVER_DETAIL_CHARS);
  return detail === undefined ? '' : ` Server said: "${detail}".`;
}

function rejected(f: Facts, cls: FailureClass, reason: FailureReason, what: string): FailureDraft {
  return {
    class: cls,
    reason,
    phase: Phase.DISPATCH,
    retryable: false,
    replaySafe: true,
    status: f.status,
    publicMessage: `${f.ctx.tool}: HTTP ${f.status}, ${what}.${said(f)}`,
  };
}

function rateLimited(f: Facts): FailureDraft {
  const delayMs = f.retryAfterMs ?? f.rateLimit.resetMs;
  const draft: FailureDraft = {
    class: FailureClass.TRANSIENT,
    reason: FailureReason.RATE_LIMITED,
    phase: Phase.DISPATCH,
    retryable: true,
    replaySafe: true,
    status: f.status,
    publicMessage: `${f.ctx.tool}: HTTP ${f.status}, rate limited${delayMs === undefined ? '' : `; retry after ${delayMs} ms`}.${said(f)}`,
  };
  if (delayMs !== undefined) draft.retryAfterMs = delayMs;
  return draft;
}

function isRateLimitedByHeadersOrBody(f: Facts): boolean {
  return (
    f.retryAfterMs !== undefined ||
    f.rateLimit.exhausted ||
    (f.body.code !== undefined && RATE_LIMIT_CODES.has(f.body.code))
  );
}

function invalidArguments(f: Facts, fallback: () => FailureDraft): FailureDraft {
  let issues = f.body.fieldIssues;
  // A plain message that names an input field is about that field, unless it says the state already holds.
  if (issues.length === 0 && !saysAlready(f.body.message, f.ctx.alreadyPhrases)) {
    issues = issuesNamedIn(f.body.message, f.ctx.inputFields ?? []);
  }
  if (issues.length === 0) return fallback();
  const n = issues.length;
  return {
    class: FailureClass.INVALID_ARGUMENTS,
    reason: FailureReason.SCHEMA,
    phase: Phase.DISPATCH,
    retryable: false,
    replaySafe: true,
    status: f.status,
    issues,
    publicMessage: `${f.ctx.tool}: HTTP ${f.status}, ${n} invalid argument${n === 1 ? '' : 's'}: ${summarizeIssues(issues)}.`,
  };
}

function unauthorized(f: Facts): FailureDraft {
  const challenge = headerValues(f.headers, 'www-authenticate').join(', ');
  const expired =
    /\berror\s*=\s*"?invalid_token\b/i.test(challenge) ||
    (f.body.code !== undefined && EXPIRED_TOKEN_CODES.has(f.body.code));
  return expired
    ? rejected(
        f,
        FailureClass.AUTHENTICATION,
        FailureReason.CREDENTIAL_EXPIRED,
        'the credential is expired or revoked; it must be refreshed',
      )
    : rejected(
        f,
        FailureClass.AUTHENTICATION,
        FailureReason.CREDENTIAL_MISSING,
        'the request was not authenticated; a valid credential is needed',
      );
}

function forbidden(f: Facts): FailureDraft {
  if (isRateLimitedByHeadersOrBody(f)) return rateLimited(f);
  if (f.body.code !== undefined && POLICY_DENY_CODES.has(f.body.code)) {
    return rejected(
      f,
      FailureClass.AUTHORIZATION,
      FailureReason.POLICY_DENIED,
      'denied by policy; do not try to work around it',
    );
  }
  if (f.ctx.approvalCanLift) {
    return rejected(
      f,
      FailureClass.AUTHORIZATION,
      FailureReason.APPROVAL_REQUIRED,
      'not allowed without a human approval',
    );
  }
  return rejected(f, FailureClass.AUTHORIZATION, FailureReason.FORBIDDEN, 'the caller is not allowed to do this');
}

function notProcessed(f: Facts, reason: FailureReason, what: string): FailureDraft {
  const draft: FailureDraft = {
    class: FailureClass.TRANSIENT,
    reason,
    phase: Phase.DISPATCH,
    retryable: true,
    replaySafe: true,
    status: f.status,
    publicMessage: `${f.ctx.tool}: HTTP ${f.status}, ${what}; the request was not processed${
      f.retryAfterMs === undefined ? '' : `; retry after ${f.retryAfterMs} ms`
    }.${said(f)}`,
  };
  if (f.retryAfterMs !== undefined) draft.retryAfterMs = f.retryAfterMs;
  return draft;
}

/** 500, 502, 504 and unlisted 5xx: the request reached the server, which may have acted on it. */
function serverError(f: Facts): FailureDraft {
  const reason = f.status === 504 ? FailureReason.TIMEOUT : FailureReason.UNAVAILABLE;
  const write = f.ctx.effect === 'write';
  const base = { reason, status: f.status } as const;
  let draft: FailureDraft;
  if (!write) {
    draft = {
      ...base,
      class: FailureClass.TRANSIENT,
      phase: Phase.DISPATCH,
      retryable: true,
      replaySafe: true,
      publicMessage: `${f.ctx.tool}: HTTP ${f.status}, server error; the read can be retried.${said(f)}`,
    };
  } else if (f.ctx.deduplicates) {
    draft = {
      ...base,
      class: FailureClass.TRANSIENT,
      phase: Phase.COMMIT_UNKNOWN,
      retryable: true,
      replaySafe: true,
      publicMessage: `${f.ctx.tool}: HTTP ${f.status}, server error after the write was sent; the service deduplicates it, so it can be retried with the same idempotency key.${said(f)}`,
    };
  } else {
    draft = {
      ...base,
      class: FailureClass.OUTCOME_UNKNOWN,
      phase: Phase.COMMIT_UNKNOWN,
      retryable: false,
      replaySafe: false,
      publicMessage: `${f.ctx.tool}: HTTP ${f.status}, server error after the write was sent; it may or may not have been applied. Check its status before any new attempt.${said(f)}`,
    };
  }
  if (f.retryAfterMs !== undefined) draft.retryAfterMs = f.retryAfterMs;
  return draft;
}

const C = FailureClass;
const R = FailureReason;

/** Rule → draft. One function per rule. */
const RULES: Readonly<Record<HttpRule, (f: Facts) => FailureDraft>> = Object.freeze({
  bad_request: (f) =>
    invalidArguments(f, () => rejected(f, C.INVALID_ARGUMENTS, R.SCHEMA, 'the arguments were rejected as invalid')),
  unauthorized,
  forbidden,
  not_found: (f) =>
    rejected(
      f,
      C.SEMANTIC_REJECTION,
      R.NOT_FOUND,
      'the resource or endpoint was not found; retrying will not change that',
    ),
  gone: (f) => rejected(f, C.SEMANTIC_REJECTION, R.GONE, 'the resource is gone for good'),
  conflict: (f) =>
    rejected(f, C.SEMANTIC_REJECTION, R.CONFLICT, 'the call conflicts with the current state of the resource'),
  precondition_failed: (f) =>
    rejected(f, C.SEMANTIC_REJECTION, R.PRECONDITION_FAILED, 'a precondition of the call does not hold'),
  unprocessable: (f) =>
    invalidArguments(f, () =>
      rejected(
        f,
        C.SEMANTIC_REJECTION,
        R.BUSINESS_RULE,
        'rejected by a business rule; the same call will be rejected again',
      ),
    ),
  too_large: (f) => rejected(f, C.INVALID_ARGUMENTS, R.SCHEMA, 'the request is too large; send a smaller one'),
  not_processed: (f) =>
    notProcessed(
      f,
      f.status === 408 ? R.TIMEOUT : R.UNAVAILABLE,
      f.status === 408
        ? 'the server timed out waiting for the request'
        : f.status === 421
          ? 'the request reached a server that cannot answer for this host'
          : 'the server refused to process it yet',
    ),
  rate_limited: (f) =>
    f.body.code !== undefined && QUOTA_EXHAUSTED_CODES.has(f.body.code)
      ? rejected(f, C.UNRECOVERABLE, R.UNSPECIFIED, 'the account is out of quota; waiting will not help')
      : rateLimited(f),
  legal_block: (f) => rejected(f, C.AUTHORIZATION, R.POLICY_DENIED, 'unavailable for legal reasons'),
  protocol_bug: (f) =>
    rejected(f, C.UNRECOVERABLE, R.TOOL_BUG, 'the tool sent a request this endpoint does not accept'),
  client_error: (f) => rejected(f, C.SEMANTIC_REJECTION, R.UNSPECIFIED, 'the request was rejected'),
  unavailable: (f) =>
    f.rateLimit.exhausted || (f.body.code !== undefined && RATE_LIMIT_CODES.has(f.body.code))
      ? rateLimited(f)
      : notProcessed(f, R.UNAVAILABLE, 'the service is unavailable'),
  not_implemented: (f) => rejected(f, C.UNRECOVERABLE, R.UNSPECIFIED, 'the service does not support this operation'),
  not_performed: (f) =>
    rejected(f, C.UNRECOVERABLE, R.UNSPECIFIED, NOT_PERFORMED_TEXT[f.status] ?? 'the request was not performed'),
  server_error: serverError,
});

/**
 * Classifies a non-2xx HTTP answer.
 *
 * @param status the HTTP status. 1xx/3xx (a redirect the adapter did not follow) and values that are not an integer
 *   in 100–599 are `unrecoverable/tool_bug`: the adapter handed over something it should have handled.
 * @param headers a header record or `Headers`-like object (case-insensitive); read, never echoed.
 * @param body the parsed body or its text; JSON text is parsed.
 * @param ctx the call (validated by the caller, see `classify`).
 * @returns a frozen, valid `ToolFailure` (see the module docs for the rules).
 * @throws ClassifyError `not_a_failure` for a 2xx status.
 */
export function classifyHttp(status: number, headers: unknown, body: unknown, ctx: CallContext): ToolFailure {
  if (Number.isInteger(status) && status >= 200 && status <= 299) {
    throw new ClassifyError(ClassifyErrorCode.NOT_A_FAILURE, `classify: HTTP ${status} is a success, not a failure`);
  }
  if (!Number.isInteger(status) || status < 400 || status > 599) {
    const shown =
      Number.isInteger(status) && status >= 100 && status <= 599 ? `HTTP ${status}` : 'an invalid HTTP status';
    return buildFailure(ctx, {
      class: C.UNRECOVERABLE,
      reason: R.TOOL_BUG,
      phase: Phase.DISPATCH,
      retryable: false,
      replaySafe: ctx.effect === 'read' || ctx.deduplicates,
      ...(Number.isInteger(status) && status >= 100 && status <= 599 ? { status } : {}),
      publicMessage: `${ctx.tool}: the tool returned ${shown}, which it does not handle.`,
    });
  }
  const facts: Facts = {
    status,
    headers,
    body: readBodyFacts(body),
    ctx,
    retryAfterMs: retryAfterMsFromHeaders(headers, ctx.nowMs),
    rateLimit: readRateLimit(headers, ctx.nowMs),
  };
  const draft = RULES[ruleForStatus(status)](facts);
  // The body's structured code travels with the failure: the business type must not be lost (docs/DESIGN.md,
  // "The failure record").
  return buildFailure(ctx, facts.body.code !== undefined ? { ...draft, code: facts.body.code } : draft);
}
