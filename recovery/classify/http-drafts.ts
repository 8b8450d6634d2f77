/**
 * The drafts of classify/http.ts's rules: one function per kind of answer (rejected, rate limited, not processed,
 * a server error on a read or a write, …), and the body codes some of them look for. Sources as in
 * classify/http.ts. Pure: `ctx.nowMs` is the clock (already read into `retryAfterMs` and `rateLimit`).
 */
import { FailureClass, FailureReason, Phase, type FieldIssue } from '../failure';
import { serverWords, toIssue, type BodyFacts } from './body';
import type { FailureDraft } from './build';
import type { CallContext } from './context';
import { headerValues } from './headers';
import type { RateLimitSignals } from './rate-limit';
import { composeMessage as msg, EMPTY_PART, literal, toolPart, type PublicPart } from './public-parts';
import { pathLabel, summarizeIssues } from './text';
import { issuesNamedIn } from './named-fields';
import { saysAlready } from '../postcondition';
import { draftBySend, refusedDraft } from './sent';
import { KIND_RULES, type ErrorKind } from './kinds';

/** Body codes that mean "rate limited" whatever the status (lower case). */
export const RATE_LIMIT_CODES: ReadonlySet<string> = new Set([
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
export const QUOTA_EXHAUSTED_CODES: ReadonlySet<string> = new Set(['insufficient_quota', 'billing_hard_limit_reached']);

/** What a rule reads: the answer, the call, and the retry signals read from the headers. */
export interface HttpFacts {
  status: number;
  headers: unknown;
  body: BodyFacts;
  ctx: CallContext;
  retryAfterMs: number | undefined;
  rateLimit: RateLimitSignals;
}

/** `<tool>: HTTP <status>, `, the head of every message here. */
function head(f: HttpFacts): PublicPart {
  return msg`${toolPart(f.ctx.tool)}: HTTP ${f.status}, `;
}

/** ` retry after <ms> ms` when a delay is known. */
function retryAfter(delayMs: number | undefined): PublicPart {
  return delayMs === undefined ? EMPTY_PART : msg`; retry after ${delayMs} ms`;
}

const C = FailureClass;
const R = FailureReason;

/** `what`: a `literal` sentence (classify/public-parts.ts). */
export function rejected(f: HttpFacts, cls: FailureClass, reason: FailureReason, what: PublicPart): FailureDraft {
  return {
    class: cls,
    reason,
    phase: Phase.DISPATCH,
    retryable: false,
    replaySafe: true,
    status: f.status,
    publicMessage: msg`${head(f)}${what}.`,
    serverSaid: serverWords(f.body),
  };
}

/** A rejection in the words of its kind's row (recovery/classify/kinds.ts `KIND_RULES`): one sentence, one place. */
export function rejectedAs(f: HttpFacts, kind: ErrorKind): FailureDraft {
  const k = KIND_RULES[kind];
  return rejected(f, k.class, k.reason, k.what);
}

/** A transient refusal of a request not processed: `<head><message>[; retry after <ms> ms].`, and `retryAfterMs`. */
function refusedForNow(f: HttpFacts, reason: FailureReason, message: PublicPart, delayMs?: number): FailureDraft {
  // A rejection but for `retryable`: time may cure it.
  const draft = { ...rejected(f, C.TRANSIENT, reason, msg`${message}${retryAfter(delayMs)}`), retryable: true };
  if (delayMs !== undefined) draft.retryAfterMs = delayMs;
  return draft;
}

export function rateLimited(f: HttpFacts): FailureDraft {
  return refusedForNow(f, R.RATE_LIMITED, literal('rate limited'), f.retryAfterMs ?? f.rateLimit.resetMs);
}

function isRateLimitedByHeadersOrBody(f: HttpFacts): boolean {
  return (
    f.retryAfterMs !== undefined ||
    f.rateLimit.exhausted ||
    (f.body.code !== undefined && RATE_LIMIT_CODES.has(f.body.code))
  );
}

/** `issues` whose path starts with no input field of the tool (when known) with that path moved into `serverSaid`. */
export function onInputFields(issues: readonly FieldIssue[], inputFields: readonly string[] = []): FieldIssue[] {
  return issues.map((i) =>
    inputFields.length === 0 || typeof i.path[0] !== 'string' || inputFields.includes(i.path[0])
      ? i
      : { ...toIssue([], `${pathLabel(i.path)}: ${i.serverSaid ?? ''}`, undefined, false), received: i.received },
  );
}

export function invalidArguments(f: HttpFacts, fallback: () => FailureDraft): FailureDraft {
  let issues = onInputFields(f.body.fieldIssues, f.ctx.inputFields);
  // A plain message that names an input field is about that field, unless it says the state already holds.
  if (issues.length === 0 && !saysAlready(f.body.message, f.ctx.alreadyPhrases)) {
    issues = issuesNamedIn(f.body.message, f.ctx.inputFields ?? []);
  }
  if (issues.length === 0) return fallback();
  const n = issues.length;
  const head = `${f.ctx.tool}: HTTP ${f.status}, ${n} invalid argument${n === 1 ? '' : 's'}: ${summarizeIssues(issues)}`;
  return { ...refusedDraft({ class: C.INVALID_ARGUMENTS, reason: R.SCHEMA, head }), status: f.status, issues };
}

export function unauthorized(f: HttpFacts): FailureDraft {
  const challenge = headerValues(f.headers, 'www-authenticate').join(', ');
  const expired =
    /\berror\s*=\s*"?invalid_token\b/i.test(challenge) ||
    (f.body.code !== undefined && EXPIRED_TOKEN_CODES.has(f.body.code));
  if (expired) return rejectedAs(f, 'credential_expired');
  const what = literal('the request was not authenticated; a valid credential is needed');
  return rejected(f, C.AUTHENTICATION, R.CREDENTIAL_MISSING, what);
}

export function forbidden(f: HttpFacts): FailureDraft {
  if (isRateLimitedByHeadersOrBody(f)) return rateLimited(f);
  if (f.body.code !== undefined && POLICY_DENY_CODES.has(f.body.code)) {
    return rejectedAs(f, 'policy_denied');
  }
  if (f.ctx.approvalCanLift) {
    return rejected(f, C.AUTHORIZATION, R.APPROVAL_REQUIRED, literal('not allowed without a human approval'));
  }
  return rejectedAs(f, 'forbidden');
}

export function notProcessed(f: HttpFacts, reason: FailureReason, what: PublicPart): FailureDraft {
  return refusedForNow(f, reason, msg`${what}; the request was not processed`, f.retryAfterMs);
}

/**
 * A 3xx not followed (RFC 9110 §15.4) says where to go, not whether a write was applied (an expired sign-in answers a
 * POST `302 Location: /login`): a write's outcome is unknown (reconcile); a read is not retried.
 */
export function redirected(f: HttpFacts): FailureDraft {
  const what = msg`${head(f)}a redirect that is not followed`;
  const meaning = { class: C.UNRECOVERABLE, reason: R.REDIRECTED, head: what };
  return { ...draftBySend(meaning, 'maybe_sent', f.ctx), status: f.status };
}

/** 500, 502, 504 and unlisted 5xx: the request reached the server, which may have acted on it. */
export function serverError(f: HttpFacts): FailureDraft {
  const reason = f.status === 504 ? R.TIMEOUT : R.UNAVAILABLE;
  const meaning = { class: C.TRANSIENT, reason, head: msg`${head(f)}server error` };
  const draft: FailureDraft = {
    ...draftBySend(meaning, 'maybe_sent', f.ctx),
    status: f.status,
    serverSaid: serverWords(f.body),
  };
  if (f.retryAfterMs !== undefined) draft.retryAfterMs = f.retryAfterMs;
  return draft;
}
