/**
 * The approval and review desk end to end: Debian's chromium (playwright-core, no browser download) against
 * `startDesk` on the jest run's Temporal dev server, a worker with the plugin running a workflow whose turn calls
 * tools at once, a scripted 403 service and the ledger service. Tests run in order on one desk; each starts its
 * own runs. Screenshots of the four pages go to docs/images/ when missing or with UPDATE_DESK_SCREENSHOTS=1
 * (otherwise to a temporary folder): the test never compares them.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import type { Browser, Page } from 'playwright-core';
import type { ToolContext } from '../../activities/tool-context';
import { startLedgerService, type LedgerService } from '../../examples/ledger-service';
import { ledgerTools } from '../../examples/ledger-tools';
import { startScriptedService, type ScriptedService } from '../../examples/scripted-service';
import {
  approvalLedger,
  decideApproval,
  hashPassword,
  pendingApprovals,
  showReview,
  startDesk,
  type RunningDesk,
} from '../../client';
import { RecoveryPlugin } from '../../plugin/recovery-plugin';
import type { ReconcileResult } from '../../workflows/reconcile';
import type { ToolOutcome } from '../../workflows/tool-router';
import { testEnv, uniqueTaskQueue, writeKey } from '../setup/env';
import { GATED_SCRIPT, gatedExportTool } from '../temporal/fixtures/gated-export-tool';
import type { ParallelCallsInput } from '../temporal/fixtures/parallel-approvals-workflow';
import { FAST_BACKOFF, timerDurationsMs } from '../temporal/harness';
import { listing } from '../../operator/desk/views';
import { cardSelector, launchChromium, operatorPage } from './browser';
import { press } from './kit';

const XSS = '<img src=x onerror=alert(1)>';
const PASSWORDS = { alice: 'correct horse battery staple', bob: 'tr0ub4dor&3 is not enough' };
const SHOTS =
  process.env.UPDATE_DESK_SCREENSHOTS === '1' || !existsSync(resolve(__dirname, '../../docs/images/desk-history.png'))
    ? resolve(__dirname, '../../docs/images')
    : mkdtempSync(join(tmpdir(), 'desk-shots-'));

let env: TestWorkflowEnvironment;
let service: ScriptedService;
let ledger: LedgerService;
let worker: Worker;
let running: Promise<void>;
let plugin: RecoveryPlugin;
let desk: RunningDesk;
let browser: Browser;
const seen: Array<{ month: string; approval: ToolContext['approval'] }> = [];
const taskQueue = uniqueTaskQueue('desk');

beforeAll(async () => {
  env = await testEnv();
  service = await startScriptedService(GATED_SCRIPT);
  ledger = await startLedgerService();
  plugin = new RecoveryPlugin({
    tools: [gatedExportTool(() => service.url, seen), ...ledgerTools(ledger.url).all],
    config: { taskQueue, backoff: FAST_BACKOFF },
  });
  worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowsPath: require.resolve('../temporal/fixtures/parallel-approvals-workflow'),
    plugins: [plugin],
  });
  running = worker.run();
  // ln = 14 (N = 2^14) keeps the tests' logins fast; the CLI's hashes use ln = 17.
  const users = await Promise.all(
    Object.entries(PASSWORDS).map(async ([name, pw]) => ({ name, scrypt: await hashPassword(pw, { ln: 14 }) })),
  );
  // historyLimit 500 (the most): the history page reads the most recent workflows that waited for a person, and the
  // run's other desk files start theirs on this dev server while this file runs; at the default 50 this file's could
  // fall out of the window before its history test reads them.
  desk = await startDesk({ client: env.client, config: { port: 0, pollMs: 400, users, historyLimit: 500 } });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await desk?.close();
  worker?.shutdown();
  await running;
  await service?.close();
  await ledger?.close();
  await env?.teardown();
});

/** Starts `parallelCalls` with the given calls of `export_report` (or other tools); returns its workflow id. */
async function start(
  calls: Array<{ callId: string; month?: string; tool?: string; args?: unknown }>,
  options: Partial<ParallelCallsInput> = {},
): Promise<string> {
  const workflowId = uniqueTaskQueue('desk-run');
  if (!workflowId.startsWith(RUNS)) throw new Error(`${workflowId} is not one of this file's runs (${RUNS})`);
  await env.client.workflow.start('parallelCalls', {
    taskQueue,
    workflowId,
    args: [
      {
        ...plugin.workflowDefaults(),
        ...options,
        calls: calls.map((c) => ({
          tool: c.tool ?? 'export_report',
          args: c.args ?? { month: c.month },
          callId: c.callId,
        })),
      },
    ],
  });
  return workflowId;
}

const result = (id: string) => env.client.workflow.getHandle(id).result() as Promise<{ outcomes: ToolOutcome[] }>;
/** This file's runs (their ids start so): the namespace's other runs show on the same page. */
const RUNS = `desk-run-${process.pid}-`;
const card = (page: Page, callId: string) => page.locator(cardSelector(RUNS, callId));
/** The server's answer to the page's last change, once it is shown. */
async function answer(page: Page): Promise<string | null> {
  await page.locator('#answer[data-ok]').waitFor();
  return page.locator('#answer').textContent();
}

/** The page's own fetch, with or without the session's CSRF token: status and JSON body. */
function post(page: Page, path: string, body: unknown, csrf: 'with' | 'without' | 'wrong') {
  return page.evaluate(
    async ({ path, body, csrf }) => {
      const session = (await (await fetch('/api/session')).json()) as { csrf: string };
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (csrf === 'with') headers['x-csrf-token'] = session.csrf;
      if (csrf === 'wrong') headers['x-csrf-token'] = `${session.csrf.slice(0, -2)}xx`;
      const res = await fetch(path, { method: 'POST', headers, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as { error?: string } };
    },
    { path, body, csrf },
  );
}

test('login: a wrong password gets 401 and the page says so; the right one opens the approvals page', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(desk.url);
  await page.locator('#page-login').waitFor({ state: 'visible' });
  await page.screenshot({ path: join(SHOTS, 'desk-login.png') });
  await page.fill('input[name=name]', 'alice');
  await page.fill('input[name=password]', 'not her password');
  const [refused] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/api/login')),
    page.click('#login-form button[type=submit]'),
  ]);
  expect(refused.status()).toBe(401);
  await expect(page.locator('#login-error').textContent()).resolves.toBe('wrong name or password');
  await page.fill('input[name=password]', PASSWORDS.alice);
  const [accepted] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/api/login')),
    page.click('#login-form button[type=submit]'),
  ]);
  expect(accepted.status()).toBe(200);
  await page.locator('#page-approvals').waitFor({ state: 'visible' });
  await expect(page.locator('#operator').textContent()).resolves.toBe('alice');
  await context.close();
});

test('the page carries a strict CSP and no inline script; no session before login, then an HttpOnly, SameSite=Strict cookie', async () => {
  const res = await fetch(desk.url);
  expect(res.headers.get('content-security-policy')).toContain("default-src 'self'; script-src 'self'");
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  const html = await res.text();
  expect(html.match(/<script[^>]*>/g)).toEqual(['<script src="/desk.js" defer>']);
  expect(html).not.toMatch(/ on[a-z]+=/);
  const session = await fetch(`${desk.url}/api/session`);
  expect(session.headers.get('set-cookie')).toBeNull();
  const login = await fetch(`${desk.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'alice', password: PASSWORDS.alice }),
  });
  expect(login.headers.get('set-cookie')).toMatch(
    /^rr_desk=[\w-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=28800$/,
  );
});

describe('one turn of two calls, one with an argument that holds HTML', () => {
  let id: string;
  let alice: Awaited<ReturnType<typeof operatorPage>>;
  beforeAll(async () => {
    id = await start([
      { callId: 'report-1', month: '2026-11' },
      { callId: 'report-2', month: XSS },
    ]);
    alice = await operatorPage(browser, desk.url, 'alice', PASSWORDS.alice);
    await card(alice.page, 'report-2').waitFor();
    await card(alice.page, 'report-1').waitFor();
  });
  afterAll(() => alice.context.close());

  test('a request without the CSRF token, or with a wrong one, is refused (403) and decides nothing', async () => {
    const [call] = (await pendingApprovals(env.client, id)).filter((p) => p.callId === 'report-1');
    const body = { workflowId: id, callId: 'report-1', argsDigest: call!.argsDigest, approved: true };
    for (const csrf of ['without', 'wrong'] as const) {
      await expect(post(alice.page, '/api/approvals/decide', body, csrf)).resolves.toEqual({
        status: 403,
        body: { error: 'missing or wrong CSRF token: reload the page' },
      });
    }
    expect((await pendingApprovals(env.client, id)).map((p) => [p.callId, p.state]).sort()).toEqual([
      ['report-1', 'waiting'],
      ['report-2', 'waiting'],
    ]);
  });

  test(`an argument of ${XSS} renders as text: no img element, no dialog`, async () => {
    const month = card(alice.page, 'report-2').locator('tr[data-path="month"] td.value');
    await expect(month.textContent()).resolves.toBe(XSS);
    await expect(alice.page.locator('main img').count()).resolves.toBe(0);
    await alice.page.waitForTimeout(500);
    expect(alice.dialogs).toEqual([]);
    // This run's batch: other runs of the namespace (another test file's, in parallel) wait beside it on the page.
    const batch = alice.page.locator(`[data-workflow="${id}"] button.approve-batch`);
    await expect(batch.textContent()).resolves.toBe('Approve these 2 calls');
    await alice.page.screenshot({ path: join(SHOTS, 'desk-approvals.png'), fullPage: true });
  });

  test('approve from the page: the tool runs once with approvedBy = alice; a second click (a stale tab) is refused', async () => {
    // A second tab of alice's whose feed froze on the current snapshot, as a tab whose view lags.
    const stale = await alice.context.newPage();
    const frozen = await listing(env.client);
    const details = await (
      await stale.request.get(`${desk.url}/api/details?workflowId=${encodeURIComponent(id)}`)
    ).text();
    await stale.route('**/api/details?*', (r) =>
      new URL(r.request().url()).searchParams.get('workflowId') === id
        ? r.fulfill({ status: 200, headers: { 'content-type': 'application/json' }, body: details })
        : r.continue(),
    );
    await stale.route('**/api/events', (r) =>
      r.fulfill({
        status: 200,
        headers: { 'content-type': 'text/event-stream' },
        body: `retry: 60000\nevent: snapshot\ndata: ${JSON.stringify(frozen)}\n\n`,
      }),
    );
    await stale.goto(desk.url);
    await card(stale, 'report-1').waitFor();

    await press(card(alice.page, 'report-1').locator('button.approve'));
    await expect(answer(alice.page)).resolves.toBe(
      'Approved: report-1 — recorded for alice (identity recovery-router-desk/alice)',
    );
    await press(card(stale, 'report-1').locator('button.approve'));
    await expect(answer(stale)).resolves.toMatch(
      new RegExp(
        `^Refused: ${id}: call "report-1" was approved and the approval was used at .*Z: an approval is used once$`,
      ),
    );
    await stale.close();
    expect(seen.filter((s) => s.approval).map((s) => [s.month, s.approval!.by, s.approval!.identity])).toEqual([
      ['2026-11', 'alice', 'recovery-router-desk/alice'],
    ]);
    expect(service.hits('GET /export-approved')).toBe(1);
  });

  test('deny from the page: the call stops and the run ends', async () => {
    await press(card(alice.page, 'report-2').locator('button.deny'));
    await expect(answer(alice.page)).resolves.toBe(
      'Denied: report-2 — recorded for alice (identity recovery-router-desk/alice)',
    );
    const r = await result(id);
    expect(r.outcomes.map((o) => (o.ok ? 'ok' : `${o.action}: ${o.feedback.message}`))).toEqual([
      'ok',
      'stop: A person declined this action.',
    ]);
    expect([service.hits('GET /export'), service.hits('GET /export-approved')]).toEqual([2, 1]);
  });
});

describe('a decision taken elsewhere', () => {
  let id: string;
  let alice: Awaited<ReturnType<typeof operatorPage>>;
  beforeAll(async () => {
    id = await start([
      { callId: 'far-1', month: '2027-05' },
      { callId: 'far-2', month: '2027-06' },
    ]);
    alice = await operatorPage(browser, desk.url, 'alice', PASSWORDS.alice);
    await card(alice.page, 'far-1').locator('button.deny[data-ready]').waitFor();
    const far1 = (await pendingApprovals(env.client, id)).find((p) => p.callId === 'far-1')!;
    // carol decides with the CLI's function, not on this desk: the run stays listed (far-2 still waits).
    await decideApproval(env.client, id, {
      callId: 'far-1',
      argsDigest: far1.argsDigest,
      approved: false,
      by: 'carol',
      reason: 'not this month',
    });
  });
  afterAll(async () => {
    await alice.context.close();
    await env.client.workflow.getHandle(id).terminate('test over');
  });

  // The page re-reads the runs in view every 2 s and then the run's ledger; "No longer waiting: looking up who
  // decided…" shows while it reads. Waited for by its text, bounded only by the test's timeout (a hang detector).
  test('shows on its card where it was, with who decided', async () => {
    const decided = card(alice.page, 'far-1').locator('p.decided', { hasText: /^Denied by carol at \d/ });
    await decided.waitFor({ timeout: 0 });
    await expect(decided.textContent()).resolves.toMatch(/^Denied by carol at \d/);
    await expect(card(alice.page, 'far-2').getAttribute('data-state')).resolves.toBe('waiting');
  });
});

test('two operators decide the same call at once: exactly one decision is taken', async () => {
  const id = await start([{ callId: 'race-1', month: '2026-12' }]);
  const [alice, bob] = await Promise.all([
    operatorPage(browser, desk.url, 'alice', PASSWORDS.alice),
    operatorPage(browser, desk.url, 'bob', PASSWORDS.bob),
  ]);
  await Promise.all([card(alice.page, 'race-1').waitFor(), card(bob.page, 'race-1').waitFor()]);
  const approvedBefore = service.hits('GET /export-approved');
  // Both buttons armed first; then both clicks leave in the same tick, each inside its own page. Pressing one after
  // the other (Playwright's click waits for actionability) let the first decision's live refresh collapse the other
  // card before its click under load, and the second click waited 30 s for a button that was gone.
  const selector = (button: string) => `${cardSelector(RUNS, 'race-1')} button.${button}[data-ready]`;
  await Promise.all([alice.page.locator(selector('approve')).waitFor(), bob.page.locator(selector('deny')).waitFor()]);
  const clickNow = (page: Page, sel: string) =>
    page.evaluate((s) => {
      const button = document.querySelector<HTMLButtonElement>(s);
      button?.click();
      return button !== null;
    }, sel);
  await expect(
    Promise.all([clickNow(alice.page, selector('approve')), clickNow(bob.page, selector('deny'))]),
  ).resolves.toEqual([true, true]);
  await Promise.all([alice.page.locator('#answer[data-ok]').waitFor(), bob.page.locator('#answer[data-ok]').waitFor()]);
  const oks = await Promise.all([alice.page, bob.page].map((p) => p.locator('#answer').getAttribute('data-ok')));
  expect([...oks].sort()).toEqual(['no', 'yes']);
  const r = await result(id);
  const aliceWon = oks[0] === 'yes';
  expect(r.outcomes[0]!.ok).toBe(aliceWon);
  expect(service.hits('GET /export-approved') - approvedBefore).toBe(aliceWon ? 1 : 0);
  await Promise.all([alice.context.close(), bob.context.close()]);
});

test('an expired approval cannot be used: the page shows it expired and the run refuses a decision for it', async () => {
  const id = await start([{ callId: 'late-1', month: '2027-01' }], { approvalTimeoutMs: 4_000 });
  const alice = await operatorPage(browser, desk.url, 'alice', PASSWORDS.alice);
  await card(alice.page, 'late-1').waitFor();
  // Until the page shows it expired: no wall-clock bound of its own (the test's timeout is the only one); the expiry
  // itself is asserted as scheduled, the run's one timer of exactly 4 000 ms.
  await alice.page.locator(`${cardSelector(RUNS, 'late-1')}[data-state=expired]`).waitFor({ timeout: 0 });
  // It stays where it was, saying so; once the run has left the list, with what its ledger says.
  // "No longer waiting: looking up who decided…" may show first, while the page reads the run's ledger.
  const said =
    /^(This request expired: nobody decided, and it can no longer be approved\.|Expired at .*: nobody decided\.)$/;
  await card(alice.page, 'late-1').locator('p.note, p.decided', { hasText: said }).waitFor({ timeout: 0 });
  await expect(card(alice.page, 'late-1').locator('p.note, p.decided').textContent()).resolves.toMatch(said);
  await expect(card(alice.page, 'late-1').locator('button.approve').count()).resolves.toBe(0);
  const r = await result(id);
  expect(r.outcomes[0]).toMatchObject({
    ok: false,
    feedback: { message: 'The approval request expired after 4 s without a decision; the action was not taken.' },
  });
  expect(timerDurationsMs((await env.client.workflow.getHandle(id).fetchHistory()).events ?? [])).toEqual([4_000]);
  const digest = (await approvalLedger(env.client, id))[0]!.argsDigest;
  const refused = await post(
    alice.page,
    '/api/approvals/decide',
    // Whatever rendering it names (the page shows none any more), the run refuses it.
    { workflowId: id, callId: 'late-1', argsDigest: digest, viewDigest: 'f'.repeat(64), approved: true },
    'with',
  );
  expect(refused.status).toBe(409);
  expect(refused.body.error).toMatch(
    new RegExp(`^${id}: the approval request of call "late-1" expired at .*Z; it can no longer be decided$`),
  );
  expect(seen.some((s) => s.month === '2027-01' && s.approval)).toBe(false);
  await alice.context.close();
});

test('decide a review from the page: the write is abandoned as decided, by alice, and never replayed', async () => {
  ledger.setLookupDown(true);
  ledger.fault({ kind: 'fail_before_commit' });
  const id = await start([{ callId: 'refund-1', tool: 'issue_refund', args: { orderId: 'O-77', amountCents: 1250 } }], {
    reconcile: { lookupBudget: 2, lookupBackoff: { initialIntervalMs: 50, maximumIntervalMs: 200 } },
  });
  const operationId = await writeKey(env.client, id, 'refund-1');
  const alice = await operatorPage(browser, desk.url, 'alice', PASSWORDS.alice);
  await alice.page.click('a[data-page=reviews]');
  // The case's own card, not the placeholder ("Reading the case…", data-state=waiting) the list shows until the
  // page has read the case: only then are its lookups on the card.
  const review = alice.page.locator(`article[data-operation="${operationId}"][data-state=awaiting_review]`);
  await review.waitFor({ timeout: 0 }); // no bound of its own: the test's timeout
  await expect(review.locator('ol.lookups li').count()).resolves.toBe(2);
  await expect(review.locator('code.digest').textContent()).resolves.toMatch(/^[0-9a-f]{64}$/);
  await expect(
    review.locator('button[data-decision]').evaluateAll((b) => b.map((e) => e.getAttribute('data-decision'))),
  ).resolves.toEqual(['mark_applied', 'replay', 'abandon']);
  await alice.page.screenshot({ path: join(SHOTS, 'desk-reviews.png'), fullPage: true });
  await review.locator('input[aria-label=Reason]').fill('customer cancelled; refund by hand');
  await press(review.locator('button[data-decision=abandon]'));
  await expect(answer(alice.page)).resolves.toBe(`Abandon: ${operationId} — decision taken`);
  const r = await result(id);
  expect(r.outcomes[0]).toMatchObject({
    ok: false,
    action: 'stop',
    feedback: { message: 'A person reviewed this write and abandoned it; it was not replayed.' },
  });
  const settled = (await env.client.workflow.getHandle(`reconcile:${operationId}`).result()) as ReconcileResult;
  expect(settled).toMatchObject({
    state: 'abandoned',
    by: 'alice',
    reason: 'customer cancelled; refund by hand',
    replays: 0,
  });
  await expect(showReview(env.client, operationId)).resolves.toMatchObject({
    decision: { decision: 'abandon', by: 'alice' },
  });
  expect([ledger.hits('POST /refunds'), ledger.rows('refunds')]).toEqual([1, 0]);
  ledger.setLookupDown(false);
  await alice.context.close();
});

test('history: each decision with who took it and when, newest first', async () => {
  const alice = await operatorPage(browser, desk.url, 'alice', PASSWORDS.alice);
  await alice.page.click('a[data-page=history]');
  const rows = alice.page.locator('#history-rows tr');
  // This file's decisions among the jest run's: the other desk files decide on the same dev server meanwhile, and
  // the page reads theirs too (a query each; one whose worker has stopped takes its 3 s deadline and shows as one
  // unreadable row). The page reads again every 10 s; the test's timeout bounds the wait for all four.
  const expected = [
    ['approval', 'used', 'alice', 'report-1'],
    ['approval', 'denied', 'alice', 'report-2'],
    ['approval', 'expired', '—', 'late-1'],
    ['review', 'abandon', 'alice', 'refund-1'],
  ];
  const mine = async () =>
    (await rows.evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? ''))))
      .filter((t) => ['report-1', 'report-2', 'late-1', 'race-1'].includes(t[5]!) || t[5]!.endsWith(':refund-1'))
      .map((t) => [t[1], t[2], t[3]!.split(' (')[0], t[5]!.replace(/^.*:/, '')]);
  await rows.first().waitFor({ timeout: 0 });
  let shown = await mine();
  while (!expected.every((e) => shown.some((r) => r.join() === e.join()))) {
    await alice.page.waitForTimeout(500);
    shown = await mine();
  }
  expect(shown).toEqual(expect.arrayContaining(expected));
  await alice.page.screenshot({ path: join(SHOTS, 'desk-history.png'), fullPage: true });
  await alice.context.close();
});
