/**
 * What the words of an HTTP answer add to its status (docs/DESIGN.md, "Facts, not libraries"): a generic status —
 * 400, 403, 404, 409, 422, an unlisted 4xx such as 498 — says less than the body's structured code or message, read
 * through the vocabulary (recovery/classify/words.ts). A 400 `session_expired` is a credential to refresh, a 403
 * whose reason is `rateLimitExceeded` is a rate limit, a 403 `AUTHENTICATION_FAILED` a credential, a 400
 * `ResourceLimitExceeded` an account limit, a 422 "too many tokens" an argument to change, a 400 "already a list
 * member" a state to verify.
 *
 * Words refine, never override: a concept refines only the generic statuses its row lists, into the kind it means
 * (recovery/classify/kinds.ts); a status that is not generic keeps its own rule. A field issue the body names wins
 * over words (it is a structured fact). Every row is a refusal: the status already says the server did not act.
 * Pure: no I/O.
 */
import type { FailureDraft } from './build';
import { forbidden, invalidArguments, rateLimited, rejectedAs, type HttpFacts } from './http-drafts';
import type { HttpRule } from './http-status';
import { CONCEPT_KINDS, type Concept } from './words';

/** The statuses whose words may say more than they do. */
const GENERIC: readonly HttpRule[] = [
  'bad_request',
  'forbidden',
  'not_found',
  'unprocessable',
  'client_error',
  'conflict',
];
const but = (...not: HttpRule[]): readonly HttpRule[] => GENERIC.filter((r) => !not.includes(r));

/**
 * Concept → the generic statuses it refines. A 409 or 422 is a refusal of the call's content ("daily_limit_exceeded"
 * there is a business limit, not a rate); "Unauthorized" beside a 403 is the 403's own wording; a 409 saying
 * "already" is the 409's own refusal.
 */
const REFINES: Readonly<Partial<Record<Concept, readonly HttpRule[]>>> = Object.freeze({
  credential_expired: GENERIC,
  credential_invalid: but('conflict'),
  scope_missing: GENERIC,
  rate_limited: but('conflict', 'unprocessable'),
  quota: but('conflict', 'unprocessable'),
  billing: GENERIC,
  unknown_operation: GENERIC,
  forbidden: but('forbidden', 'conflict'),
  unauthorized: but('forbidden', 'conflict'),
  already: but('conflict'),
  conflict: ['bad_request', 'unprocessable', 'client_error'],
  not_found: ['bad_request', 'unprocessable'],
  incompatible_state: GENERIC,
  too_large: ['unprocessable', 'client_error'],
  invalid: ['unprocessable', 'client_error'],
});

/**
 * The draft the words of a generic status give, or `undefined` to keep the status's own rule: no concept, a status
 * the concept does not refine, or field issues in the body — unless a structured code says the state already holds
 * (GitHub's `errors[].code: already_exists` on a field); a 422 saying "already" keeps its business rule unless a
 * field issue would make it a repair.
 * @param structured the concept came from a structured code of the body, not its message.
 */
export function refinedByWords(
  rule: HttpRule,
  f: HttpFacts,
  concept: Concept | undefined,
  structured: boolean,
): FailureDraft | undefined {
  if (concept === undefined || !REFINES[concept]?.includes(rule)) return undefined;
  if (f.body.fieldIssues.length > 0 && !(structured && concept === 'already')) return undefined;
  if (concept === 'already' && rule === 'unprocessable' && f.body.fieldIssues.length === 0) return undefined;
  const kind = CONCEPT_KINDS[concept];
  const said = () => rejectedAs(f, kind);
  if (kind === 'rate_limited') return rateLimited(f);
  if (kind === 'forbidden') return forbidden(f);
  return kind === 'invalid_argument' ? invalidArguments(f, said) : said();
}
