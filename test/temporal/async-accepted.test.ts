/**
 * An asynchronous (202 Accepted) write whose operation reads "failed" while its service will still retry it (issue
 * 35), on the dev server: the tool declares its lookup's "not applied" final at once (`commit: 0/0`), yet the router
 * never resends a write the receiver accepted — the lookups go on, then a person decides; one POST, no replay.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { payTool } from '../../bench/write-safety/pay-tools';
import { startPaymentsService, type PaymentsService } from '../../bench/write-safety/payments-service';
import { reconcileWorkflowId, reviewCaseQuery } from '../../workflows/definitions';
import { ACCEPTED_NOT_FINAL } from '../../workflows/reconcile-not-found';
import { testEnv, writeKey } from '../setup/env';
import { harness } from './harness';

let env: TestWorkflowEnvironment;
let service: PaymentsService;
let dir: string;
beforeAll(async () => {
  env = await testEnv();
  dir = mkdtempSync(join(tmpdir(), 'rr-async-accepted-'));
  // The provider's own retry commits the payment only after the test ends.
  service = await startPaymentsService({
    dedupe: false,
    post: { kind: 'async_failed_then_succeeded', succeedMs: 120_000 },
    read: { kind: 'none' },
    tmpDir: dir,
  });
});
afterAll(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
  await env?.teardown();
});

test('202, the operation reads "failed", commit 0/0 → outcome_unknown/accepted, 3 lookups, review; 1 POST, 0 replays', async () => {
  const pay = payTool({
    url: service.url,
    column: { id: '_L_', dedup: false, lookup: true, verify: false },
    quirk: { kind: 'poll_async' },
    commit: { settleMs: 0, lookupLagMs: 0 },
  });
  const h = await harness(env, [pay], { searchAttributes: false });
  const workflowId = `async-accepted-${Date.now()}`;
  let opId = '';
  await h.run(async () => {
    await h.startPlan(
      {
        calls: [{ tool: 'pay', args: { invoice: 'INV-async-1', amountCents: 100 }, stepId: 's' }],
        reconcile: {
          lookupBudget: 3,
          lookupBackoff: { initialIntervalMs: 100, maximumIntervalMs: 200 },
          searchAttributes: false,
        },
      },
      workflowId,
    );
    opId = await writeKey(env.client, workflowId, 's');
    const handle = env.client.workflow.getHandle(reconcileWorkflowId(opId));
    let c;
    for (let i = 0; i < 300; i++) {
      c = await handle.query(reviewCaseQuery).catch(() => undefined);
      if (c?.status === 'awaiting_review') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(c).toMatchObject({
      status: 'awaiting_review',
      replays: 0,
      message: ACCEPTED_NOT_FINAL,
      failure: { class: 'outcome_unknown', reason: 'accepted' },
    });
    expect(c?.lookups.map((l) => l.state)).toEqual(['not_applied', 'not_applied', 'not_applied']);
    await env.client.workflow.getHandle(workflowId).terminate('test done');
    await handle.terminate('test done');
  });
  expect([service.posts(opId), service.rows(opId)]).toEqual([1, 0]);
});
