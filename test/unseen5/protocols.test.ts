/**
 * The fifth held-out set (test/unseen5/cases.ts) through the real `invokeTool` activity, as a ratchet:
 * known-misses.json lists the case ids that route wrong. Every case not listed must route exactly as expected; every
 * listed one must still route wrong (a fix that makes one pass fails here until the list shrinks). No server: each
 * case throws what its library throws. `RR_UNSEEN5_TABLE=1` prints the table by library and by harm.
 */
import { harmOfMiss } from '../unseen4/cases';
import type { Got } from '../unseen/cases';
import { routeCase, routesAsExpected } from '../unseen/route';
import { CASES5 } from './cases';
import knownMisses from './known-misses.json';

const KNOWN = new Set<string>(knownMisses);
const got = new Map<string, Got>();

beforeAll(async () => {
  for (const c of CASES5) {
    got.set(
      c.id,
      await routeCase({
        id: c.id,
        effect: c.effect,
        run: async () => {
          throw c.error();
        },
      }),
    );
  }
});

test('the set: ≥ 70 cases of 11 libraries, ids unique; known-misses.json sorted, each id a case', () => {
  expect(CASES5.length).toBeGreaterThanOrEqual(70);
  expect(new Set(CASES5.map((c) => c.library)).size).toBe(11);
  expect(new Set(CASES5.map((c) => c.id)).size).toBe(CASES5.length);
  expect([...knownMisses].sort()).toEqual(knownMisses);
  expect(knownMisses.filter((id) => !CASES5.some((c) => c.id === id))).toEqual([]);
});

test.each(CASES5.map((c) => [c.id, c.expected.class, c.expected.action] as const))('%s → %s/%s', (id) => {
  const c = CASES5.find((x) => x.id === id)!;
  const g = got.get(id)!;
  const ok = routesAsExpected(c.expected, g, c.effect);
  if (KNOWN.has(id)) {
    if (ok) throw new Error(`${id} now routes as expected: remove it from test/unseen5/known-misses.json`);
    return;
  }
  expect({ id, class: g.class, action: g.action, applied: c.effect === 'write' ? g.applied : undefined }).toEqual({
    id,
    class: c.expected.class,
    action: c.expected.action,
    applied: c.expected.applied,
  });
});

test('no miss is unsafe (a write that may have committed made replay-safe, or a refusal retried)', () => {
  const rows = CASES5.map((c) => ({
    c,
    g: got.get(c.id)!,
    ok: routesAsExpected(c.expected, got.get(c.id)!, c.effect),
  }));
  const unsafe = rows.filter((r) => !r.ok && harmOfMiss(r.c.expected, r.g, r.c.effect) === 'unsafe').map((r) => r.c.id);
  if (process.env.RR_UNSEEN5_TABLE) {
    const by = new Map<string, [number, number]>();
    for (const r of rows) {
      const [ok, all] = by.get(r.c.library) ?? [0, 0];
      by.set(r.c.library, [ok + (r.ok ? 1 : 0), all + 1]);
    }
    const misses = rows.filter((r) => !r.ok);
    console.log(
      [...by].map(([l, [ok, all]]) => `${l}: ${ok}/${all}`).join('\n'),
      `\ntotal ${rows.length - misses.length}/${rows.length}\n`,
      misses
        .map(
          (r) =>
            `${r.c.id}: want ${r.c.expected.class}/${r.c.expected.action}${r.c.expected.applied ? `/${r.c.expected.applied}` : ''}, got ${r.g.class}/${r.g.reason}/${r.g.action}/${r.g.applied} (${harmOfMiss(r.c.expected, r.g, r.c.effect)})`,
        )
        .join('\n'),
    );
  }
  expect(unsafe).toEqual([]);
});
