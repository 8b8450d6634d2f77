/**
 * `npm run bench -- --only unseen`: issue 28's held-out cases — client libraries no table of this repository names
 * (test/unseen) — each provoked through its official client against its server and routed by the real activity.
 * Prints one row per case (library, case, expected class/action, got class/action, ok), a score per library and
 * in total, and writes bench/results/unseen.json (`rows`, `scores`, `total`).
 *
 * Then issue 38's fourth set (test/unseen4), scored per library and per harm (the stake each expectation names,
 * and the harm each miss did), written to bench/results/unseen4.json (`rows`, `report`, `misses`).
 *
 * Runs in this process (plain Node, as run.ts does for the tests). Gate: every case ran through the client and the
 * activity (no harness error); the score itself is a measurement, tracked by test/unseen/known-misses.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Row } from '../test/unseen/cases';
import { LIBRARY_NAMES } from '../test/unseen/libraries';
import { measureLibrary } from '../test/unseen/measure';
import { LIBRARY4_NAMES } from '../test/unseen4/libraries';
import { measureLibrary4, type Row4 } from '../test/unseen4/measure';
import { missHarms, report4, type Tally } from '../test/unseen4/score';
import { alignedTable } from './table';

const RESULTS_FILE = join(__dirname, 'results', 'unseen.json');
const RESULTS_FILE_4 = join(__dirname, 'results', 'unseen4.json');

/** Cases routed as expected, out of all, for one library or in total. */
export interface Score {
  library: string;
  ok: number;
  cases: number;
}

const pair = (c: string, a: string) => `${c}/${a}`;

function gotText(r: Row): string {
  if ('error' in r.got) return `harness error: ${r.got.error}`.slice(0, 80);
  const applied = r.effect === 'write' ? ` (${r.got.applied === 'maybe' ? 'may be applied' : 'not applied'})` : '';
  return `${pair(r.got.class, r.got.action)}${applied}${r.got.verify ? ' +verify' : ''}`;
}

function wantText(r: Row): string {
  const e = r.expected;
  const applied =
    r.effect === 'write' && e.applied ? ` (${e.applied === 'maybe' ? 'may be applied' : 'not applied'})` : '';
  return `${pair(e.class, e.action)}${applied}${e.verify ? ' +verify' : ''}`;
}

/** Per-library scores and the total, in the order of the libraries. Pure. */
export function scores(rows: readonly Row[]): { scores: Score[]; total: Score } {
  const by = new Map<string, Score>();
  for (const r of rows) {
    const s = by.get(r.library) ?? { library: r.library, ok: 0, cases: 0 };
    by.set(r.library, { ...s, ok: s.ok + (r.ok ? 1 : 0), cases: s.cases + 1 });
  }
  const list = [...by.values()];
  const total = list.reduce((t, s) => ({ ...t, ok: t.ok + s.ok, cases: t.cases + s.cases }), {
    library: 'total',
    ok: 0,
    cases: 0,
  });
  return { scores: list, total };
}

const percent = (s: Score) => `${s.ok}/${s.cases} (${((100 * s.ok) / Math.max(1, s.cases)).toFixed(1)} %)`;

const tallyText = (t: Tally) => `${t.ok}/${t.cases} (${((100 * t.ok) / Math.max(1, t.cases)).toFixed(1)} %)`;

/** The fourth set: rows, then the score per library and per harm. @returns the rows. */
async function unseen4(): Promise<Row4[]> {
  const rows: Row4[] = [];
  for (const name of LIBRARY4_NAMES) rows.push(...(await measureLibrary4(name)));
  const harms = new Map(missHarms(rows).map((m) => [m.id, m.did]));
  const table = rows.map((r) => [r.library, r.id, wantText(r), gotText(r), r.ok ? 'ok' : `MISS (${harms.get(r.id)})`]);
  console.log(alignedTable('unseen set 4 (issue 38)', ['library', 'case', 'expected', 'got', 'ok'], table));
  const report = report4(rows);
  console.log('');
  console.log(
    alignedTable(
      'set 4 score',
      ['library or stake', 'routed as expected'],
      [...report.byLibrary, ...report.byHarm.map((t) => ({ ...t, label: `stake: ${t.label}` })), report.total].map(
        (t) => [t.label, tallyText(t)],
      ),
    ),
  );
  const m = report.missesByHarm;
  console.log(`\nset 4 misses by the harm they did: unsafe ${m.unsafe}, costly ${m.costly}, mild ${m.mild}`);
  writeFileSync(RESULTS_FILE_4, `${JSON.stringify({ rows, report, misses: missHarms(rows) }, null, 2)}\n`);
  console.log(`wrote ${RESULTS_FILE_4}`);
  return rows;
}

/** Runs the bench. @returns 0 when every case ran, 1 when a case broke the harness, 2 when a library broke. */
export async function unseenBench(): Promise<number> {
  const rows: Row[] = [];
  for (const name of LIBRARY_NAMES) rows.push(...(await measureLibrary(name)));
  const table = rows.map((r) => [r.library, r.id, wantText(r), gotText(r), r.ok ? 'ok' : 'MISS']);
  console.log(alignedTable('unseen libraries (issue 28)', ['library', 'case', 'expected', 'got', 'ok'], table));
  const { scores: each, total } = scores(rows);
  console.log('');
  console.log(
    alignedTable(
      'score',
      ['library', 'routed as expected'],
      [...each, total].map((s) => [s.library, percent(s)]),
    ),
  );
  mkdirSync(join(__dirname, 'results'), { recursive: true });
  writeFileSync(RESULTS_FILE, `${JSON.stringify({ rows, scores: each, total }, null, 2)}\n`);
  console.log(`\nwrote ${RESULTS_FILE}`);
  console.log('');
  const rows4 = await unseen4();
  return [...rows, ...rows4].some((r) => 'error' in r.got) ? 1 : 0;
}
