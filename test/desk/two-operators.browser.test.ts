/**
 * Issue 37, "the page never moves a decision under the pointer" (test/desk/two-operators.ts says how): two
 * operators, three cards, two real browser contexts, 6 repetitions — each of the three cases (bob decides the card
 * alice aims at, the one above, the one below) once with simultaneous clicks and once with bob first. The 50
 * repetitions are the bench row `npm run bench -- --only two-operators` (bench/two-operators.ts), which exits 1 on a
 * misdirected decision.
 */
import { startKit, type Kit } from './kit';
import { twoOperators } from './two-operators';

const REPETITIONS = 6;

let kit: Kit;
beforeAll(async () => {
  kit = await startKit('two-ops');
}, 120_000);
afterAll(() => kit?.close(), 60_000);

test(`two operators, three cards, ${REPETITIONS} repetitions: no decision lands on a card other than the one aimed at`, async () => {
  const tally = await twoOperators(kit, REPETITIONS);
  console.log(`two operators × ${REPETITIONS}: ${JSON.stringify(tally)}`);
  expect(tally.elsewhere).toEqual([]);
  expect(tally.onAimed + tally.refusedOnAimed + tally.noButton + tally.ignored).toBe(REPETITIONS);
}, 300_000);
