/**
 * The approval lifecycle in the workflow (workflows/approvals.ts, docs/approvals.md "Lifecycle"), on the
 * time-skipping test server: a request expires after `approvalTimeoutMs`; an approval is used once; it can be
 * revoked during `approvalHoldMs`, never after use; a batch covers exactly its listed calls, each bound to its own
 * digest, all or none. Time only moves when the test sleeps (`env.sleep`) or awaits a result.
 */
import { WorkflowUpdateFailedError } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import type { ToolContext } from '../../activities/tool-context';
import { startScriptedService, type ScriptedService } from '../../examples/scripted-service';
import {
  approvalLedger,
  ApprovalError,
  decideApproval,
  decideApprovals,
  pendingApprovals,
  revokeApproval,
} from '../../client';
import { RecoveryPlugin } from '../../plugin/recovery-plugin';
import { argsHash } from '../../recovery/canonical';
import { decideApprovalUpdate, type PendingApproval } from '../../workflows/definitions';
import type { ToolOutcome } from '../../workflows/tool-router';
import { timeSkippingEnv, uniqueTaskQueue } from '../setup/env';
import { GATED_SCRIPT, gatedExportTool } from './fixtures/gated-export-tool';
import type { ParallelCallsInput } from './fixtures/parallel-approvals-workflow';
import { FAST_BACKOFF } from './harness';

let env: TestWorkflowEnvironment;
let service: ScriptedService;
let worker: Worker;
let running: Promise<void>;
let plugin: RecoveryPlugin;
const seen: Array<{ month: string; approval: ToolContext['approval'] }> = [];
const taskQueue = uniqueTaskQueue('lifecycle');
const HOUR = 3_600_000;

beforeAll(async () => {
  env = await timeSkippingEnv();
  service = await startScriptedService(GATED_SCRIPT);
  plugin = new RecoveryPlugin({
    tools: [gatedExportTool(() => service.url, seen)],
    config: { taskQueue, backoff: FAST_BACKOFF },
  });
  worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowsPath: require.resolve('./fixtures/parallel-approvals-workflow'),
    plugins: [plugin],
  });
  running = worker.run();
});
afterAll(async () => {
  worker?.shutdown();
  await running;
  await service?.close();
  await env?.teardown();
});
beforeEach(() => {
  seen.length = 0;
  service.reset(GATED_SCRIPT);
});

/** Starts `parallelCalls` with one call per month (call ids `c-<month>`); returns its id. */
async function start(months: string[], options: Partial<ParallelCallsInput> = {}): Promise<string> {
  const workflowId = uniqueTaskQueue('lifecycle-run');
  const calls = months.map((m) => ({ tool: 'export_report', args: { month: m }, callId: `c-${m}` }));
  await env.client.workflow.start('parallelCalls', {
    taskQueue,
    workflowId,
    args: [{ ...plugin.workflowDefaults(), ...options, calls }],
  });
  return workflowId;
}

/** Polls the query until `n` calls wait (wall-clock polling: time-skipping time does not move meanwhile). */
async function waiting(id: string, n: number): Promise<PendingApproval[]> {
  for (let i = 0; i < 400; i++) {
    const pending = await pendingApprovals(env.client, id);
    if (pending.length === n) return pending.sort((a, b) => a.callId.localeCompare(b.callId));
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${n} calls never waited for approval`);
}

const result = (id: string) => env.client.workflow.getHandle(id).result() as Promise<{ outcomes: ToolOutcome[] }>;
const feedback = (o: ToolOutcome | undefined) => (o && !o.ok ? o.feedback.message : undefined);

test('expiry: no decision within approvalTimeoutMs (1 h) → the call stops with the expiry message; a later decision is refused as expired', async () => {
  const id = await start(['2026-01'], { approvalTimeoutMs: HOUR });
  const [call] = await waiting(id, 1);
  expect(call!.expiresAtMs - call!.sinceMs).toBe(HOUR);
  await env.sleep(HOUR + 1_000);
  const r = await result(id);
  expect(feedback(r.outcomes[0])).toBe(
    'The approval request expired after 1 h without a decision; the action was not taken.',
  );
  await expect(
    decideApproval(env.client, id, { callId: 'c-2026-01', argsDigest: call!.argsDigest, approved: true, by: 'ops' }),
  ).rejects.toThrow(
    new ApprovalError(
      `${id}: the approval request of call "c-2026-01" expired at ${new Date(call!.expiresAtMs).toISOString()}; it can no longer be decided`,
    ),
  );
  expect(await approvalLedger(env.client, id)).toEqual([
    expect.objectContaining({ callId: 'c-2026-01', state: 'expired', expiresAtMs: call!.expiresAtMs }),
  ]);
  expect([service.hits('GET /export'), service.hits('GET /export-approved')]).toEqual([1, 0]);
});

test('single use: the approved call runs once with the approval; a second decision for it is refused as used, while the run goes on', async () => {
  const id = await start(['2026-02', '2026-03']);
  const [a, b] = await waiting(id, 2);
  await decideApproval(env.client, id, { callId: a!.callId, argsDigest: a!.argsDigest, approved: true, by: 'ops' });
  await waiting(id, 1); // a has run with its approval; b still waits, so the run is open
  const second = env.client.workflow.getHandle(id).executeUpdate(decideApprovalUpdate, {
    args: [{ callId: a!.callId, argsDigest: a!.argsDigest, approved: true, by: 'mallory' }],
  });
  await expect(second).rejects.toThrow(WorkflowUpdateFailedError);
  await expect(second.catch((e: WorkflowUpdateFailedError) => e.cause?.message)).resolves.toMatch(
    /^call "c-2026-02" was approved and the approval was used at \d{4}-\d\d-\d\dT.*Z: an approval is used once$/,
  );
  const entryA = (await approvalLedger(env.client, id)).find((e) => e.callId === a!.callId);
  expect(entryA).toMatchObject({ state: 'used', decision: { approved: true, by: 'ops', via: 'update' } });
  expect(entryA!.usedAtMs).toBeGreaterThanOrEqual(entryA!.decision!.atMs);
  await decideApproval(env.client, id, { callId: b!.callId, argsDigest: b!.argsDigest, approved: false, by: 'ops' });
  const r = await result(id);
  expect(r.outcomes.map((o) => o.ok)).toEqual([true, false]);
  expect(seen.filter((s) => s.approval).map((s) => [s.month, s.approval!.by])).toEqual([['2026-02', 'ops']]);
  expect([service.hits('GET /export'), service.hits('GET /export-approved')]).toEqual([2, 1]);
});

test('revocation: an approval held for approvalHoldMs (10 min) is revoked before use → the call stops, never runs again', async () => {
  const id = await start(['2026-04'], { approvalHoldMs: 600_000 });
  const [call] = await waiting(id, 1);
  const grant = await decideApproval(env.client, id, { ...pick(call!), approved: true, by: 'ops' });
  expect(grant).toMatchObject({ callId: 'c-2026-04', by: 'ops' });
  const [held] = await waiting(id, 1);
  expect(held).toMatchObject({ state: 'approved' });
  const entry = await revokeApproval(env.client, id, { callId: 'c-2026-04', by: 'lead', reason: 'wrong month' });
  expect(entry).toMatchObject({ state: 'revoked', revoked: { by: 'lead', reason: 'wrong month' } });
  expect(held!.holdUntilMs! - entry.decision!.atMs).toBe(600_000);
  const r = await result(id);
  expect(feedback(r.outcomes[0])).toBe('The approval was revoked before it was used; the action was not taken.');
  expect([service.hits('GET /export'), service.hits('GET /export-approved')]).toEqual([1, 0]);
});

test('revocation after use is refused; a call still waiting cannot be revoked (deny it instead)', async () => {
  const id = await start(['2026-05', '2026-06'], { approvalHoldMs: 600_000 });
  const [a, b] = await waiting(id, 2);
  await expect(revokeApproval(env.client, id, { callId: a!.callId, by: 'lead' })).rejects.toThrow(
    'call "c-2026-05" is not approved yet: deny it instead',
  );
  await decideApproval(env.client, id, { ...pick(a!), approved: true, by: 'ops' });
  await env.sleep(600_000 + 1_000); // the hold ends: a runs with its approval
  await waiting(id, 1);
  await expect(revokeApproval(env.client, id, { callId: a!.callId, by: 'lead' })).rejects.toThrow(
    /^the approval of call "c-2026-05" was already used at .*Z: it cannot be revoked$/,
  );
  await decideApproval(env.client, id, { ...pick(b!), approved: false, by: 'ops' });
  expect((await result(id)).outcomes.map((o) => o.ok)).toEqual([true, false]);
  expect(service.hits('GET /export-approved')).toBe(1);
});

test('batch: covers exactly the listed calls, each bound to its own digest; one wrong digest refuses the whole batch', async () => {
  const id = await start(['2026-07', '2026-08', '2026-09']);
  const [a, b, c] = await waiting(id, 3);
  expect([a, b, c].map((p) => p!.argsDigest)).toEqual(
    ['2026-07', '2026-08', '2026-09'].map((m) => argsHash({ month: m })),
  );
  expect(new Set([a, b, c].map((p) => p!.turn))).toEqual(new Set([1]));
  // b named with c's digest: refused, and a is not approved either
  await expect(
    decideApprovals(env.client, id, {
      calls: [pick(a!), { callId: b!.callId, argsDigest: c!.argsDigest }],
      approved: true,
      by: 'ops',
    }),
  ).rejects.toThrow('argsDigest is not the digest of the waiting call: approve what it shows');
  expect((await approvalLedger(env.client, id)).map((e) => e.state)).toEqual(['waiting', 'waiting', 'waiting']);
  const grants = await decideApprovals(env.client, id, { calls: [pick(a!), pick(b!)], approved: true, by: 'ops' });
  expect(grants.map((g) => [g.callId, g.approved, g.by])).toEqual([
    ['c-2026-07', true, 'ops'],
    ['c-2026-08', true, 'ops'],
  ]);
  const [left] = await waiting(id, 1);
  expect(left!.callId).toBe('c-2026-09'); // not listed, so not approved
  await decideApproval(env.client, id, { ...pick(c!), approved: false, by: 'ops' });
  const r = await result(id);
  expect(r.outcomes.map((o) => o.ok)).toEqual([true, true, false]);
  expect(
    seen
      .filter((s) => s.approval)
      .map((s) => s.month)
      .sort(),
  ).toEqual(['2026-07', '2026-08']);
  expect([service.hits('GET /export'), service.hits('GET /export-approved')]).toEqual([3, 2]);
});

function pick(p: PendingApproval): { callId: string; argsDigest: string } {
  return { callId: p.callId, argsDigest: p.argsDigest };
}
