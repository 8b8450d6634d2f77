/** The ratchet's list itself: every listed id is a case of some library, listed once, in order. */
import knownMisses from './known-misses.json';
import { LIBRARIES } from './libraries';

test('known-misses.json: sorted, no duplicates, every id a case of an expected table', () => {
  const all = new Set(Object.values(LIBRARIES).flatMap((e) => Object.keys(e.expected)));
  expect([...knownMisses].sort()).toEqual(knownMisses);
  expect(new Set(knownMisses).size).toBe(knownMisses.length);
  expect(knownMisses.filter((id) => !all.has(id))).toEqual([]);
});
