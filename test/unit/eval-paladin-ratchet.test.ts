/**
 * The recovery eval's ratchet on PALADIN's keys (bench/eval/paladin/score.ts `paladinRatchet`,
 * bench/eval/paladin/known-misses.json): a key missed that the list does not name fails the gate, and so does a
 * listed key the run got right. Pure: no workers, no servers.
 */
import knownMisses from '../../bench/eval/paladin/known-misses.json';
import { PALADIN_KEYS } from '../../bench/eval/paladin/keys';
import type { PaladinVerdict } from '../../bench/eval/paladin/plan';
import { isPaladinMiss, paladinRatchet } from '../../bench/eval/paladin/score';

const verdict = (key: string, o: Partial<PaladinVerdict> = {}): PaladinVerdict => ({
  key,
  category: 'c',
  expectedAction: 'retry',
  action: 'retry',
  correct: true,
  recovered: true,
  hallucinatedSuccess: false,
  world: 'recoverable',
  goalReached: true,
  toolCalls: 1,
  dispatches: 1,
  status: 'submitted',
  actions: ['ok'],
  ...o,
});

test('eval ratchet: known-misses.json is sorted, without duplicates, and names PALADIN keys only', () => {
  const keys = new Set(PALADIN_KEYS.map((k) => k.key));
  expect([...knownMisses].sort()).toEqual(knownMisses);
  expect(new Set(knownMisses).size).toBe(knownMisses.length);
  expect(knownMisses.filter((k) => !keys.has(k))).toEqual([]);
});

test('eval ratchet: a wrong action, no end state or a hallucinated success is a miss; a right run is not', () => {
  expect(
    [
      verdict('a'),
      verdict('b', { correct: false }),
      verdict('c', { recovered: false }),
      verdict('d', { hallucinatedSuccess: true }),
    ].map(isPaladinMiss),
  ).toEqual([false, true, true, true]);
});

test('eval ratchet: a new miss and a listed key now right are both named; listed misses and right keys are not', () => {
  const rows = [
    verdict('429'),
    verdict('BrokenPipeError', { correct: false, recovered: false }),
    verdict('ConnectionResetError', { recovered: false }),
    verdict('timeout'),
  ];
  expect(paladinRatchet(rows, ['BrokenPipeError', 'timeout'])).toEqual({
    newMisses: ['ConnectionResetError'],
    nowRight: ['timeout'],
  });
  expect(paladinRatchet(rows, ['BrokenPipeError', 'ConnectionResetError'])).toEqual({ newMisses: [], nowRight: [] });
});
