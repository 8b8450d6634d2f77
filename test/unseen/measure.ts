/**
 * Measures unseen libraries: starts each library's server, routes every case through the real activity and
 * compares with the expected table. Used by the `unseen` jest project (in a plain Node process: run.ts) and by
 * `npm run bench -- --only unseen`.
 */
import type { Row } from './cases';
import { LIBRARIES } from './libraries';
import { measureCase } from './route';

/**
 * Measures one library, case by case in order.
 * @throws Error when `name` is unknown, a case has no expectation or an expectation has no case.
 */
export async function measureLibrary(name: string): Promise<Row[]> {
  const entry = LIBRARIES[name];
  if (!entry) throw new Error(`unknown unseen library ${name}`);
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
    const rows: Row[] = [];
    for (const c of cases) rows.push(await measureCase(library.name, c, expected[c.id]!));
    return rows;
  } finally {
    await stop();
  }
}
