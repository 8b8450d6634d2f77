/**
 * Measures the fourth set's libraries: starts each library's server, routes every case through the real activity
 * (test/unseen/route.ts) and compares with the expected table. Used by the `unseen` jest project (in a plain Node
 * process: run.ts) and by `npm run bench -- --only unseen`.
 */
import type { Row } from '../unseen/cases';
import { measureCase } from '../unseen/route';
import type { Harm } from './cases';
import { LIBRARIES4 } from './libraries';

/** A measured case with its stake (the expectation's `harm`). */
export type Row4 = Row & { harm: Harm };

/**
 * Measures one library, case by case in order.
 * @throws Error when `name` is unknown, a case has no expectation or an expectation has no case.
 */
export async function measureLibrary4(name: string): Promise<Row4[]> {
  const entry = LIBRARIES4[name];
  if (!entry) throw new Error(`unknown unseen4 library ${name}`);
  const library = entry.library();
  const expected = entry.expected;
  const { cases, stop } = await library.start();
  try {
    const ids = cases.map((c) => c.id);
    const missing = Object.keys(expected).filter((id) => !ids.includes(id));
    const unexpected = ids.filter((id) => expected[id] === undefined);
    if (missing.length || unexpected.length)
      throw new Error(
        `${name}: cases without expectation ${unexpected.join(', ')}; expectations without case ${missing.join(', ')}`,
      );
    const rows: Row4[] = [];
    for (const c of cases) {
      const { harm, ...want } = expected[c.id]!;
      rows.push({ ...(await measureCase(library.name, c, want)), harm });
    }
    return rows;
  } finally {
    await stop();
  }
}
