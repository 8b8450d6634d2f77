/**
 * Failures known to be valid: a `ToolFailure` that passed `toolFailureSchema()` once and was deep-frozen then
 * cannot change, so the core's entry points (`routeFor`, `allowNextAttempt`, the activity edge) need not parse it
 * again (docs/DESIGN.md, "Performance"). Anything else — a plain object from a caller, history or another realm —
 * is parsed as before.
 *
 * The set holds object identities only (a `WeakSet`: nothing is kept alive, nothing is enumerable), so it is the
 * same answer on replay and shares nothing between workflow runs that could change a result: a value is either
 * this exact frozen object, or it is parsed. Pure: no I/O.
 */
import { parseInput } from './errors';
import { toolFailureSchema, type FieldIssue, type ToolFailure } from './failure';

const VALID = new WeakSet<object>();

/** True when `value` is a failure this module validated and froze (`validFailure`, `markValid`). */
export function isValidFailure(value: unknown): value is ToolFailure {
  return typeof value === 'object' && value !== null && VALID.has(value);
}

/**
 * Freezes `failure` deeply (its `issues` and their `path`s too) and remembers it as valid.
 * Only for a value that has just passed `toolFailureSchema()`: the caller vouches for it.
 */
export function markValid(failure: ToolFailure): ToolFailure {
  if (failure.issues) {
    for (const i of failure.issues as FieldIssue[]) {
      Object.freeze(i.path);
      Object.freeze(i);
    }
    Object.freeze(failure.issues);
  }
  Object.freeze(failure);
  VALID.add(failure);
  return failure;
}

/**
 * `value` as a valid, frozen `ToolFailure`: itself when already known valid, else parsed by `toolFailureSchema()`.
 * @param label where the value came from, for the error (`'routeFor: failure'`).
 * @throws RecoveryInputError `invalid_input` naming the first failing field, when `value` is not a valid failure.
 */
export function validFailure(value: unknown, label: string): ToolFailure {
  if (isValidFailure(value)) return value;
  return markValid(parseInput(toolFailureSchema(), value, label));
}
