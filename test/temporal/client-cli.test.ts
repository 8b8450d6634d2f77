/**
 * The operator's side on the real dev server: client functions and the CLI of client.ts over a real review case
 * (a refund whose outcome stayed unknown, with the ledger's lookup down) and a real approvable 403.
 * Visibility is eventually consistent, so every listing is polled until the entry appears (or leaves).
 *
 * The review tests share one case and run in order: listed → shown → refused → decided → gone.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Client } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import {
  ApprovalError,
  decideApproval,
  decideReview,
  listApprovals,
  listReviews,
  pendingApprovals,
  ReviewError,
  showReview,
  type ApprovalListing,
  type ReviewListing,
} from '../../client';
import { startLedgerService, type LedgerService } from '../../examples/ledger-service';
import { ledgerTools } from '../../examples/ledger-tools';
import { startScriptedService } from '../../examples/scripted-service';
import { temporalBinaries } from '../../scripts/temporal-binaries';
import type { ReviewCase } from '../../workflows/definitions';
import type { ToolPlanResult } from '../../workflows/tool-plan';
import { testEnv, uniqueTaskQueue, writeKey } from '../setup/env';
import { TS_CHILD_ARGS } from '../setup/ts-child';
import { eventMs, harness, type Harness } from './harness';
import { exportReportTool } from './fixtures/export-report-tool';

const ROOT = resolve(__dirname, '../..');
const FAST_LOOKUPS = { lookupBudget: 3, lookupBackoff: { initialIntervalMs: 50, maximumIntervalMs: 200 } };

let env: TestWorkflowEnvironment;
beforeAll(async () => {
  env = await testEnv();
});
afterAll(async () => {
  await env?.teardown();
});

/** Calls `read` every 100 ms until `done` holds (at most `timeoutMs`); returns the last value. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read().catch(() => undefined);
    if (value !== undefined && done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((ok) => setTimeout(ok, 100));
  }
}

/** A client on which any use throws: proof that a function refused before sending anything. */
const untouchableClient = new Proxy(
  {},
  {
    get: (_t, p) => {
      throw new Error(`the client was used (${String(p)})`);
    },
  },
) as Client;

describe('reviews: a refund whose outcome stayed unknown (lookup down), on one shared case', () => {
  let ledger: LedgerService;
  let h: Harness;
  let worker: Promise<void>;
  let planId: string;
  let operationId: string;

  beforeAll(async () => {
    ledger = await startLedgerService();
    ledger.setLookupDown(true);
    ledger.fault({ kind: 'fail_before_commit' }); // the first POST: nothing committed, outcome unknown
    ledger.fault({ kind: 'slow_commit', delayMs: 1_500 }); // the review's replay: commits after 1.5 s
    h = await harness(env, ledgerTools(ledger.url).all);
    worker = h.worker.run();
    planId = uniqueTaskQueue('cli-review');
    await h.startPlan(
      {
        calls: [{ tool: 'issue_refund', args: { orderId: 'O-41', amountCents: 5000 }, stepId: 'O-41' }],
        reconcile: FAST_LOOKUPS,
      },
      planId,
    );
    operationId = await writeKey(env.client, planId, 'O-41');
    await until(
      () => showReview(env.client, operationId),
      (c) => c.status === 'awaiting_review' && c.argsSummary !== null, // the preview comes a few ms after
      `${operationId} awaits review`,
    );
  });
  afterAll(async () => {
    h?.worker.shutdown();
    await worker;
    await ledger?.close();
  });

  test('listReviews: lists the operation with tool issue_refund, workflow id reconcile:<operationId> and the reconciliation start time', async () => {
    const listed = await until(
      () => listReviews(env.client),
      (all) => all.some((r) => r.operationId === operationId),
      'listReviews shows the operation',
    );
    const entry = listed.find((r) => r.operationId === operationId);
    expect(entry).toEqual<ReviewListing>({
      operationId,
      tool: 'issue_refund',
      workflowId: `reconcile:${operationId}`,
      sinceMs: expect.any(Number),
      taskQueue: h.taskQueue,
      agentWorkflowId: expect.any(String),
    });
    // Exactly the reconciliation's start on the server's clock, not a window around this process's clock.
    const started = (await env.client.workflow.getHandle(`reconcile:${operationId}`).describe()).startTime.getTime();
    expect(entry!.sinceMs).toBe(started);
  });

  test('CLI `reviews list` in a child process (TEMPORAL_ADDRESS of the test server) prints the operation, its tool and workflow id', async () => {
    await until(
      () => listReviews(env.client),
      (all) => all.some((r) => r.operationId === operationId),
      'visibility shows the operation',
    );
    const { stdout } = await promisify(execFile)(process.execPath, [...TS_CHILD_ARGS, 'client.ts', 'reviews', 'list'], {
      cwd: ROOT,
      env: { ...process.env, TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS },
      timeout: 30_000,
    });
    const line = stdout.split('\n').find((l) => l.startsWith(`${operationId}\t`));
    expect(line?.split('\t').slice(0, 3)).toEqual([operationId, 'issue_refund', `reconcile:${operationId}`]);
    const started = (await env.client.workflow.getHandle(`reconcile:${operationId}`).describe()).startTime;
    expect(line!.split('\t')[3]).toBe(started.toISOString());
  });

  test('showReview: awaiting_review, 0 replays, 3 unknown lookups, the redacted arguments {orderId O-41, amountCents 5000}', async () => {
    const c = await showReview(env.client, operationId);
    expect(c).toMatchObject<Partial<ReviewCase>>({
      operationId,
      tool: 'issue_refund',
      status: 'awaiting_review',
      replays: 0,
      argsSummary: { orderId: 'O-41', amountCents: 5000 },
    });
    expect(c.lookups.map((l) => l.state)).toEqual(['unknown', 'unknown', 'unknown']);
    // Within the reconciliation's own life on the server's clock: after its start, by its latest event.
    const handle = env.client.workflow.getHandle(`reconcile:${operationId}`);
    const events = (await handle.fetchHistory()).events ?? [];
    expect(c.awaitingSinceMs).toBeGreaterThanOrEqual((await handle.describe()).startTime.getTime());
    expect(c.awaitingSinceMs).toBeLessThanOrEqual(eventMs(events.at(-1)!));
  });

  test("the plain Temporal CLI equivalents of the README: the list query finds reconcile:<operationId>, the query shows the case, an update for the wrong operation is rejected with the validator's reason", async () => {
    const temporal = (...args: string[]) =>
      promisify(execFile)(temporalBinaries().cli, [...args, '--address', process.env.TEMPORAL_TEST_ADDRESS!], {
        timeout: 20_000,
      });
    const workflowId = `reconcile:${operationId}`;
    const listed = await until(
      () =>
        temporal(
          'workflow',
          'list',
          '--query',
          'RecoveryStatus="AwaitingReview" AND ExecutionStatus="Running"',
          '-o',
          'json',
        ),
      (out) => out.stdout.includes(`"workflowId": "${workflowId}"`),
      'temporal workflow list shows it',
    );
    expect(listed.stdout).toContain(`"workflowId": "${workflowId}"`);
    const shown = await temporal(
      'workflow',
      'query',
      '--workflow-id',
      workflowId,
      '--name',
      'recovery.reviewCase',
      '-o',
      'json',
    );
    expect(JSON.parse(shown.stdout)).toMatchObject({
      queryResult: [{ operationId, tool: 'issue_refund', status: 'awaiting_review' }],
    });
    const input = JSON.stringify({ operationId: 'wrong-op', decision: 'abandon', by: 'ops@example', reason: 'test' });
    const update = temporal(
      'workflow',
      'update',
      'execute',
      '--workflow-id',
      workflowId,
      '--name',
      'recovery.decideReview',
      '--input',
      input,
    );
    await expect(update).rejects.toMatchObject({
      stderr: expect.stringContaining(`this workflow reviews ${operationId}, not wrong-op`),
    });
    expect((await showReview(env.client, operationId)).status).toBe('awaiting_review');
  });

  test('showReview of an operation nobody reconciles → ReviewError not_found', async () => {
    await expect(showReview(env.client, `${planId}:nope`)).rejects.toMatchObject({
      name: 'ReviewError',
      code: 'not_found',
      message: `no open reconciliation for operation ${planId}:nope (workflow reconcile:${planId}:nope)`,
    });
  });

  test('decideReview: mark_applied without resultRef, or without a reason, is refused before anything is sent (the client is never touched)', async () => {
    const refused = decideReview(untouchableClient, operationId, {
      decision: 'mark_applied',
      by: 'ops@example',
      reason: 'seen in the ledger',
    });
    await expect(refused).rejects.toBeInstanceOf(ReviewError);
    await expect(refused).rejects.toMatchObject({
      code: 'invalid_decision',
      message: /mark_applied needs a resultRef/,
    });
    await expect(
      decideReview(untouchableClient, operationId, { decision: 'abandon', by: 'ops@example', reason: ' ' }),
    ).rejects.toMatchObject({ code: 'invalid_decision', message: 'a decision needs `by` and `reason` (text)' });
    // Values of the wrong type: a ReviewError too, never a TypeError; the client is not touched.
    for (const [bad, message] of [
      [null, 'a decision must be an object { decision, by, reason, resultRef? }'],
      [{ decision: 'abandon', by: 5, reason: 'r' }, 'a decision needs `by` and `reason` (text)'],
      [{ decision: 'abandon', by: 'ops', reason: {} }, 'a decision needs `by` and `reason` (text)'],
      [{ decision: 'mark_applied', by: 'ops', reason: 'r', resultRef: 5 }, /mark_applied needs a resultRef/],
      [{ decision: 'abandon', by: 'ops', reason: 'r', resultRef: 5 }, /resultRef/],
    ] as const) {
      await expect(decideReview(untouchableClient, operationId, bad as never)).rejects.toMatchObject({
        name: 'ReviewError',
        code: 'invalid_decision',
        message,
      });
    }
    expect((await showReview(env.client, operationId)).status).toBe('awaiting_review');
  });

  test('decideReview: a replay without the confirmed risk is refused (issue_refund does not deduplicate); with it, accepted; a second decision while the replay runs is rejected by the validator ("not awaiting review"); one row, 2 POSTs; then not_found and no longer listed', async () => {
    const replay = { decision: 'replay', by: 'ops@example', reason: 'the provider shows nothing' } as const;
    await expect(decideReview(env.client, operationId, replay)).rejects.toMatchObject({
      name: 'ReviewError',
      code: 'rejected',
      message: 'issue_refund does not deduplicate: a replay may apply the write twice. Confirm the risk to replay.',
    });
    expect(ledger.hits('POST /refunds')).toBe(1);
    const accepted = await decideReview(env.client, operationId, { ...replay, confirmRisk: true });
    expect(accepted).toMatchObject({ operationId, status: 'awaiting_review', replays: 0 });

    // The replay's POST is held 1.5 s by the ledger: the operation is being replayed, not awaiting review.
    const late = decideReview(env.client, operationId, { decision: 'abandon', by: 'ops@example', reason: 'too late' });
    await expect(late).rejects.toBeInstanceOf(ReviewError);
    await expect(late).rejects.toMatchObject({
      code: 'rejected',
      message: `operation ${operationId} is not awaiting review`,
    });

    const r = (await env.client.workflow.getHandle(planId).result()) as ToolPlanResult;
    expect(r.outcomes[0]).toMatchObject({ ok: true, reconciled: 'review_replay', operationId });
    expect(ledger.rows('refunds', operationId)).toBe(1);
    expect(ledger.rows('refunds')).toBe(1);
    expect(ledger.hits('POST /refunds')).toBe(2);
    expect((await showReview(env.client, operationId)).status).toBe('done');

    // The reconciliation has ended: the server has nothing to deliver an update to.
    await expect(
      decideReview(env.client, operationId, { decision: 'abandon', by: 'ops@example', reason: 'after the end' }),
    ).rejects.toMatchObject({ code: 'not_found' });
    await until(
      () => listReviews(env.client),
      (all) => !all.some((x) => x.operationId === operationId),
      'listReviews drops the settled operation',
    );
    expect(ledger.rows('refunds')).toBe(1);
  });
});

describe('decideApproval refuses bad input with ApprovalError', () => {
  const decision = { callId: 'c1', argsDigest: 'a'.repeat(64), approved: true, by: 'ops@example' };
  test.each([
    ['no decision', null, {}, 'an approval decision must be an object { callId, argsDigest, approved, by, reason? }'],
    ['`by` a number', { ...decision, by: 5 }, {}, 'an approval decision needs `by`: who decided'],
    ['a short digest', { ...decision, argsDigest: 'abc' }, {}, /needs the argsDigest/],
    [
      'a short signing key',
      decision,
      { signingKey: 'short' },
      /signingKey must be a string or a Uint8Array of at least 32 bytes/,
    ],
  ])('%s: refused before anything is sent (the client is never touched)', async (_name, bad, options, message) => {
    await expect(decideApproval(untouchableClient, 'wf-1', bad as never, options)).rejects.toMatchObject({
      name: 'ApprovalError',
      code: 'approval_failed',
      message,
    });
  });
  test('a workflow that does not exist → ApprovalError naming it', async () => {
    await expect(decideApproval(env.client, 'no-such-workflow-rr', decision)).rejects.toMatchObject({
      name: 'ApprovalError',
      message: 'workflow no-such-workflow-rr was not found',
    });
  });
});

describe('approvals across workflows', () => {
  test('an approvable 403: listApprovals finds the workflow (tool export_report); decideApproval approves it → 2 requests, the second with x-approved-by; then no longer listed', async () => {
    const service = await startScriptedService({
      'GET /export': [
        { status: 403, body: { code: 'approval_required' } },
        { status: 200, body: { url: 'https://files/r.pdf' } },
      ],
    });
    try {
      const exportTool = exportReportTool(() => service.url);
      const h = await harness(env, [exportTool]);
      const r = await h.run(async () => {
        const id = await h.startPlan({ calls: [{ tool: 'export_report', args: { month: '2026-11' } }] });
        const listed = await until(
          () => listApprovals(env.client),
          (all) => all.some((a) => a.workflowId === id),
          'listApprovals shows the workflow',
        );
        const entry = listed.find((a) => a.workflowId === id);
        expect(entry).toEqual<ApprovalListing>({
          workflowId: id,
          tool: 'export_report',
          startedAtMs: expect.any(Number),
          taskQueue: h.taskQueue,
        });
        expect(entry!.startedAtMs).toBe((await env.client.workflow.getHandle(id).describe()).startTime.getTime());

        const pending = await until(
          () => pendingApprovals(env.client, id),
          (p) => p.length === 1,
          'the call waits',
        );
        expect(pending[0]).toMatchObject({ tool: 'export_report', callId: expect.any(String) });
        const { callId, argsDigest } = pending[0]!;
        await expect(
          decideApproval(env.client, id, { callId: 'no-such-call', argsDigest, approved: true, by: 'ops@example' }),
        ).rejects.toBeInstanceOf(ApprovalError);
        // A decision on other arguments than the waiting call's is refused by the update's validator.
        await expect(
          decideApproval(env.client, id, { callId, argsDigest: 'f'.repeat(64), approved: true, by: 'ops@example' }),
        ).rejects.toThrow('argsDigest is not the digest of the waiting call');
        const grant = await decideApproval(env.client, id, { callId, argsDigest, approved: true, by: 'ops@example' });
        // The identity is the one Temporal recorded for the update: this test client's, not the declared `by`.
        expect(grant).toEqual({
          callId,
          approved: true,
          by: 'ops@example',
          identity: env.client.options.identity,
          signed: false,
          via: 'update',
        });
        const result = (await env.client.workflow.getHandle(id).result()) as ToolPlanResult;
        await until(
          () => listApprovals(env.client),
          (all) => !all.some((a) => a.workflowId === id),
          'listApprovals drops the workflow',
        );
        return result;
      });
      expect(r.outcomes[0]).toMatchObject({ ok: true, value: { url: 'https://files/r.pdf' }, activities: 2 });
      expect(service.hits('GET /export')).toBe(2);
      expect(service.received[1]?.headers['x-approved-by']).toBe('ops@example');
    } finally {
      await service.close();
    }
  });
});
