/**
 * What the words of an HTTP answer add to its status (docs/DESIGN.md, "Facts, not libraries"): a generic status —
 * 400, 403, 404, 422, an unlisted 4xx such as 498 — says less than the body's structured code or message, read
 * through the vocabulary (recovery/classify/words.ts). A 400 `session_expired` is a credential to refresh, a 403
 * whose reason is `rateLimitExceeded` is a rate limit, a 403 "failed to authenticate" a credential, a 422 "too many
 * tokens" an argument to change, a 400 "already a list member" a state to verify.
 *
 * One table: the status rule, then the first concept, gives the draft. A field issue the body names wins over words
 * (it is a structured fact). Every row is a refusal: the status already says the server did not act on the call.
 * Pure: no I/O.
 */
import { FailureClass, FailureReason } from '../failure';
import type { FailureDraft } from './build';
import { forbidden, invalidArguments, rateLimited, rejected, type HttpFacts } from './http-drafts';
import type { HttpRule } from './http-status';
import { literal } from './public-parts';
import type { Concept } from './words';

const C = FailureClass;
const R = FailureReason;

/** The statuses whose words may say more than they do. */
const GENERIC: ReadonlySet<HttpRule> = new Set<HttpRule>([
  'bad_request',
  'forbidden',
  'not_found',
  'unprocessable',
  'client_error',
  'conflict',
]);

/** Concept → draft, for a generic status. A concept absent here keeps the status's own rule. */
const BY_CONCEPT: Readonly<Partial<Record<Concept, (f: HttpFacts, rule: HttpRule) => FailureDraft | undefined>>> = {
  credential_expired: (f) =>
    rejected(
      f,
      C.AUTHENTICATION,
      R.CREDENTIAL_EXPIRED,
      literal('the credential is expired or revoked; it must be refreshed'),
    ),
  credential_invalid: (f, rule) =>
    rule === 'conflict'
      ? undefined
      : rejected(
          f,
          C.AUTHENTICATION,
          R.CREDENTIAL_MISSING,
          literal('the credential was refused; a valid one is needed'),
        ),
  scope_missing: (f) =>
    rejected(
      f,
      C.CAPABILITY_MISSING,
      R.NOT_PERMITTED_TOOL,
      literal('the credential lacks a permission (scope) this call needs'),
    ),
  // A 409 or 422 is a refusal of the call's content: "daily_limit_exceeded" there is a business limit, not a rate.
  rate_limited: (f, rule) => (rule === 'conflict' || rule === 'unprocessable' ? undefined : rateLimited(f)),
  quota: (f, rule) => (rule === 'conflict' || rule === 'unprocessable' ? undefined : rateLimited(f)),
  billing: (f) =>
    rejected(f, C.UNRECOVERABLE, R.UNSPECIFIED, literal('the account cannot pay for this call; a person must act')),
  unknown_operation: (f) =>
    rejected(f, C.CAPABILITY_MISSING, R.UNKNOWN_TOOL, literal('the service does not know this operation')),
  forbidden: (f, rule) => (rule === 'forbidden' || rule === 'conflict' ? undefined : forbidden(f)),
  // "Unauthorized" beside a 403 is the 403's own wording: only a generic status without one asks for a credential.
  unauthorized: (f, rule) =>
    rule === 'forbidden' || rule === 'conflict'
      ? undefined
      : rejected(
          f,
          C.AUTHENTICATION,
          R.CREDENTIAL_MISSING,
          literal('the call was not authenticated; a valid credential is needed'),
        ),
  // A 422 saying "already" is the status's own business-rule refusal, unless a field issue would make it a repair.
  already: (f, rule) =>
    rule === 'conflict' || (rule === 'unprocessable' && f.body.fieldIssues.length === 0)
      ? undefined
      : rejected(f, C.SEMANTIC_REJECTION, R.CONFLICT, literal('the state the call asks for may already hold')),
  conflict: (f, rule) =>
    rule === 'bad_request' || rule === 'unprocessable' || rule === 'client_error'
      ? rejected(
          f,
          C.SEMANTIC_REJECTION,
          R.CONFLICT,
          literal('the call conflicts with the current state (a version or sequence that moved on)'),
        )
      : undefined,
  not_found: (f, rule) =>
    rule === 'bad_request' || rule === 'unprocessable'
      ? rejected(f, C.SEMANTIC_REJECTION, R.NOT_FOUND, literal('something the call refers to was not found'))
      : undefined,
  incompatible_state: (f) =>
    rejected(f, C.SEMANTIC_REJECTION, R.BUSINESS_RULE, literal('the call does not fit the current state')),
  too_large: (f, rule) =>
    rule === 'unprocessable' || rule === 'client_error'
      ? invalidArguments(f, () =>
          rejected(
            f,
            C.INVALID_ARGUMENTS,
            R.SCHEMA,
            literal('the arguments are too large or out of range; change them'),
          ),
        )
      : undefined,
  invalid: (f, rule) =>
    rule === 'unprocessable' || rule === 'client_error'
      ? invalidArguments(f, () =>
          rejected(f, C.INVALID_ARGUMENTS, R.SCHEMA, literal('the arguments were rejected as invalid')),
        )
      : undefined,
};

/**
 * The draft the words of a generic status give, or `undefined` to keep the status's own rule: a status that is not
 * generic, no concept, a concept the table does not refine for it, or field issues in the body — unless a structured
 * code says the state already holds (GitHub's `errors[].code: already_exists` on a field).
 * @param structured the concept came from a structured code of the body, not its message.
 */
export function refinedByWords(
  rule: HttpRule,
  f: HttpFacts,
  concept: Concept | undefined,
  structured: boolean,
): FailureDraft | undefined {
  if (concept === undefined || !GENERIC.has(rule)) return undefined;
  if (f.body.fieldIssues.length > 0 && !(structured && concept === 'already')) return undefined;
  return BY_CONCEPT[concept]?.(f, rule);
}
