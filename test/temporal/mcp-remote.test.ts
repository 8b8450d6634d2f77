/**
 * A remote MCP server on the real dev server: the SDK's `McpServer` over streamable HTTP behind the SDK's
 * bearer-auth middleware (examples/mcp-payments-server.ts), its tokens from the credential broker (an OAuth
 * refresh-token provider against the server's own token endpoint). Every number comes from the server's own
 * record of the calls it ran (with the token each presented), the broker, and the workflow's outcomes.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { CredentialBroker } from '../../activities/credentials';
import type { AnyTool } from '../../activities/define-tool';
import { connectMcp, mcpTools, type McpConnection } from '../../mcp';
import { startPaymentsMcpServer, type PaymentsMcpServer } from '../../examples/mcp-payments-server';
import { oauthRefreshProvider } from '../../examples/oauth-service';
import { testEnv } from '../setup/env';
import { attemptLog } from './fixtures/attempt-log';
import { FAST_BACKOFF, failedOutcome, harness, okOutcome } from './harness';

let env: TestWorkflowEnvironment;
let server: PaymentsMcpServer;
let broker: CredentialBroker;
let connection: McpConnection;
let tools: AnyTool[];

beforeAll(async () => {
  env = await testEnv();
});
beforeEach(async () => {
  server = await startPaymentsMcpServer();
  broker = new CredentialBroker({ payments: oauthRefreshProvider(server.tokenUrl, server.initialRefreshToken) });
  connection = await connectMcp({ url: server.url, credential: { broker, id: 'payments' } });
  tools = await mcpTools(connection, {
    prefix: 'pay_',
    trustAnnotations: true,
    // The server commits before it answers and find_payment reads its own writes: a "not found" is final at once.
    tools: {
      create_payment: {
        idempotencyKey: 'idempotency_key',
        lookup: { tool: 'find_payment' },
        commit: { settleMs: 0, lookupLagMs: 0 },
      },
    },
  });
});
afterEach(async () => {
  await connection?.close();
  await server?.close();
});
afterAll(async () => {
  await env?.teardown();
});

const callsOf = (tool: string) => server.calls.filter((c) => c.tool === tool);
const BALANCE = { account: 'acc_1', balanceCents: 12_500 };

test('the tools: effect and replay safety from the trusted annotations; the key argument hidden from the planner', () => {
  expect(tools.map((t) => [t.name, t.effect, t.idempotency, t.credential, t.spec.hasLookup])).toEqual([
    ['pay_get_balance', 'read', { carrier: 'none' }, 'payments', false],
    [
      'pay_create_payment',
      'write',
      { carrier: 'field', name: 'idempotency_key', deduplicates: false },
      'payments',
      true,
    ],
    ['pay_find_payment', 'read', { carrier: 'none' }, 'payments', false],
  ]);
  const create = tools[1]!.spec.inputSchema as { properties: Record<string, unknown>; required: string[] };
  expect(Object.keys(create.properties)).toEqual(['to', 'amountCents']);
  expect(create.required).toEqual(['to', 'amountCents']);
});

test('HTTP 401 (the bearer middleware refuses the expired token) → 1 refresh, the replay presents the new token: 2 activities', async () => {
  const old = await broker.current('payments');
  server.expireAll();
  const h = await harness(env, tools, { credentials: broker });
  const r = await h.run(() => h.runPlan({ calls: [{ tool: 'pay_get_balance', args: { account: 'acc_1' } }] }));
  expect(okOutcome(r.outcomes[0])).toMatchObject({ value: { structuredContent: BALANCE }, activities: 2 });
  expect(r.records.at(-1)).toMatchObject({ terminal: 'succeeded', evidence: 'credential_refreshed' });
  expect(server.http401s).toBe(1);
  expect(broker.refreshCount('payments')).toBe(1);
  const fresh = await broker.current('payments');
  expect(fresh.token).not.toBe(old.token);
  // The 401 never reached a tool: the one call the tool ran presented the refreshed token.
  expect(callsOf('get_balance').map((c) => c.token)).toEqual([fresh.token]);
});

test('isError "401 Unauthorized: the access token expired" → authentication → 1 refresh → the replay succeeds: 2 dispatches, the new token seen', async () => {
  const old = await broker.current('payments');
  server.revokeUpstream();
  const h = await harness(env, tools, { credentials: broker });
  const r = await h.run(() => h.runPlan({ calls: [{ tool: 'pay_get_balance', args: { account: 'acc_1' } }] }));
  expect(okOutcome(r.outcomes[0])).toMatchObject({ value: { structuredContent: BALANCE }, activities: 2 });
  expect(r.records.at(-1)).toMatchObject({ terminal: 'succeeded', evidence: 'credential_refreshed' });
  expect(broker.refreshCount('payments')).toBe(1);
  const fresh = await broker.current('payments');
  expect(callsOf('get_balance').map((c) => c.token)).toEqual([old.token, fresh.token]);
  expect(server.http401s).toBe(0);
});

test('3 concurrent calls all answered isError auth → exactly 1 refresh (single-flight); each replays once with the new token', async () => {
  const old = await broker.current('payments');
  server.revokeUpstream();
  server.gateBalance(3); // the three first calls are answered only once all three arrived
  const h = await harness(env, tools, { credentials: broker });
  const results = await h.run(() =>
    Promise.all(
      ['acc_1', 'acc_2', 'acc_3'].map((account) =>
        h.runPlan({ calls: [{ tool: 'pay_get_balance', args: { account } }] }),
      ),
    ),
  );
  for (const r of results) expect(okOutcome(r.outcomes[0])).toMatchObject({ activities: 2 });
  expect(broker.refreshCount('payments')).toBe(1);
  const fresh = await broker.current('payments');
  const tokens = callsOf('get_balance').map((c) => c.token);
  expect([tokens.filter((t) => t === old.token).length, tokens.filter((t) => t === fresh.token).length]).toEqual([
    3, 3,
  ]);
});

test('isError "HTTP 502 Bad Gateway" twice → transient, retried by Temporal after 300 and 600 ms; no refresh', async () => {
  server.failNext('get_balance', 'payments API: HTTP 502 Bad Gateway', 2);
  const log = attemptLog();
  const h = await harness(env, tools, {
    credentials: broker,
    config: { backoff: { initialIntervalMs: 300, backoffCoefficient: 2, maximumIntervalMs: 5_000, jitterRatio: 0 } },
    interceptors: { activity: [log.factory] },
  });
  const r = await h.run(() => h.runPlan({ calls: [{ tool: 'pay_get_balance', args: { account: 'acc_1' } }] }));
  expect(okOutcome(r.outcomes[0])).toMatchObject({ value: { structuredContent: BALANCE }, attempts: 3, activities: 1 });
  expect(callsOf('get_balance')).toHaveLength(3);
  // The delays the activity scheduled (its failures' nextRetryDelay), never the measured gaps between the calls.
  expect(log.delaysMs()).toEqual([300, 600]);
  expect(broker.refreshCount('payments')).toBe(0);
  expect(server.refreshes).toBe(1); // the first grant only
});

test('isError "429 Too Many Requests; retry after 1 seconds" → the retry scheduled exactly the 1 000 ms the text asks for', async () => {
  server.failNext('get_balance', 'payments API: HTTP 429 Too Many Requests; retry after 1 seconds');
  const log = attemptLog();
  const h = await harness(env, tools, {
    credentials: broker,
    // No jitter: the text's 1 000 ms is the floor over a 50 ms backoff, so the delay is exactly that.
    config: { backoff: { ...FAST_BACKOFF, jitterRatio: 0 } },
    interceptors: { activity: [log.factory] },
  });
  const r = await h.run(() => h.runPlan({ calls: [{ tool: 'pay_get_balance', args: { account: 'acc_1' } }] }));
  expect(okOutcome(r.outcomes[0])).toMatchObject({ attempts: 2, activities: 1 });
  expect(callsOf('get_balance')).toHaveLength(2);
  expect(log.delaysMs()).toEqual([1_000]);
});

test('a write whose answer is lost → outcome_unknown → reconciled by find_payment: exactly 1 payment, 1 create call', async () => {
  server.loseNextAnswer('create_payment');
  const h = await harness(env, tools, { credentials: broker });
  const r = await h.run(() =>
    h.runPlan({ calls: [{ tool: 'pay_create_payment', args: { to: 'acct_bob', amountCents: 500 } }] }),
  );
  const out = okOutcome(r.outcomes[0]);
  expect(out).toMatchObject({
    reconciled: 'lookup',
    value: { structuredContent: { paymentId: 'pay_1', to: 'acct_bob', amountCents: 500, status: 'created' } },
  });
  expect(server.payments).toHaveLength(1);
  expect(server.payments[0]!.idempotencyKey).toBe(out.operationId);
  expect(callsOf('create_payment')).toHaveLength(1);
  expect(callsOf('find_payment')).toHaveLength(1);
  expect(r.records[0]).toMatchObject({ class: 'outcome_unknown', phase: 'commit_unknown', action: 'reconcile' });
});

test('a write whose lookup finds nothing → replayed once with the same key: 1 payment', async () => {
  server.failNext('create_payment', 'payments API: upstream timed out');
  const h = await harness(env, tools, { credentials: broker });
  const r = await h.run(() =>
    h.runPlan({ calls: [{ tool: 'pay_create_payment', args: { to: 'acct_bob', amountCents: 700 } }] }),
  );
  const out = okOutcome(r.outcomes[0]);
  expect(out).toMatchObject({ reconciled: 'replay', value: { structuredContent: { amountCents: 700 } } });
  expect(r.records[0]).toMatchObject({ class: 'outcome_unknown', reason: 'timeout', action: 'reconcile' });
  expect(server.payments.map((p) => p.idempotencyKey)).toEqual([out.operationId]);
  expect(callsOf('create_payment')).toHaveLength(2);
  expect(callsOf('find_payment')).toHaveLength(1);
});

test('a dead refresh token after an isError auth answer → escalate, 1 dispatch', async () => {
  await broker.current('payments');
  server.revokeUpstream();
  const dead = new CredentialBroker({
    payments: {
      initial: async () => broker.current('payments'),
      refresh: async () => Promise.reject(new Error('invalid_grant')),
    },
  });
  const h = await harness(env, tools, { credentials: dead });
  const r = await h.run(() => h.runPlan({ calls: [{ tool: 'pay_get_balance', args: { account: 'acc_1' } }] }));
  expect(failedOutcome(r.outcomes[0])).toMatchObject({
    action: 'escalate',
    failure: { class: 'authentication', reason: 'refresh_failed' },
  });
  expect(callsOf('get_balance')).toHaveLength(1);
});
