/**
 * The ratchet of issue 28's unseen cases: `known-misses.json` lists the case ids that route wrong today. Every case
 * not listed must route exactly as its expected table says; every listed case must still route wrong, so a fix that
 * makes one pass fails here until the list shrinks (the test notices improvement).
 *
 * The cases run in a plain Node process (run.ts), the way a Temporal worker runs them: inside jest's vm context,
 * errors from Node's fetch and sockets come from another realm and some clients then throw other errors.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { TS_CHILD_ARGS } from '../setup/ts-child';
import type { Row } from './cases';
import knownMisses from './known-misses.json';
import { LIBRARIES } from './libraries';

const KNOWN = new Set<string>(knownMisses);

/** Runs one library's cases in a child process. @returns its rows. @throws Error when the process fails. */
export async function rowsOf(library: string): Promise<Row[]> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [...TS_CHILD_ARGS, join(__dirname, 'run.ts'), library],
    { env: process.env, maxBuffer: 16 * 1024 * 1024, timeout: 150_000 },
  );
  return JSON.parse(stdout.trim().split('\n').pop() ?? '[]') as Row[];
}

/** Declares the ratchet's tests for one library (one test per case, named by its id and expectation). */
export function ratchet(library: string): void {
  const entry = LIBRARIES[library];
  if (!entry) throw new Error(`unknown unseen library ${library}`);
  const expected = entry.expected;
  const ids = Object.keys(expected);
  let rows = new Map<string, Row>();

  beforeAll(async () => {
    rows = new Map((await rowsOf(library)).map((r) => [r.id, r]));
  }, 180_000);

  test(`${library}: every case ran through the real client and activity (no harness error)`, () => {
    expect([...rows.keys()].sort()).toEqual([...ids].sort());
    const broken = [...rows.values()].filter((r) => 'error' in r.got).map((r) => `${r.id}: ${JSON.stringify(r.got)}`);
    expect(broken).toEqual([]);
  });

  test.each(ids.map((id) => [id, expected[id]!.class, expected[id]!.action] as const))('%s → %s/%s', (id) => {
    const row = rows.get(id);
    if (row === undefined) throw new Error(`${id} did not run`);
    if (KNOWN.has(id)) {
      if (row.ok) throw new Error(`${id} now routes as expected: remove it from test/unseen/known-misses.json`);
      return;
    }
    expect({ id, got: row.got }).toEqual({ id, got: expect.objectContaining(wanted(row)) });
    expect(row.ok).toBe(true);
  });
}

/** The fields of `got` an expectation fixes: class and action; `applied` for a write; `verify` where set. */
function wanted(row: Row): Record<string, unknown> {
  const w: Record<string, unknown> = { class: row.expected.class, action: row.expected.action };
  if (row.effect === 'write' && row.expected.applied !== undefined) w.applied = row.expected.applied;
  if (row.expected.verify !== undefined) w.verify = row.expected.verify;
  return w;
}
