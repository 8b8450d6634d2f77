/**
 * The desk's HTTP edge without a browser, on the jest run's dev server: an operator named by a trusted proxy's
 * header decides as that operator; the same header from an address outside the allow-list is refused; logins,
 * bodies and content types are bounded. Plain `fetch` with the session cookie carried by hand.
 */
import type { Config } from '@jest/types';
import { TypedSearchAttributes } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import type { ToolContext } from '../../activities/tool-context';
import { startScriptedService, type ScriptedService } from '../../examples/scripted-service';
import { hashPassword, pendingApprovals, startDesk, type RunningDesk } from '../../client';
import { LOGIN_LIMITS } from '../../operator/desk/login-limits';
import { MAX_BODY_BYTES } from '../../operator/desk/http';
import { DeskActions } from '../../operator/desk/actions';
import { listing, QUERY_DEADLINE_MS, readDetails } from '../../operator/desk/views';
import { listApprovals } from '../../operator/approvals';
import { RecoveryStatus } from '../../workflows/search-attributes';
import { RecoveryPlugin } from '../../plugin/recovery-plugin';
import type { PendingApproval } from '../../workflows/definitions';
import type { ToolOutcome } from '../../workflows/tool-router';
import { testEnv, uniqueTaskQueue } from '../setup/env';
import { GATED_SCRIPT, gatedExportTool } from '../temporal/fixtures/gated-export-tool';
import { FAST_BACKOFF } from '../temporal/harness';

let env: TestWorkflowEnvironment;
let service: ScriptedService;
const seen: Array<{ month: string; approval: ToolContext['approval'] }> = [];
const desks: RunningDesk[] = [];
beforeAll(async () => {
  env = await testEnv();
  service = await startScriptedService(GATED_SCRIPT);
});
afterAll(async () => {
  await Promise.all(desks.map((d) => d.close()));
  await service?.close();
  await env?.teardown();
});

async function desk(config: Parameters<typeof startDesk>[0]['config']): Promise<RunningDesk> {
  const d = await startDesk({ client: env.client, config: { port: 0, ...config } });
  desks.push(d);
  return d;
}

/** A session: its cookie (none before a login) and CSRF token, from `GET /api/session`. */
async function session(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}/api/session`, { headers });
  const cookie = res.headers.get('set-cookie')?.split(';')[0] ?? '';
  return { cookie, body: (await res.json()) as { user: string | null; via: string | null; csrf: string | null } };
}

async function postJson(url: string, path: string, body: unknown, headers: Record<string, string>) {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

test('proxy: a trusted proxy names the operator; the decision is recorded as theirs, the body cannot name another', async () => {
  const taskQueue = uniqueTaskQueue('desk-proxy');
  const plugin = new RecoveryPlugin({
    tools: [gatedExportTool(() => service.url, seen)],
    config: { taskQueue, backoff: FAST_BACKOFF },
  });
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowsPath: require.resolve('../temporal/fixtures/parallel-approvals-workflow'),
    plugins: [plugin],
  });
  const d = await desk({ proxy: { header: 'x-forwarded-user', trustedProxies: ['127.0.0.1'] } });
  const outcome = await worker.runUntil(async () => {
    const workflowId = uniqueTaskQueue('desk-proxy-run');
    const calls = [{ tool: 'export_report', args: { month: '2027-02' }, callId: 'proxied-1' }];
    await env.client.workflow.start('parallelCalls', {
      taskQueue,
      workflowId,
      args: [{ ...plugin.workflowDefaults(), calls }],
    });
    let pending: PendingApproval[] = [];
    while (pending.length === 0) {
      await new Promise((r) => setTimeout(r, 100));
      pending = await pendingApprovals(env.client, workflowId);
    }
    const carol = { 'x-forwarded-user': 'carol@example.com' };
    const s = await session(d.url, carol);
    expect(s.body).toMatchObject({ user: 'carol@example.com', via: 'proxy' });
    // The rendering carol was shown (the run's details, as the page reads them) is what she approves.
    const shown = `${d.url}/api/details?workflowId=${encodeURIComponent(workflowId)}`;
    const details = (await (await fetch(shown, { headers: { ...carol, cookie: s.cookie } })).json()) as {
      calls: Array<{ view: { digest: string } }>;
    };
    const viewDigest = details.calls[0]!.view.digest;
    const decided = await postJson(
      d.url,
      '/api/approvals/decide',
      {
        workflowId,
        callId: 'proxied-1',
        argsDigest: pending[0]!.argsDigest,
        viewDigest,
        approved: true,
        by: 'mallory',
      },
      { ...carol, cookie: s.cookie, 'x-csrf-token': s.body.csrf! },
    );
    expect(decided).toMatchObject({
      status: 200,
      body: {
        ok: true,
        result: { callId: 'proxied-1', by: 'carol@example.com', identity: 'recovery-router-desk/carol@example.com' },
      },
    });
    return ((await env.client.workflow.getHandle(workflowId).result()) as { outcomes: ToolOutcome[] }).outcomes[0];
  });
  expect(outcome).toMatchObject({ ok: true });
  expect(seen.map((s) => s.approval?.by)).toEqual([undefined, 'carol@example.com']);
});

test('proxy: the header from an address outside trustedProxies is refused (403); without it, nobody is logged in (401)', async () => {
  const d = await desk({ proxy: { header: 'x-forwarded-user', trustedProxies: ['10.0.0.7'] } });
  const res = await fetch(`${d.url}/api/session`, { headers: { 'x-forwarded-user': 'carol@example.com' } });
  expect(res.status).toBe(403);
  await expect(res.json()).resolves.toEqual({
    error: 'the x-forwarded-user header came from an address that is not a trusted proxy',
  });
  const s = await session(d.url);
  expect(s).toEqual({ cookie: '', body: expect.objectContaining({ user: null, csrf: null }) });
  const events = await fetch(`${d.url}/api/history`);
  expect(events.status).toBe(401);
});

test(`logins: after ${LOGIN_LIMITS.perName} wrong passwords for one name from one address the desk answers 429 for it, even to the right one`, async () => {
  const d = await desk({ users: [{ name: 'dave', scrypt: await hashPassword('right password', { ln: 10 }) }] });
  const statuses: number[] = [];
  for (let i = 0; i < LOGIN_LIMITS.perName; i++)
    statuses.push((await postJson(d.url, '/api/login', { name: 'dave', password: `wrong ${i}` }, {})).status);
  expect(statuses).toEqual(Array(LOGIN_LIMITS.perName).fill(401));
  await expect(postJson(d.url, '/api/login', { name: 'dave', password: 'right password' }, {})).resolves.toEqual({
    status: 429,
    body: { error: 'too many failed logins for this name from this address; try again in a few minutes' },
  });
});

test('bodies: another content type → 415, more than 16 KiB → 413, not an object → 400; an unknown user → 401 like a wrong password', async () => {
  const d = await desk({ users: [{ name: 'erin', scrypt: await hashPassword('pw of erin', { ln: 10 }) }] });
  const headers = {};
  const asForm = await fetch(`${d.url}/api/login`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'name=erin&password=x',
  });
  expect(asForm.status).toBe(415);
  const big = await postJson(d.url, '/api/login', { name: 'erin', password: 'x'.repeat(MAX_BODY_BYTES) }, headers);
  expect(big.status).toBe(413);
  expect((await postJson(d.url, '/api/login', '[1,2]', headers)).status).toBe(400);
  await expect(postJson(d.url, '/api/login', { name: 'nobody', password: 'pw of erin' }, headers)).resolves.toEqual({
    status: 401,
    body: { error: 'wrong name or password' },
  });
  const ok = await postJson(d.url, '/api/login', { name: 'erin', password: 'pw of erin' }, headers);
  expect(ok).toMatchObject({ status: 200, body: { user: 'erin', via: 'password' } });
  // The session began at the login; a change still needs its token.
  await expect(postJson(d.url, '/api/approvals/decide', {}, headers)).resolves.toEqual({
    status: 403,
    body: { error: 'missing or wrong CSRF token: reload the page' },
  });
});

/** Every clock jest can fake but Date. */
const FAKE_ONLY_DATE: Config.FakeableAPI[] = [
  'hrtime',
  'nextTick',
  'performance',
  'queueMicrotask',
  'requestAnimationFrame',
  'cancelAnimationFrame',
  'requestIdleCallback',
  'cancelIdleCallback',
  'setImmediate',
  'clearImmediate',
  'setInterval',
  'clearInterval',
  'setTimeout',
  'clearTimeout',
];

test('a waiting workflow no worker runs does not hold the page: its query is cut at QUERY_DEADLINE_MS and it shows as blind', async () => {
  const taskQueue = uniqueTaskQueue('desk-orphan');
  const workflowId = `orphan-${taskQueue}`;
  // Listed as waiting (its search attribute says so), yet no worker polls its queue to answer a query.
  const handle = await env.client.workflow.start('agentWorkflow', {
    taskQueue,
    workflowId,
    args: [],
    typedSearchAttributes: new TypedSearchAttributes([{ key: RecoveryStatus, value: 'AwaitingApproval' }]),
  });
  try {
    while (!(await listApprovals(env.client)).some((a) => a.workflowId === workflowId)) {
      await new Promise((r) => setTimeout(r, 200));
    }
    // The deadline the query was given, as scheduled: Date stands still during the read (jest's fake Date;
    // timers and sockets stay real), so the deadline minus the clock is exactly what the desk asked for.
    const given: number[] = [];
    const withDeadline = env.client.withDeadline.bind(env.client);
    const spy = jest.spyOn(env.client, 'withDeadline').mockImplementation((deadline, fn) => {
      given.push(Number(deadline) - Date.now());
      return withDeadline(deadline, fn);
    });
    jest.useFakeTimers({ doNotFake: FAKE_ONLY_DATE });
    let details;
    try {
      details = await readDetails(env.client, workflowId);
    } finally {
      jest.useRealTimers();
      spy.mockRestore();
    }
    expect(details).toEqual({ calls: [], blind: `details cannot be read: no worker polls ${taskQueue}` });
    // Listed from visibility all the same, with what its search attributes say.
    expect((await listing(env.client)).approvals.find((a) => a.workflowId === workflowId)).toEqual({
      workflowId,
      tool: '',
      startedAtMs: expect.any(Number),
      taskQueue,
    });
    // The server itself would hold an unanswered query about 30 s; the desk cuts it at 3 s.
    expect(given).toEqual([QUERY_DEADLINE_MS]);
  } finally {
    await handle.terminate('test over');
  }
});

test('the feed lists runs from visibility alone (no query, no describe per poll); a decision on a call the desk just showed is one update and no read, on one it did not show one query and one update', async () => {
  const taskQueue = uniqueTaskQueue('desk-reads');
  const plugin = new RecoveryPlugin({
    tools: [gatedExportTool(() => service.url, seen)],
    config: { taskQueue, backoff: FAST_BACKOFF },
  });
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowsPath: require.resolve('../temporal/fixtures/parallel-approvals-workflow'),
    plugins: [plugin],
  });
  const workflowId = uniqueTaskQueue('desk-reads-run');
  const service_ = env.client.workflowService;
  const calls = { query: 0, describe: 0, update: 0 };
  // Counting wrappers around the real calls: of this run (a query's `execution`, an update's `workflowExecution`).
  type Run = { workflowId?: string | null } | null;
  type Named = { execution?: Run; workflowExecution?: Run };
  const count = (
    method: 'queryWorkflow' | 'describeWorkflowExecution' | 'updateWorkflowExecution',
    field: keyof typeof calls,
  ) => {
    const real = service_[method].bind(service_) as (r: never) => Promise<unknown>;
    return jest.spyOn(service_, method).mockImplementation(((r: Named) => {
      if ((r.execution ?? r.workflowExecution)?.workflowId === workflowId) calls[field]++;
      return real(r as never);
    }) as never);
  };
  const month = (m: string, callId: string) => ({ tool: 'export_report', args: { month: m }, callId });
  await worker.runUntil(async () => {
    await env.client.workflow.start('parallelCalls', {
      taskQueue,
      workflowId,
      args: [{ ...plugin.workflowDefaults(), calls: [month('2027-03', 'r-1'), month('2027-04', 'r-2')] }],
    });
    while ((await pendingApprovals(env.client, workflowId)).length < 2) await new Promise((r) => setTimeout(r, 200));
    while (!(await listing(env.client)).approvals.some((w) => w.workflowId === workflowId))
      await new Promise((r) => setTimeout(r, 200));
    const counted = [
      count('queryWorkflow', 'query'),
      count('describeWorkflowExecution', 'describe'),
      count('updateWorkflowExecution', 'update'),
    ];
    try {
      for (let i = 0; i < 3; i++) await listing(env.client);
      expect(calls).toEqual({ query: 0, describe: 0, update: 0 });
      const decided: string[] = [];
      const actions = new DeskActions(env.client, undefined, (id) => decided.push(id));
      const details = (await actions.details({ workflowId })) as {
        calls: Array<{ callId: string; argsDigest: string }>;
      };
      expect(details.calls.map((c) => c.callId).sort()).toEqual(['r-1', 'r-2']);
      expect(calls).toEqual({ query: 1, describe: 0, update: 0 });
      const [r1, r2] = ['r-1', 'r-2'].map((id) => details.calls.find((c) => c.callId === id)!);
      // The desk showed r-1 a moment ago: the decision is the update alone.
      await actions.decide('ops', {
        workflowId,
        callId: 'r-1',
        argsDigest: r1!.argsDigest,
        approved: false,
        reason: 'no',
      });
      expect(calls).toEqual({ query: 1, describe: 0, update: 1 });
      // Another desk never showed r-2: it reads the run's calls first.
      const other = new DeskActions(env.client, undefined, (id) => decided.push(id));
      await other.decide('ops', {
        workflowId,
        callId: 'r-2',
        argsDigest: r2!.argsDigest,
        approved: false,
        reason: 'no',
      });
      expect(calls).toEqual({ query: 2, describe: 0, update: 2 });
      expect(decided).toEqual([workflowId, workflowId]);
    } finally {
      counted.forEach((s) => s.mockRestore());
    }
    await env.client.workflow.getHandle(workflowId).result();
  });
});
