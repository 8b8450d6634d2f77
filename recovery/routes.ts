/**
 * The route table: which recovery a classified tool failure gets.
 *
 * Source: docs/DESIGN.md, "Routes" (Repair, Retry, Re-auth and approval, Replan, Reconcile, Reject, Escalate and
 * Stop: an expired token is refreshed, a dead refresh credential goes to a person, a missing permission asks for
 * approval or stops, a policy refusal stops) and "Failure classes and the two axes" (a persistent semantic failure
 * is replanned, never retried; a transient infrastructural one gets a bounded retry).
 * One table, first matching row wins; every class ends with a catch-all row, so the table is total.
 * Pure: no I/O.
 */
import { FailureClass, FailureReason } from './failure';
import type { ToolFailure } from './failure';
import { RecoveryAction } from './actions';
import { RecoveryInputError, RecoveryInputErrorCode } from './errors';
import { deepFreeze } from './plain-object';

export { RECOVERY_ACTIONS, RecoveryAction } from './actions';

/**
 * A condition on a failure beyond its class. All given fields must hold.
 * - `reason`: the failure's reason is one of these. - `retryable`: the failure's `retryable` flag equals this.
 */
export type RouteCondition = Readonly<{ reason?: readonly FailureReason[]; retryable?: boolean }>;

/**
 * One row: failures of `class` that meet `when` (always, if absent) get `action`, for the reason `why`. `id` names
 * the row for good (telemetry, the docs, tests): rows are addressed by id, never by position.
 */
export type RouteRow = Readonly<{
  id: string;
  class: FailureClass;
  when?: RouteCondition;
  action: RecoveryAction;
  why: string;
}>;

const C = FailureClass;
const A = RecoveryAction;
const R = FailureReason;

// prettier-ignore
const ROWS = [
  { id: 'invalid-arguments', class: C.INVALID_ARGUMENTS, action: A.REPAIR, why: 'the same arguments fail the same way; only changed arguments can pass' },
  { id: 'transient-wait-too-long', class: C.TRANSIENT, when: { reason: [R.RETRY_AFTER_TOO_LONG] }, action: A.REPLAN, why: 'the server asked for a longer wait than this run allows, so it is persistent for this run' },
  { id: 'transient-retryable', class: C.TRANSIENT, when: { retryable: true }, action: A.RETRY, why: 'time may cure it and the call is replay-safe: retry after backoff, within budget' },
  { id: 'transient-not-on-worker', class: C.TRANSIENT, when: { reason: [R.NOT_ON_WORKER] }, action: A.ESCALATE, why: 'no worker that has the tool took the call within its retries: a person must route it to one (a task queue per application, Worker Versioning)' },
  { id: 'transient-not-retryable', class: C.TRANSIENT, action: A.REPLAN, why: 'time may cure it but not safely or soon enough in this run (not retryable, circuit open)' },
  { id: 'authentication-refresh-failed', class: C.AUTHENTICATION, when: { reason: [R.REFRESH_FAILED] }, action: A.ESCALATE, why: 'the refresh credential is dead; only a human can sign in again' },
  { id: 'authentication', class: C.AUTHENTICATION, action: A.REAUTH, why: 'a trusted component refreshes the credential; waiting will not' },
  { id: 'authorization-approval', class: C.AUTHORIZATION, when: { reason: [R.APPROVAL_REQUIRED] }, action: A.REQUEST_APPROVAL, why: 'a human can grant the permission; the model must not work around a 403' },
  { id: 'authorization', class: C.AUTHORIZATION, action: A.STOP, why: 'forbidden or denied by policy: neither waiting nor rewording may get around it' },
  { id: 'capability-missing', class: C.CAPABILITY_MISSING, action: A.REPLAN, why: 'the tool does not exist for this caller; choose another from the available ones' },
  { id: 'semantic-rejection', class: C.SEMANTIC_REJECTION, action: A.REPLAN, why: 'the world refused the meaning of the call; the same call against the same state fails again' },
  { id: 'outcome-unknown', class: C.OUTCOME_UNKNOWN, action: A.RECONCILE, why: 'the write may have been applied; look it up by idempotency key before any replay' },
  { id: 'invalid-result', class: C.INVALID_RESULT, action: A.REJECT, why: 'the call returned but its result is not a usable fact; never pass it on as success' },
  { id: 'unrecoverable', class: C.UNRECOVERABLE, action: A.ESCALATE, why: 'nothing the runtime can do will help' },
] satisfies RouteRow[];

/**
 * Every action is some row's: an action no failure reaches is dead code. A new action without its row fails to
 * compile here, naming the action (issue 39: a new reason and action are edits the compiler asks for).
 */
type Unrouted = Exclude<RecoveryAction, (typeof ROWS)[number]['action']>;
const EVERY_ACTION_ROUTED: [Unrouted] extends [never] ? true : { unrouted: Unrouted } = true;
void EVERY_ACTION_ROUTED;

/** The route table. First match wins. Exported for the README and for telemetry (`routeFor(...).id` names a row). */
export const ROUTES: readonly RouteRow[] = deepFreeze(ROWS);

/** The route of a failure: its action, why, and `id`, the id of the matching row of `ROUTES`. */
export type Route = Readonly<{ action: RecoveryAction; why: string; id: string }>;

/**
 * The recovery for a classified failure: the first row of `ROUTES` whose class matches and whose `when` holds.
 * Total: every class has a catch-all row (a test checks it).
 *
 * @param f a `ToolFailure`, valid by construction: the core builds it (recovery/classify) or reads it where it
 *   enters (the activity edge, carried state); nothing here parses it again.
 * @returns a frozen `{ action, why, id }`.
 */
export function routeFor(f: ToolFailure): Route {
  const row = ROUTES.findIndex((r) => r.class === f.class && holds(r.when, f));
  const match = ROUTES[row];
  if (match === undefined) {
    // Unreachable while every class has a catch-all row (test/unit/routes.test.ts asserts it).
    throw new RecoveryInputError(
      RecoveryInputErrorCode.INVALID_STATE,
      `routeFor: no route for class ${f.class}; the route table is not total`,
    );
  }
  return Object.freeze({ action: match.action, why: match.why, id: match.id });
}

function holds(when: RouteCondition | undefined, f: ToolFailure): boolean {
  if (when === undefined) return true;
  if (when.reason !== undefined && !when.reason.includes(f.reason)) return false;
  if (when.retryable !== undefined && when.retryable !== f.retryable) return false;
  return true;
}
