/**
 * Approvals an operator can trust, on the dev server: the waiting call shows its arguments (redacted) and their
 * digest; a decision binds to that digest; the approver's identity is the one Temporal recorded (update or signal),
 * beside the declared `by`; with an approval key only a signed decision counts; oversized decisions never reach
 * history or an activity's input; the approved call's record says `approval_granted`.
 */
import { Client } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { z } from 'zod';
import { signApproval } from '../../activities/approval-signature';
import { defineTool } from '../../activities/define-tool';
import type { ToolContext } from '../../activities/tool-context';
import { startScriptedService, type ScriptedService } from '../../examples/scripted-service';
import { decideApproval, pendingApprovals } from '../../client';
import { argsHash } from '../../recovery/canonical';
import {
  approvalSignal,
  decideApprovalUpdate,
  pendingApprovalsQuery,
  type PendingApproval,
} from '../../workflows/definitions';
import type { ToolPlanResult } from '../../workflows/tool-plan';
import { testEnv } from '../setup/env';
import { eventTypes, harness, okOutcome, type Harness } from './harness';

let env: TestWorkflowEnvironment;
let service: ScriptedService;
beforeAll(async () => {
  env = await testEnv();
  service = await startScriptedService({});
});
afterAll(async () => {
  await service?.close();
  await env?.teardown();
});

const KEY = 'k'.repeat(40);
const ARGS = { month: '2026-11', apiKey: 'sk-live-abcdefghijklmnopqrstuvwx' };
let seen: ToolContext['approval'][] = [];
const exportTool = defineTool({
  name: 'export_report',
  description: 'Exports the monthly report.',
  input: z.object({ month: z.string(), apiKey: z.string() }),
  output: z.object({ url: z.string() }),
  effect: 'read',
  approvalCanLift: true,
  async execute(_args, ctx) {
    seen.push(ctx.approval);
    return (await ctx.http.request({ url: `${service.url}/export` })).body as never;
  },
});

beforeEach(() => {
  seen = [];
  service.reset({
    'GET /export': [
      { status: 403, body: { code: 'approval_required' } },
      { status: 200, body: { url: 'https://files/r.pdf' } },
    ],
  });
});

async function waiting(id: string): Promise<PendingApproval> {
  for (let i = 0; i < 200; i++) {
    const pending = await pendingApprovals(env.client, id);
    if (pending.length === 1) return pending[0]!;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the call never waited for approval');
}

async function withPlan<T>(h: Harness, fn: (id: string, call: PendingApproval) => Promise<T>): Promise<T> {
  return h.run(async () => {
    const id = await h.startPlan({ calls: [{ tool: 'export_report', args: ARGS }] });
    return fn(id, await waiting(id));
  });
}

async function otherClient(identity: string): Promise<Client> {
  return new Client({ connection: env.client.connection, identity });
}

test('pendingApprovals shows the tool, a redacted preview of the arguments, their digest, the turn and the expiry (24 h after it began)', async () => {
  const h = await harness(env, [exportTool]);
  await withPlan(h, async (id, call) => {
    expect(call).toEqual({
      callId: expect.any(String),
      tool: 'export_report',
      operationId: expect.stringContaining(id),
      message: expect.any(String),
      argsDigest: argsHash(ARGS),
      argsPreview: { month: '2026-11' }, // the secret-looking key is dropped
      sinceMs: expect.any(Number),
      expiresAtMs: call.sinceMs + 86_400_000,
      turn: 1,
      state: 'waiting',
    });
    await decideApproval(env.client, id, {
      callId: call.callId,
      argsDigest: call.argsDigest,
      approved: false,
      by: 'ops',
    });
    await env.client.workflow.getHandle(id).result();
  });
});

test('a decision on another digest is refused: the update at once, the signal ignored; the call still waits', async () => {
  const h = await harness(env, [exportTool]);
  await withPlan(h, async (id, call) => {
    const handle = env.client.workflow.getHandle(id);
    const wrong = { callId: call.callId, argsDigest: argsHash({ month: '2026-12' }), approved: true, by: 'ops' };
    await expect(handle.executeUpdate(decideApprovalUpdate, { args: [wrong] })).rejects.toMatchObject({
      cause: { message: 'argsDigest is not the digest of the waiting call: approve what it shows' },
    });
    await handle.signal(approvalSignal, wrong);
    expect(await handle.query(pendingApprovalsQuery)).toHaveLength(1);
    expect(service.hits('GET /export')).toBe(1);
    await handle.executeUpdate(decideApprovalUpdate, { args: [{ ...wrong, argsDigest: call.argsDigest }] });
    expect(okOutcome(((await handle.result()) as ToolPlanResult).outcomes[0]).value).toEqual({
      url: 'https://files/r.pdf',
    });
  });
  expect(service.hits('GET /export')).toBe(2);
});

test('a signal from another client: the tool sees the identity Temporal recorded, and the record says approval_granted', async () => {
  const h = await harness(env, [exportTool]);
  const result = await withPlan(h, async (id, call) => {
    const approver = await otherClient('approver-bot@ops');
    await approver.workflow.getHandle(id).signal(approvalSignal, {
      callId: call.callId,
      argsDigest: call.argsDigest,
      approved: true,
      by: 'alice', // self-declared
      reason: 'month-end',
    });
    return (await env.client.workflow.getHandle(id).result()) as ToolPlanResult;
  });
  expect(seen).toEqual([
    undefined,
    { by: 'alice', identity: 'approver-bot@ops', reason: 'month-end', signed: false, via: 'signal' },
  ]);
  expect(result.records.at(-1)).toMatchObject({
    terminal: 'succeeded',
    action: 'request_approval',
    evidence: 'approval_granted',
  });
});

describe('with an approval key', () => {
  test('unsigned and forged decisions are refused; a signed one counts, with the updating client identity', async () => {
    const h = await harness(env, [exportTool], { approvals: { signingKey: KEY } });
    await withPlan(h, async (id, call) => {
      const decision = { callId: call.callId, argsDigest: call.argsDigest, approved: true, by: 'mallory' };
      const mallory = await otherClient('mallory@laptop');
      const handle = mallory.workflow.getHandle(id);
      await expect(handle.executeUpdate(decideApprovalUpdate, { args: [decision] })).rejects.toMatchObject({
        cause: { message: 'the decision was refused: signature_required', type: 'approval_refused' },
      });
      const forged = signApproval('m'.repeat(40), { workflowId: id, tool: 'export_report', ...decision });
      await expect(
        handle.executeUpdate(decideApprovalUpdate, { args: [{ ...decision, signature: forged }] }),
      ).rejects.toMatchObject({ cause: { message: 'the decision was refused: signature_invalid' } });
      // A signature over other arguments does not fit this call either.
      const otherArgs = signApproval(KEY, {
        workflowId: id,
        tool: 'export_report',
        ...decision,
        argsDigest: 'a'.repeat(64),
      });
      await expect(
        handle.executeUpdate(decideApprovalUpdate, { args: [{ ...decision, signature: otherArgs }] }),
      ).rejects.toMatchObject({ cause: { message: 'the decision was refused: signature_invalid' } });
      expect(await pendingApprovals(env.client, id)).toHaveLength(1);
      const grant = await decideApproval(
        await otherClient('approval-service'),
        id,
        { ...decision, by: 'ops' },
        { signingKey: KEY },
      );
      expect(grant).toEqual({
        callId: call.callId,
        approved: true,
        by: 'ops',
        identity: 'approval-service',
        signed: true,
        via: 'update',
      });
      await env.client.workflow.getHandle(id).result();
    });
    expect(seen.at(-1)).toEqual({ by: 'ops', identity: 'approval-service', signed: true, via: 'update' });
    expect(service.hits('GET /export')).toBe(2);
  });
});

test('oversized decisions: a 3 MB update is never accepted and the run goes on; a 1.9 MB signal is ignored, never copied into an activity', async () => {
  const h = await harness(env, [exportTool]);
  await withPlan(h, async (id, call) => {
    const handle = env.client.workflow.getHandle(id);
    const base = { callId: call.callId, argsDigest: call.argsDigest, approved: true, by: 'ops' };
    // Our client refuses it before sending anything.
    await expect(decideApproval(env.client, id, { ...base, reason: 'x'.repeat(3_000_000) })).rejects.toThrow(
      'reason: Too big',
    );
    // Sent raw, the validator rejects it; but Temporal echoes a rejected update's input in the rejection, so the
    // worker cannot upload it (over the 2 MB payload limit) and the workflow task fails until the update request
    // expires (about 20 s). It is never accepted, and the run goes on afterwards.
    await expect(
      handle.executeUpdate(decideApprovalUpdate, { args: [{ ...base, reason: 'x'.repeat(3_000_000) }] }),
    ).rejects.toThrow();
    let answered: PendingApproval[] | undefined;
    for (let i = 0; i < 60 && !answered; i++) {
      answered = await handle.query(pendingApprovalsQuery).catch(async () => {
        await new Promise((r) => setTimeout(r, 500));
        return undefined;
      });
    }
    expect(answered).toHaveLength(1);
    await handle.signal(approvalSignal, { ...base, reason: 'y'.repeat(1_900_000) });
    expect(await handle.query(pendingApprovalsQuery)).toHaveLength(1);
    await handle.executeUpdate(decideApprovalUpdate, { args: [{ ...base, reason: 'short' }] });
    await handle.result();
    const events = (await handle.fetchHistory()).events ?? [];
    const types = eventTypes(events);
    expect(types.filter((t) => t === 'WORKFLOW_TASK_FAILED').length).toBeLessThanOrEqual(2);
    expect(types.filter((t) => t === 'WORKFLOW_EXECUTION_UPDATE_ACCEPTED')).toHaveLength(1);
    const scheduled = events.filter((e) => e.activityTaskScheduledEventAttributes);
    const inputBytes = scheduled.map((e) =>
      (e.activityTaskScheduledEventAttributes?.input?.payloads ?? []).reduce((n, p) => n + (p.data?.length ?? 0), 0),
    );
    expect(Math.max(...inputBytes)).toBeLessThan(10_000);
  });
  expect(seen.at(-1)).toMatchObject({ reason: 'short' });
});
