/**
 * The fourth set's ratchet list and harm scoring, pure: every listed id is a case of some library, listed once, in
 * order; every expectation carries a harm; a miss's harm follows issue 38's definitions.
 */
import type { Got } from '../unseen/cases';
import { harmOfMiss } from './cases';
import knownMisses from './known-misses.json';
import { LIBRARIES4 } from './libraries';

const got = (over: Partial<Got>): Got => ({
  class: 'unrecoverable',
  reason: 'unrecognized',
  action: 'escalate',
  applied: 'no',
  verify: false,
  ...over,
});

test('known-misses.json: sorted, no duplicates, every id a case of an expected table', () => {
  const all = new Set(Object.values(LIBRARIES4).flatMap((e) => Object.keys(e.expected)));
  expect([...knownMisses].sort()).toEqual(knownMisses);
  expect(new Set(knownMisses).size).toBe(knownMisses.length);
  expect(knownMisses.filter((id) => !all.has(id))).toEqual([]);
});

test('every expectation has a harm, a source, and `applied` exactly on writes; a write that may have committed is unsafe', () => {
  const rows = Object.values(LIBRARIES4).flatMap((e) => Object.entries(e.expected));
  const wrong = rows.filter(([id, e]) => {
    const write = id.endsWith('.write');
    return (
      !['unsafe', 'costly', 'mild'].includes(e.harm) ||
      e.source.length === 0 ||
      write !== (e.applied !== undefined) ||
      (e.applied === 'maybe' && e.harm !== 'unsafe')
    );
  });
  expect(wrong.map(([id]) => id)).toEqual([]);
});

test('harmOfMiss: a maybe-applied write made replay-safe → unsafe; a persistent refusal retried → unsafe (a loop)', () => {
  const reconcile = { class: 'outcome_unknown', action: 'reconcile', applied: 'maybe' } as const;
  expect(harmOfMiss(reconcile, got({ class: 'invalid_arguments', action: 'repair', applied: 'no' }), 'write')).toBe(
    'unsafe',
  );
  expect(
    harmOfMiss({ class: 'authentication', action: 'reauth' }, got({ class: 'transient', action: 'retry' }), 'read'),
  ).toBe('unsafe');
});

test('harmOfMiss: the right action in another class → mild; a person paged for a refusal → costly', () => {
  const stop = { class: 'authorization', action: 'stop', applied: 'no' } as const;
  expect(harmOfMiss(stop, got({ class: 'capability_missing', action: 'stop' }), 'write')).toBe('mild');
  expect(harmOfMiss(stop, got({ class: 'outcome_unknown', action: 'reconcile', applied: 'maybe' }), 'write')).toBe(
    'costly',
  );
  expect(harmOfMiss({ class: 'transient', action: 'retry' }, got({}), 'read')).toBe('costly');
});
