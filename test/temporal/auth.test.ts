/**
 * Re-auth and approval on the real dev server (docs/DESIGN.md, "Routes": an access token that expires mid-session,
 * and the 401/403 rows of the route table): a loopback OAuth token endpoint with rotating refresh tokens, a
 * protected endpoint, and the approval signal.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { z } from 'zod';
import { defineTool } from '../../activities/define-tool';
import { CredentialBroker } from '../../activities/credentials';
import { oauthRefreshProvider, startOAuthService, type OAuthService } from '../../examples/oauth-service';
import { startScriptedService, type ScriptedService } from '../../examples/scripted-service';
import { argsHash } from '../../recovery/canonical';
import { approvalSignal, pendingApprovalsQuery } from '../../workflows/definitions';
import type { ToolPlanResult } from '../../workflows/tool-plan';
import { testEnv, timeSkippingEnv } from '../setup/env';
import { failedOutcome, harness, timerDurationsMs } from './harness';

let env: TestWorkflowEnvironment;
let oauth: OAuthService;
let service: ScriptedService;
beforeAll(async () => {
  env = await testEnv();
  service = await startScriptedService({});
});
beforeEach(async () => {
  oauth = await startOAuthService();
});
afterEach(async () => {
  await oauth.close();
});
afterAll(async () => {
  await service?.close();
  await env?.teardown();
});

const profileTool = (baseUrl: string) =>
  defineTool({
    name: 'get_profile',
    description: 'The signed-in customer profile.',
    input: z.object({ who: z.string() }),
    output: z.object({ name: z.string(), plan: z.string() }),
    effect: 'read',
    credential: 'crm',
    async execute(_args, ctx) {
      return (await ctx.http.request({ url: `${baseUrl}/profile` })).body as never;
    },
  });

test('401 (expired token) → one refresh by the broker, then the replay succeeds: 2 activities, 1 refresh', async () => {
  const broker = new CredentialBroker({ crm: oauthRefreshProvider(`${oauth.url}/token`, oauth.initialRefreshToken) });
  await broker.current('crm'); // the first token (one grant), then it expires
  oauth.expireAll();
  const h = await harness(env, [profileTool(oauth.url)], { credentials: broker });
  const r = await h.run(() => h.runPlan({ calls: [{ tool: 'get_profile', args: { who: 'me' } }] }));
  expect(r.outcomes[0]).toMatchObject({ ok: true, value: { name: 'Ada', plan: 'pro' }, activities: 2 });
  expect(oauth.profileCalls).toBe(2);
  expect(oauth.profile401s).toBe(1);
  expect(broker.refreshCount('crm')).toBe(1);
  expect(oauth.refreshes).toBe(2); // the initial grant and the one refresh
  expect(r.records.at(-1)).toMatchObject({ terminal: 'succeeded', evidence: 'credential_refreshed' });
});

test('3 concurrent calls all get 401 → exactly one refresh (single-flight); each call replays once', async () => {
  const broker = new CredentialBroker({ crm: oauthRefreshProvider(`${oauth.url}/token`, oauth.initialRefreshToken) });
  await broker.current('crm');
  oauth.expireAll();
  oauth.gateProfile(3); // the three first requests are answered only once all three arrived
  const h = await harness(env, [profileTool(oauth.url)], { credentials: broker });
  const results = await h.run(() =>
    Promise.all([1, 2, 3].map(() => h.runPlan({ calls: [{ tool: 'get_profile', args: { who: 'me' } }] }))),
  );
  for (const r of results) expect(r.outcomes[0]).toMatchObject({ ok: true, activities: 2 });
  expect(broker.refreshCount('crm')).toBe(1);
  expect(oauth.refusedRefreshes).toBe(0); // a rotating refresh token was never spent twice
  expect(oauth.profile401s).toBe(3);
  expect(oauth.profileCalls).toBe(6);
});

test('dead refresh token (invalid_grant) → escalate to a human, no loop: 1 dispatch, 1 refused refresh', async () => {
  const broker = new CredentialBroker({ crm: oauthRefreshProvider(`${oauth.url}/token`, oauth.initialRefreshToken) });
  await broker.current('crm');
  oauth.expireAll();
  oauth.revokeRefreshTokens();
  const h = await harness(env, [profileTool(oauth.url)], { credentials: broker });
  const r = await h.run(() => h.runPlan({ calls: [{ tool: 'get_profile', args: { who: 'me' } }] }));
  const out = failedOutcome(r.outcomes[0]);
  expect(out).toMatchObject({
    action: 'escalate',
    terminal: true,
    failure: { class: 'authentication', reason: 'refresh_failed' },
  });
  expect(oauth.profileCalls).toBe(1);
  expect(oauth.refusedRefreshes).toBe(1);
});

describe('403', () => {
  const exportTool = (approvalCanLift: boolean) =>
    defineTool({
      name: 'export_report',
      description: 'Exports the monthly report.',
      input: z.object({ month: z.string() }),
      output: z.object({ url: z.string() }),
      effect: 'read',
      approvalCanLift,
      async execute(args, ctx) {
        const headers: Record<string, string> = ctx.approval ? { 'x-approved-by': ctx.approval.by } : {};
        return (await ctx.http.request({ url: `${service.url}/export`, headers })).body as never;
      },
    });

  test('403 on a tool approval cannot lift → 1 dispatch, stop, never retried', async () => {
    service.reset({ 'GET /export': [{ status: 403, body: { code: 'forbidden' } }] });
    const h = await harness(env, [exportTool(false)]);
    const r = await h.run(() => h.runPlan({ calls: [{ tool: 'export_report', args: { month: '2026-11' } }] }));
    expect(failedOutcome(r.outcomes[0])).toMatchObject({
      action: 'stop',
      terminal: true,
      failure: { class: 'authorization' },
    });
    expect(service.hits('GET /export')).toBe(1);
  });

  test('403 without an approval (timeout) → 1 dispatch, stop; the wait is one timer of exactly approvalTimeoutMs', async () => {
    service.reset({ 'GET /export': [{ status: 403, body: { code: 'approval_required' } }] });
    const skipping = await timeSkippingEnv(); // the expiry as scheduled, not waited for
    try {
      const h = await harness(skipping, [exportTool(true)]);
      const r = await h.run(() =>
        h.runPlan({ calls: [{ tool: 'export_report', args: { month: '2026-11' } }], approvalTimeoutMs: 1_000 }),
      );
      expect(failedOutcome(r.outcomes[0])).toMatchObject({
        action: 'stop',
        failure: { class: 'authorization', reason: 'approval_required' },
      });
      expect(service.hits('GET /export')).toBe(1);
      expect(timerDurationsMs(await h.history(r.workflowId))).toEqual([1_000]);
    } finally {
      await skipping.teardown();
    }
  });

  test('403 with an approval signal → the call resumes and runs again with the approval: 2 activities', async () => {
    service.reset({
      'GET /export': [
        { status: 403, body: { code: 'approval_required' } },
        { status: 200, body: { url: 'https://files/r.pdf' } },
      ],
    });
    const h = await harness(env, [exportTool(true)]);
    const r = await h.run(async () => {
      const id = await h.startPlan({ calls: [{ tool: 'export_report', args: { month: '2026-11' } }] });
      const handle = env.client.workflow.getHandle(id);
      let pending = await handle.query(pendingApprovalsQuery);
      for (let i = 0; i < 100 && pending.length === 0; i++) {
        await new Promise((ok) => setTimeout(ok, 100));
        pending = await handle.query(pendingApprovalsQuery);
      }
      expect(pending).toEqual([
        expect.objectContaining({
          tool: 'export_report',
          callId: expect.any(String),
          argsDigest: argsHash({ month: '2026-11' }),
          argsPreview: { month: '2026-11' },
        }),
      ]);
      await handle.signal(approvalSignal, {
        callId: pending[0]!.callId,
        argsDigest: pending[0]!.argsDigest,
        approved: true,
        by: 'ops@example',
      });
      return (await handle.result()) as ToolPlanResult;
    });
    expect(r.outcomes[0]).toMatchObject({ ok: true, value: { url: 'https://files/r.pdf' }, activities: 2 });
    expect(service.hits('GET /export')).toBe(2);
    expect(service.received[1]?.headers['x-approved-by']).toBe('ops@example');
  });
});
