/**
 * `npm run bench -- --only two-operators [--repeat N]`: issue 37's two operators on one desk, 50 repetitions by
 * default (`--quick` 12), on the bench's own dev server, in Debian's chromium (test/desk/two-operators.ts runs them;
 * the jest test test/desk/two-operators.browser.test.ts runs 6). Gate: no decision lands on a card other than the one
 * alice aimed at (exit 1 otherwise). Prints the tally and the seconds taken; writes bench/results/two-operators.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startKit } from '../test/desk/kit';
import { twoOperators } from '../test/desk/two-operators';
import { startBenchServer } from './dev-server';
import { alignedTable } from './table';

export async function twoOperatorsBench(o: { repetitions: number }): Promise<number> {
  const server = await startBenchServer();
  // The kit connects to "the run's dev server" (test/setup/env.ts): here, the bench's.
  process.env.TEMPORAL_TEST_ADDRESS = server.address;
  const kit = await startKit('bench-two-ops');
  try {
    const t0 = performance.now();
    const tally = await twoOperators(kit, o.repetitions);
    const seconds = Math.round((performance.now() - t0) / 100) / 10;
    const ok = tally.elsewhere.length === 0;
    const head = [
      'repetitions',
      'on aimed',
      'refused on aimed',
      'no button',
      'ignored',
      'elsewhere',
      'seconds',
      'gate',
    ];
    const row = [o.repetitions, tally.onAimed, tally.refusedOnAimed, tally.noButton, tally.ignored];
    const cells = [...row.map(String), String(tally.elsewhere.length), String(seconds), ok ? 'ok' : 'FAILED'];
    console.log(alignedTable('Two operators, three cards (issue 37): where alice’s clicks landed', head, [cells]));
    for (const e of tally.elsewhere) console.log(`  misdirected: ${e}`);
    mkdirSync(join(__dirname, 'results'), { recursive: true });
    writeFileSync(
      join(__dirname, 'results', 'two-operators.json'),
      `${JSON.stringify({ repetitions: o.repetitions, seconds, ok, tally }, null, 2)}\n`,
    );
    return ok ? 0 : 1;
  } finally {
    await kit.close();
    await server.teardown();
  }
}
