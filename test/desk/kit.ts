/**
 * What the desk's attack suites share: the jest run's dev server, a worker with the plugin running `parallelCalls`
 * (a turn whose calls run at once), a scripted payment service whose `pay_out` a person's approval lifts, the ledger
 * service for reviews, a desk with two password operators, and helpers that act as an operator's page would
 * (its own fetch, with the session's CSRF token). Every run a suite starts is terminated at the end, so the
 * namespace's other desks do not keep reading it.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import type { Browser, Locator, Page } from 'playwright-core';
import { defineTool } from '../../activities/define-tool';
import { startLedgerService, type LedgerService } from '../../examples/ledger-service';
import { ledgerTools } from '../../examples/ledger-tools';
import { startScriptedService, type ScriptedService } from '../../examples/scripted-service';
import { hashPassword, startDesk, type RunningDesk } from '../../client';
import { RecoveryPlugin } from '../../plugin/recovery-plugin';
import type { ToolOutcome } from '../../workflows/tool-router';
import { testEnv, uniqueTaskQueue } from '../setup/env';
import type { ParallelCallsInput } from '../temporal/fixtures/parallel-approvals-workflow';
import { FAST_BACKOFF } from '../temporal/harness';
import { launchChromium, operatorPage } from './browser';

export const PASSWORDS = { alice: 'correct horse battery staple', bob: 'tr0ub4dor&3 is not enough' };

/** `POST /pay` answers 403 approval_required, `POST /pay-approved` 200: a payment a person must approve. */
export const PAY_SCRIPT = {
  'POST /pay': [{ status: 403, body: { code: 'approval_required' } }],
  'POST /pay-approved': [{ status: 200, body: { paymentId: 'P-1' } }],
  'GET /payee': [{ status: 403, body: { code: 'approval_required' } }],
  'GET /payee-approved': [{ status: 200, body: { payee: 'checked' } }],
};

/**
 * `pay_out`: a write whose arguments are anything JSON (a record schema keeps every key), whose 403 a person's
 * approval lifts, and whose idempotency key travels in the `Idempotency-Key` header.
 */
export function payOutTool(serviceUrl: () => string) {
  return defineTool({
    name: 'pay_out',
    description: 'Pays money out of the company account.',
    input: z.record(z.string(), z.unknown()),
    output: z.object({ paymentId: z.string() }),
    effect: 'write',
    idempotency: { carrier: 'header', name: 'Idempotency-Key', deduplicates: true },
    approvalCanLift: true,
    async execute(args, ctx) {
      const path = ctx.approval ? '/pay-approved' : '/pay';
      return (await ctx.http.request({ method: 'POST', url: `${serviceUrl()}${path}`, json: args })).body as {
        paymentId: string;
      };
    },
  });
}

/** `check_payee`: a read (no idempotency key) whose 403 a person's approval lifts. */
export function checkPayeeTool(serviceUrl: () => string) {
  return defineTool({
    name: 'check_payee',
    description: "Looks a payee up in the bank's register.",
    input: z.record(z.string(), z.unknown()),
    output: z.object({ payee: z.string() }),
    effect: 'read',
    approvalCanLift: true,
    async execute(_args, ctx) {
      const path = ctx.approval ? '/payee-approved' : '/payee';
      return (await ctx.http.request({ url: `${serviceUrl()}${path}` })).body as { payee: string };
    },
  });
}

export interface Kit {
  env: TestWorkflowEnvironment;
  service: ScriptedService;
  ledger: LedgerService;
  plugin: RecoveryPlugin;
  taskQueue: string;
  /** How the ids of the runs `start` names begin (`cardSelector` scopes a page's cards to them). */
  runs: string;
  desk: RunningDesk;
  browser: Browser;
  users: Array<{ name: string; scrypt: string }>;
  /** Starts `parallelCalls` (on `queue`, default the kit's); returns its workflow id. */
  start(
    calls: Array<{ callId: string; tool?: string; args: unknown }>,
    options?: Partial<ParallelCallsInput> & { workflowId?: string; queue?: string },
  ): Promise<string>;
  result(workflowId: string): Promise<{ outcomes: ToolOutcome[] }>;
  login(name: keyof typeof PASSWORDS, url?: string): ReturnType<typeof operatorPage>;
  /** Starts another desk on the kit's client (closed with the kit). */
  otherDesk(config: Parameters<typeof startDesk>[0]['config']): Promise<RunningDesk>;
  close(): Promise<void>;
}

export async function startKit(prefix: string): Promise<Kit> {
  const env = await testEnv();
  const service = await startScriptedService(PAY_SCRIPT);
  const ledger = await startLedgerService();
  const taskQueue = uniqueTaskQueue(prefix);
  const plugin = new RecoveryPlugin({
    tools: [payOutTool(() => service.url), checkPayeeTool(() => service.url), ...ledgerTools(ledger.url).all],
    config: { taskQueue, backoff: FAST_BACKOFF },
  });
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowsPath: require.resolve('../temporal/fixtures/parallel-approvals-workflow'),
    plugins: [plugin],
  });
  const running = worker.run();
  // ln = 14 (N = 2^14) keeps the tests' logins fast; the CLI's hashes use ln = 17.
  const users = await Promise.all(
    Object.entries(PASSWORDS).map(async ([name, pw]) => ({ name, scrypt: await hashPassword(pw, { ln: 14 }) })),
  );
  const desks: RunningDesk[] = [];
  const desk = await startDesk({ client: env.client, config: { port: 0, pollMs: 300, users } });
  desks.push(desk);
  const browser = await launchChromium();
  const started: string[] = [];
  return {
    env,
    service,
    ledger,
    plugin,
    taskQueue,
    runs: `${prefix}-run-${process.pid}-`,
    desk,
    browser,
    users,
    async start(calls, options = {}) {
      const { workflowId = uniqueTaskQueue(`${prefix}-run`), queue = taskQueue, ...rest } = options;
      await env.client.workflow.start('parallelCalls', {
        taskQueue: queue,
        workflowId,
        args: [{ ...plugin.workflowDefaults(), ...rest, calls: calls.map((c) => ({ tool: 'pay_out', ...c })) }],
      });
      started.push(workflowId);
      return workflowId;
    },
    result: (id) => env.client.workflow.getHandle(id).result() as Promise<{ outcomes: ToolOutcome[] }>,
    login: (name, url = desk.url) => operatorPage(browser, url, name, PASSWORDS[name]),
    async otherDesk(config) {
      const d = await startDesk({ client: env.client, config: { port: 0, pollMs: 300, ...config } });
      desks.push(d);
      return d;
    },
    async close() {
      await Promise.all(
        started.map((id) =>
          env.client.workflow
            .getHandle(id)
            .terminate('test over')
            .catch(() => undefined),
        ),
      );
      await browser.close();
      await Promise.all(desks.map((d) => d.close()));
      worker.shutdown();
      await running;
      await service.close();
      await ledger.close();
      await env.teardown();
    },
  };
}

const IMAGES = resolve(__dirname, '../../docs/images');
let scratch: string | undefined;
/**
 * A PNG of `element` for the docs: written to docs/images when missing or with UPDATE_DESK_SCREENSHOTS=1, else to a
 * temporary folder (never compared).
 */
export async function shot(element: Locator, name: string): Promise<void> {
  const keep = process.env.UPDATE_DESK_SCREENSHOTS === '1' || !existsSync(join(IMAGES, name));
  const dir = keep ? IMAGES : (scratch ??= mkdtempSync(join(tmpdir(), 'desk-shots-')));
  await element.page().evaluate("document.getElementById('answer').hidden = true"); // the floating answer, not the card
  await element.screenshot({ path: join(dir, name) });
}

/**
 * Clicks a decision button once the page armed it (`data-ready`: it has not moved for the page's guard time), as
 * a person who looked at it would; a button that just appeared or moved ignores a click.
 */
export async function press(button: Locator): Promise<void> {
  await button.and(button.page().locator('[data-ready]')).waitFor();
  await button.click();
}

/** The page's own fetch: a change with the session's CSRF token, or a read. Status and JSON body. */
export function pagePost(page: Page, path: string, body: unknown) {
  return page.evaluate(
    async ({ path, body }) => {
      const session = (await (await fetch('/api/session')).json()) as { csrf: string | null };
      const res = await fetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrf ?? '' },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as { error?: string; result?: unknown } };
    },
    { path, body },
  );
}

export function pageGet<T = Record<string, unknown>>(page: Page, path: string) {
  return page.evaluate(async (path) => {
    const res = await fetch(path);
    return { status: res.status, body: (await res.json()) as unknown };
  }, path) as Promise<{ status: number; body: T }>;
}

/** A plain HTTP request with exactly these headers (a header given as a list is sent once per value). */
export function rawRequest(
  url: string,
  options: {
    method?: string;
    headers?: Record<string, string | string[]>;
    body?: string;
    localAddress?: string;
  } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((done, fail) => {
    const req = request(url, { method: options.method ?? 'GET', localAddress: options.localAddress }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    req.on('error', fail);
    for (const [k, v] of Object.entries(options.headers ?? {})) req.setHeader(k, v);
    req.end(options.body);
  });
}

/**
 * Logs `name` in with plain HTTP from `localAddress` (default 127.0.0.1), as a script would: it reads
 * `/api/session` first and sends back whatever session and CSRF token that gave. The status and the new cookie.
 */
export async function loginOver(
  url: string,
  name: string,
  password: string,
  localAddress = '127.0.0.1',
): Promise<{ status: number; cookie?: string; body: string }> {
  const first = await rawRequest(`${url}/api/session`, { localAddress });
  const pre = cookieOf(first.headers['set-cookie']);
  const csrf = (JSON.parse(first.body) as { csrf?: string | null }).csrf;
  const res = await rawRequest(`${url}/api/login`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(pre ? { cookie: pre } : {}),
      ...(csrf ? { 'x-csrf-token': csrf } : {}),
    },
    body: JSON.stringify({ name, password }),
    localAddress,
  });
  const cookie = cookieOf(res.headers['set-cookie']);
  return { status: res.status, body: res.body, ...(cookie ? { cookie } : {}) };
}

/** `name=value` of the first `Set-Cookie`, or undefined. */
export function cookieOf(set: string | string[] | undefined): string | undefined {
  return Array.isArray(set) && set[0] ? set[0].split(';')[0] : undefined;
}
