/**
 * Issue 37, "the page never moves a decision under the pointer": two operators, three cards, two real browser
 * contexts. Each repetition starts a run whose turn waits on three payments (700.00, 990.00, 120.00). alice aims at
 * a card's Approve button (its place on her screen); bob decides a card; then alice clicks that place with the
 * mouse — at the same moment as bob's click, or after bob's decision reached her page. Three cases in turn, by the
 * cards' order on the page: bob decides the very card alice aims at (the issue's sample: the next card's button
 * slid into its place), the card above it, or the card below it. alice's click lands on the card she aimed at (a
 * decision on it, or the run's refusal when bob was first), or on no button: never on another card. Which button
 * received the click is recorded in the page, so a click on nothing waits for no answer.
 *
 * Shared by test/desk/two-operators.browser.test.ts (6 repetitions: each case × each timing once) and the bench row
 * `npm run bench -- --only two-operators` (bench/two-operators.ts: 50 repetitions, the issue's count).
 */
import type { Page } from 'playwright-core';
import { approvalLedger } from '../../client';
import type { Kit } from './kit';
import { cardSelector } from './browser';

const AMOUNTS = ['700.00', '990.00', '120.00'];

/** Where alice's clicks landed over the repetitions; `elsewhere` lists each click on another card (must be empty). */
export interface TwoOperatorsTally {
  onAimed: number;
  refusedOnAimed: number;
  noButton: number;
  ignored: number;
  elsewhere: string[];
}

/** Records in the page which card's decision button each click reached (`window.clicked`): a call id, or ''. */
const RECORD_CLICKS = `document.addEventListener('click', (e) => {
  const button = e.target.closest('button');
  const holder = button && button.closest('[data-call], section.batch, section.turn');
  window.clicked = holder ? holder.dataset.call || 'batch' : '';
}, true)`;

/**
 * Runs `repetitions` repetitions (repetition `rep`: case `rep % 3`, simultaneous clicks when `rep` is even, bob
 * first when odd; 6 cover every pair) with alice and bob logged in to `kit`'s desk, and answers the tally.
 */
export async function twoOperators(kit: Kit, repetitions: number): Promise<TwoOperatorsTally> {
  const [alice, bob] = await Promise.all([kit.login('alice'), kit.login('bob')]);
  await Promise.all([alice.page, bob.page].map((p) => p.evaluate(RECORD_CLICKS)));
  const tally: TwoOperatorsTally = { onAimed: 0, refusedOnAimed: 0, noButton: 0, ignored: 0, elsewhere: [] };
  for (let rep = 0; rep < repetitions; rep++) {
    const ids = AMOUNTS.map((_, i) => `r${rep}-${i}`);
    const workflowId = await kit.start(ids.map((callId, i) => ({ callId, args: { to: 'Payee', amount: AMOUNTS[i] } })));
    const card = (page: Page, callId: string) => page.locator(cardSelector(workflowId, callId));
    for (const p of [alice.page, bob.page])
      for (const c of ids) await p.locator(`${cardSelector(workflowId, c)}[data-state=waiting]`).waitFor();
    // The cards as alice's page orders them (they began to wait in any order).
    const tops = await Promise.all(ids.map(async (c) => ({ c, y: (await card(alice.page, c).boundingBox())!.y })));
    const order = tops.sort((a, b) => a.y - b.y).map((t) => t.c);
    const [aimed, bobs] = (
      [
        [order[0], order[0]], // the same card
        [order[1], order[0]], // the card above the aimed one
        [order[1], order[2]], // the card below it
      ] as Array<[string, string]>
    )[rep % 3]!;
    const target = card(alice.page, aimed).locator('button.approve');
    await target.scrollIntoViewIfNeeded();
    // alice has looked at it: the page armed it (it has not moved for the guard time).
    await target.and(alice.page.locator('[data-ready]')).waitFor();
    const box = (await target.boundingBox())!;
    const click = () => alice.page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    // bob clicks by place too: aiming at the card alice aims at, his click may land after hers collapsed it.
    const deny = card(bob.page, bobs).locator('button.deny');
    await deny.scrollIntoViewIfNeeded();
    await deny.and(bob.page.locator('[data-ready]')).waitFor();
    const bobBox = (await deny.boundingBox())!;
    const bobDecides = async () => {
      await bob.page.mouse.click(bobBox.x + bobBox.width / 2, bobBox.y + bobBox.height / 2);
      if (await bob.page.evaluate('window.clicked')) await bob.page.locator('#answer[data-ok]').waitFor();
    };
    await Promise.all([alice.page, bob.page].map((p) => p.evaluate('window.clicked = undefined')));
    if (rep % 2 === 0) await Promise.all([bobDecides(), click()]);
    else {
      await bobDecides();
      await alice.page.locator(`${cardSelector(workflowId, bobs)}[data-state=waiting]`).waitFor({ state: 'detached' });
      await click();
    }
    const clicked = (await alice.page.evaluate('window.clicked')) as string | undefined;
    if (clicked) await alice.page.locator('#answer[data-ok]').waitFor();
    const decidedByAlice = (await approvalLedger(kit.env.client, workflowId))
      .filter((e) => e.decision?.by === 'alice')
      .map((e) => e.callId);
    if (decidedByAlice.length === 1 && decidedByAlice[0] === aimed) tally.onAimed += 1;
    else if (decidedByAlice.length > 0 || (clicked && clicked !== aimed))
      tally.elsewhere.push(`rep ${rep}: aimed ${aimed}, clicked ${clicked}, decided ${decidedByAlice.join(', ')}`);
    else if (clicked === aimed) {
      const text = (await alice.page.locator('#answer').textContent()) ?? '';
      if (text.startsWith('Nothing was sent')) tally.ignored += 1;
      else tally.refusedOnAimed += 1;
    } else tally.noButton += 1;
    // Clear the answers so the next repetition waits for its own.
    await Promise.all(
      [alice.page, bob.page].map((p) => p.evaluate("delete document.getElementById('answer').dataset.ok")),
    );
    await kit.env.client.workflow.getHandle(workflowId).terminate('repetition over');
  }
  await Promise.all([alice.context.close(), bob.context.close()]);
  return tally;
}
