/**
 * The table of ApplicationFailure types (recovery/failure-types.ts): its values, its one naming form, and that no
 * type recorded in a replayed history (test/histories) or named by the tool activities' retry policy is missing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PLANNER_INVALID_DECISION, PLANNER_INVALID_INPUT } from '../../activities/planners/planner';
import { NON_RETRYABLE_TYPES } from '../../recovery/activity-options';
import { errorTypeFor, FAILURE_CLASSES } from '../../recovery/failure';
import {
  APPLICATION_FAILURE_TYPE_FORM,
  APPLICATION_FAILURE_TYPES,
  ApplicationFailureType,
} from '../../recovery/failure-types';

test('the library’s own types, by value (they are public: callers match them in cause.type)', () => {
  expect(ApplicationFailureType).toEqual({
    INVALID_INPUT: 'invalid_input',
    APPROVAL_REFUSED: 'approval_refused',
    REVIEW_REFUSED: 'review_refused',
    PLANNER_INVALID_DECISION: 'planner_invalid_decision',
    PLANNER_INVALID_INPUT: 'planner_invalid_input',
  });
  expect([PLANNER_INVALID_DECISION, PLANNER_INVALID_INPUT]).toEqual([
    'planner_invalid_decision',
    'planner_invalid_input',
  ]);
});

test('every listed type has the one form, snake_case; the list is the own types then the failure classes', () => {
  expect(APPLICATION_FAILURE_TYPES).toEqual([...Object.values(ApplicationFailureType), ...FAILURE_CLASSES]);
  expect(APPLICATION_FAILURE_TYPES.filter((t) => !APPLICATION_FAILURE_TYPE_FORM.test(t))).toEqual([]);
  expect(new Set(APPLICATION_FAILURE_TYPES).size).toBe(APPLICATION_FAILURE_TYPES.length);
  expect(Object.isFrozen(APPLICATION_FAILURE_TYPES)).toBe(true);
  for (const bad of ['InsufficientFundsError', 'invalid-input', '_x', 'x__y', 'x_']) {
    expect(APPLICATION_FAILURE_TYPE_FORM.test(bad)).toBe(false);
  }
});

test('the one exception, kept for users’ retry policies: a business type is PascalCase + Error', () => {
  expect(errorTypeFor('insufficient_funds')).toBe('InsufficientFundsError');
  expect(APPLICATION_FAILURE_TYPE_FORM.test(errorTypeFor('insufficient_funds')!)).toBe(false);
});

test('the retry policy of every tool activity names listed types only', () => {
  expect(NON_RETRYABLE_TYPES.length).toBe(FAILURE_CLASSES.length - 1);
  expect(NON_RETRYABLE_TYPES.filter((t) => !(APPLICATION_FAILURE_TYPES as readonly string[]).includes(t))).toEqual([]);
});

/** Every `applicationFailureInfo.type` in a JSON value. */
function recordedTypes(value: unknown, out: Set<string>): Set<string> {
  if (Array.isArray(value)) for (const v of value) recordedTypes(v, out);
  else if (typeof value === 'object' && value !== null) {
    const info = (value as { applicationFailureInfo?: { type?: unknown } }).applicationFailureInfo;
    if (typeof info?.type === 'string') out.add(info.type);
    for (const v of Object.values(value)) recordedTypes(v, out);
  }
  return out;
}

test('every type recorded in the replayed histories is in the table (none was renamed)', () => {
  const dir = join(__dirname, '..', 'histories');
  const types = new Set<string>();
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
    recordedTypes(JSON.parse(readFileSync(join(dir, f), 'utf8')), types);
  }
  expect(types.size).toBeGreaterThan(0);
  // A provider's business code recorded as its type (`duplicate_idempotency_key` → `DuplicateIdempotencyKeyError`,
  // errorTypeFor) is the one exception the table does not list.
  const ours = [...types].filter((t) => !/^(?:[A-Z][a-z0-9]*)+Error$/.test(t) || APPLICATION_FAILURE_TYPE_FORM.test(t));
  expect(ours.filter((t) => !(APPLICATION_FAILURE_TYPES as readonly string[]).includes(t))).toEqual([]);
  expect([...types].filter((t) => !ours.includes(t))).toEqual(['DuplicateIdempotencyKeyError']);
});
