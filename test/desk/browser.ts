/**
 * Debian's chromium driven by playwright-core (no browser download): the flags the desk's browser tests run with.
 * Each `launch()` gets a fresh profile (Playwright makes a new temporary `--user-data-dir` per launch and removes it
 * on close), and each operator gets its own browser context (its own cookies).
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Where Debian's `chromium` package puts the browser (.ci/run installs it when missing). */
export const CHROMIUM = '/usr/bin/chromium';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * @param extraArgs more flags, e.g. `--host-resolver-rules=MAP rebind.test 127.0.0.1` (a name that resolves to the
 *   desk, as a DNS-rebinding page's does)
 * @throws Error naming the package when /usr/bin/chromium is missing
 */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_FLAGS, ...extraArgs] });
}

/** A context and page for one operator, logged in through the login form. Dialogs are counted, never accepted. */
export async function operatorPage(
  browser: Browser,
  url: string,
  name: string,
  password: string,
): Promise<{ context: BrowserContext; page: Page; dialogs: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.goto(url);
  await page.fill('#login-form input[name=name]', name);
  await page.fill('#login-form input[name=password]', password);
  await page.click('#login-form button[type=submit]');
  await page.locator('#page-approvals').waitFor({ state: 'visible' });
  await page.locator('#connection[data-state=live]').waitFor();
  return { context, page, dialogs };
}

/**
 * A card's CSS selector: call `callId` of a run whose workflow id starts with `runs`. Every test file of the jest run
 * shares one dev server and namespace, and a desk lists every waiting run of it, so a call id alone can name another
 * file's card (two files' `late-1`: an expired card and another file's waiting one, with its Approve button).
 */
export const cardSelector = (runs: string, callId: string): string =>
  `article.card[data-workflow^=${JSON.stringify(runs)}][data-call=${JSON.stringify(callId)}]`;
