/**
 * Issue 37, "the page never moves a decision under the pointer": two operators, three cards, two real browser
 * contexts, 50 repetitions. Each repetition starts a run whose turn waits on three payments; bob decides one card
 * while alice clicks, by its screen position, the Approve button of another card she aimed at — half the time at
 * the same moment as bob's click, half the time after bob's decision reached her page. Whatever alice's click did
 * lands on the card she aimed at, or nowhere (the page ignores a click just after a layout change): never on
 * another card.
 */
import type { Page } from 'playwright-core';
import { approvalLedger } from '../../client';
import { press, startKit, type Kit } from './kit';

const REPETITIONS = 50;
const AMOUNTS = ['700.00', '990.00', '120.00'];

let kit: Kit;
beforeAll(async () => {
  kit = await startKit('two-ops');
}, 120_000);
afterAll(() => kit?.close(), 60_000);

const card = (page: Page, callId: string) => page.locator(`article.card[data-call=${JSON.stringify(callId)}]`);

test(`two operators, three cards, ${REPETITIONS} repetitions: no decision lands on a card other than the one aimed at`, async () => {
  const [alice, bob] = await Promise.all([kit.login('alice'), kit.login('bob')]);
  const tally = { onAimed: 0, ignored: 0, elsewhere: [] as string[] };
  for (let rep = 0; rep < REPETITIONS; rep++) {
    const ids = AMOUNTS.map((_, i) => `r${rep}-${i}`);
    const workflowId = await kit.start(ids.map((callId, i) => ({ callId, args: { to: 'Payee', amount: AMOUNTS[i] } })));
    for (const p of [alice.page, bob.page])
      for (const c of ids) await p.locator(`article.card[data-call="${c}"][data-state=waiting]`).waitFor();
    // bob decides the card above the one alice aims at (the top card when she aims at the top one).
    const aimed = ids[(rep % 2) + 1]!;
    const bobs = ids[rep % 2]!;
    const target = card(alice.page, aimed).locator('button.approve');
    await target.scrollIntoViewIfNeeded();
    // alice has looked at it: the page armed it (it has not moved for the guard time).
    await target.and(alice.page.locator('[data-ready]')).waitFor();
    const box = (await target.boundingBox())!;
    const bobDecides = async () => {
      await press(card(bob.page, bobs).locator('button.deny'));
      await bob.page.locator('#answer[data-ok]').waitFor();
    };
    if (rep % 2 === 0) {
      await Promise.all([bobDecides(), alice.page.mouse.click(box.x + box.width / 2, box.y + box.height / 2)]);
    } else {
      await bobDecides();
      await alice.page.locator(`article.card[data-call="${bobs}"][data-state=waiting]`).waitFor({ state: 'detached' });
      await alice.page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    }
    // A click that landed on no button gets no answer: then the ledger says so.
    await alice.page
      .locator('#answer[data-ok]')
      .waitFor({ timeout: 5_000 })
      .catch(() => undefined);
    const decidedByAlice = (await approvalLedger(kit.env.client, workflowId))
      .filter((e) => e.decision?.by === 'alice')
      .map((e) => e.callId);
    if (decidedByAlice.length === 0) tally.ignored += 1;
    else if (decidedByAlice.length === 1 && decidedByAlice[0] === aimed) tally.onAimed += 1;
    else tally.elsewhere.push(`rep ${rep}: aimed ${aimed}, decided ${decidedByAlice.join(', ')}`);
    // Clear the answers so the next repetition waits for its own.
    await Promise.all(
      [alice.page, bob.page].map((p) => p.evaluate("delete document.getElementById('answer').dataset.ok")),
    );
    await kit.env.client.workflow.getHandle(workflowId).terminate('repetition over');
  }
  console.log(`two operators × ${REPETITIONS}: ${JSON.stringify(tally)}`);
  expect(tally.elsewhere).toEqual([]);
  expect(tally.onAimed + tally.ignored).toBe(REPETITIONS);
  await Promise.all([alice.context.close(), bob.context.close()]);
}, 900_000);
