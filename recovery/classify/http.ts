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
import { FailureClass, FailureReason } from '../failure';
import type { ToolFailure } from '../failure';
import { readBodyFacts } from './body';
import { buildFailure, type FailureDraft } from './build';
import type { CallContext } from './context';
import { ClassifyError, ClassifyErrorCode } from './errors';
import {
  forbidden,
  invalidArguments,
  notProcessed,
  QUOTA_EXHAUSTED_CODES,
  RATE_LIMIT_CODES,
  rateLimited,
  redirected,
  rejected,
  rejectedAs,
  serverError,
  unauthorized,
  type HttpFacts,
} from './http-drafts';
import { NOT_PERFORMED_TEXT, ruleForStatus, type HttpRule } from './http-status';
import { literal } from './public-parts';
import { readRateLimit } from './rate-limit';
import { retryAfterMsFromHeaders } from './retry-after';
import { refinedByWords } from './http-words';
import { conceptsOf, firstConcept } from './words';
import { refusedDraft } from './sent';

const C = FailureClass;
const R = FailureReason;

/** Rule → draft. One function per rule. */
const RULES: Readonly<Record<HttpRule, (f: HttpFacts) => FailureDraft>> = Object.freeze({
  bad_request: (f) =>
    invalidArguments(f, () =>
      rejected(f, C.INVALID_ARGUMENTS, R.SCHEMA, literal('the arguments were rejected as invalid')),
    ),
  unauthorized,
  // A 402 is the caller's billing (a person must pay), unless its structured code names a business refusal of the
  // payment itself (Stripe's `insufficient_funds` decline, a bank's): that one the model can plan around.
  payment_required: (f) =>
    f.body.code !== undefined && !saysCallerBilling(f.body.code)
      ? rejected(f, C.SEMANTIC_REJECTION, R.BUSINESS_RULE, literal('the payment was refused by a business rule'))
      : rejectedAs(f, 'billing'),
  forbidden,
  not_found: (f) =>
    rejected(
      f,
      C.SEMANTIC_REJECTION,
      R.NOT_FOUND,
      literal('the resource or endpoint was not found; retrying will not change that'),
    ),
  gone: (f) => rejected(f, C.SEMANTIC_REJECTION, R.GONE, literal('the resource is gone for good')),
  conflict: (f) =>
    rejected(f, C.SEMANTIC_REJECTION, R.CONFLICT, literal('the call conflicts with the current state of the resource')),
  precondition_failed: (f) =>
    rejected(f, C.SEMANTIC_REJECTION, R.PRECONDITION_FAILED, literal('a precondition of the call does not hold')),
  unprocessable: (f) => invalidArguments(f, () => rejectedAs(f, 'business_rule')),
  too_large: (f) => rejected(f, C.INVALID_ARGUMENTS, R.SCHEMA, literal('the request is too large; send a smaller one')),
  not_processed: (f) =>
    notProcessed(
      f,
      f.status === 408 ? R.TIMEOUT : R.UNAVAILABLE,
      f.status === 408
        ? literal('the server timed out waiting for the request')
        : f.status === 421
          ? literal('the request reached a server that cannot answer for this host')
          : literal('the server refused to process it yet'),
    ),
  rate_limited: (f) =>
    f.body.code !== undefined && QUOTA_EXHAUSTED_CODES.has(f.body.code)
      ? rejected(f, C.UNRECOVERABLE, R.UNSPECIFIED, literal('the account is out of quota; waiting will not help'))
      : rateLimited(f),
  legal_block: (f) => rejected(f, C.AUTHORIZATION, R.POLICY_DENIED, literal('unavailable for legal reasons')),
  protocol_bug: (f) =>
    rejected(f, C.UNRECOVERABLE, R.TOOL_BUG, literal('the tool sent a request this endpoint does not accept')),
  client_error: (f) => rejected(f, C.SEMANTIC_REJECTION, R.UNSPECIFIED, literal('the request was rejected')),
  unavailable: (f) =>
    f.rateLimit.exhausted || (f.body.code !== undefined && RATE_LIMIT_CODES.has(f.body.code))
      ? rateLimited(f)
      : notProcessed(f, R.UNAVAILABLE, literal('the service is unavailable')),
  not_implemented: (f) =>
    rejected(f, C.UNRECOVERABLE, R.UNSPECIFIED, literal('the service does not support this operation')),
  not_performed: (f) =>
    rejected(
      f,
      C.UNRECOVERABLE,
      R.UNSPECIFIED,
      NOT_PERFORMED_TEXT[f.status] ?? literal('the request was not performed'),
    ),
  server_error: serverError,
});

/** The caller's own account cannot pay: the vocabulary's `billing` or `quota` (recovery/classify/words.ts). */
function saysCallerBilling(code: string): boolean {
  return conceptsOf(code).some((c) => c === 'billing' || c === 'quota');
}

/**
 * Classifies a non-2xx HTTP answer.
 *
 * @param status the HTTP status. A 3xx is a redirect not followed (`redirected`); 1xx and values that are not an
 *   integer in 100–599 are `unrecoverable/tool_bug`: the adapter handed over something it should have handled.
 * @param headers a header record or `Headers`-like object (case-insensitive); read, never echoed.
 * @param body the parsed body or its text; JSON text is parsed.
 * @param ctx the call (validated by the caller, see `classify`).
 * @param names the class names of the error that carried the answer (`InvalidTokenError`), read as words after the
 *   body's structured codes and before its message (recovery/classify/http-words.ts).
 * @returns a frozen, valid `ToolFailure` (see the module docs for the rules).
 * @throws ClassifyError `not_a_failure` for a 2xx status.
 */
export function classifyHttp(
  status: number,
  headers: unknown,
  body: unknown,
  ctx: CallContext,
  names: readonly string[] = [],
): ToolFailure {
  return buildFailure(ctx, httpDraft(status, headers, body, ctx, names));
}

/** `classifyHttp`'s draft, before the call's identity is added (the thrown-error path builds it itself). */
export function httpDraft(
  status: number,
  headers: unknown,
  body: unknown,
  ctx: CallContext,
  names: readonly string[] = [],
): FailureDraft {
  if (Number.isInteger(status) && status >= 200 && status <= 299) {
    throw new ClassifyError(ClassifyErrorCode.NOT_A_FAILURE, `classify: HTTP ${status} is a success, not a failure`);
  }
  if (!Number.isInteger(status) || status < 300 || status > 599) {
    const known = Number.isInteger(status) && status >= 100 && status <= 599;
    const head = `${ctx.tool}: the tool returned ${known ? `HTTP ${status}` : 'an invalid HTTP status'}, which it does not handle`;
    const draft = refusedDraft({ class: C.UNRECOVERABLE, reason: R.TOOL_BUG, head });
    return { ...draft, replaySafe: ctx.effect === 'read' || ctx.deduplicates, ...(known ? { status } : {}) };
  }
  const bodyFacts = readBodyFacts(body);
  const facts: HttpFacts = {
    status,
    headers,
    body: bodyFacts,
    ctx,
    retryAfterMs: retryAfterMsFromHeaders(headers, ctx.nowMs) ?? bodyFacts.retryAfterMs,
    rateLimit: readRateLimit(headers, ctx.nowMs),
  };
  if (status < 400) return buildFailure(ctx, redirected(facts));
  const rule = ruleForStatus(status);
  const codeConcept = firstConcept([...bodyFacts.words, ...names]);
  const concept = codeConcept ?? firstConcept([bodyFacts.message]);
  // a new object per call: set `code` on it, no copy
  const draft = refinedByWords(rule, facts, concept, codeConcept !== undefined) ?? RULES[rule](facts);
  // The body's structured code travels with the failure: the business type must not be lost (docs/DESIGN.md,
  // "The failure record").
  if (facts.body.code !== undefined) draft.code = facts.body.code;
  return draft;
}
