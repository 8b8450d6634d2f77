/**
 * The fourth set's report, pure: routed as expected, N of M, per library and per harm (the stake each expectation
 * names), and each miss with the harm it actually did (`harmOfMiss`). Used by `npm run bench -- --only unseen`.
 */
import { harmOfMiss, type Harm } from './cases';
import type { Row4 } from './measure';

/** N routed as expected of M cases, under one label (a library, a harm, or `total`). */
export interface Tally {
  label: string;
  ok: number;
  cases: number;
}

const HARMS: readonly Harm[] = ['unsafe', 'costly', 'mild'];

function tally(rows: readonly Row4[], key: (r: Row4) => string, order: readonly string[] = []): Tally[] {
  const by = new Map<string, Tally>(order.map((label) => [label, { label, ok: 0, cases: 0 }]));
  for (const r of rows) {
    const label = key(r);
    const t = by.get(label) ?? { label, ok: 0, cases: 0 };
    by.set(label, { label, ok: t.ok + (r.ok ? 1 : 0), cases: t.cases + 1 });
  }
  return [...by.values()];
}

/** Each miss's realised harm; a harness error counts as the stake's harm. */
export function missHarms(rows: readonly Row4[]): { id: string; stake: Harm; did: Harm }[] {
  return rows
    .filter((r) => !r.ok)
    .map((r) => ({
      id: r.id,
      stake: r.harm,
      did: 'error' in r.got ? r.harm : harmOfMiss(r.expected, r.got, r.effect),
    }));
}

/** Per library, per stake, the total, and how many misses did each harm. */
export function report4(rows: readonly Row4[]): {
  byLibrary: Tally[];
  byHarm: Tally[];
  total: Tally;
  missesByHarm: Record<Harm, number>;
} {
  const missesByHarm: Record<Harm, number> = { unsafe: 0, costly: 0, mild: 0 };
  for (const m of missHarms(rows)) missesByHarm[m.did] += 1;
  return {
    byLibrary: tally(rows, (r) => r.library),
    byHarm: tally(rows, (r) => r.harm, HARMS),
    total: { label: 'total', ok: rows.filter((r) => r.ok).length, cases: rows.length },
    missesByHarm,
  };
}
