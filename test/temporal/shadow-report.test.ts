/**
 * `recovery-router shadow-report` against the dev server's namespace: plain workflows (./fixtures/plain-checkout.ts,
 * no router) leave histories with a 409 retried 3 times, a 503 retried once and cured, a charge whose answer was
 * lost and that was sent again, and a charge still retried under Temporal's default policy; the report reads them
 * back (closed histories and a running workflow's pending activity) and counts exactly that. Visibility is
 * eventually consistent, so the listing is polled until every workflow is in it.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, DefaultLogger, Worker } from '@temporalio/worker';
import { startScriptedService, type ScriptedService } from '../../examples/scripted-service';
import { shadowReport, shadowReportTable, type ShadowReport } from '../../operator/shadow-report';
import { testEnv, uniqueTaskQueue } from '../setup/env';
import { TS_CHILD_ARGS } from '../setup/ts-child';
import { createCheckoutActivities } from './fixtures/plain-checkout-activities';

const ROOT = resolve(__dirname, '../..');
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

test('the report counts failures by class, retries that could never have worked, writes retried after an unknown outcome, and the time they took', async () => {
  const taskQueue = uniqueTaskQueue('report');
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    activities: createCheckoutActivities(() => service.url),
    workflowBundle: await bundleWorkflowCode({
      workflowsPath: require.resolve('./fixtures/plain-checkout'),
      logger: new DefaultLogger('ERROR'),
    }),
  });
  const start = (type: string, id: string) =>
    env.client.workflow.start(type, { taskQueue, workflowId: `${taskQueue}-${id}`, args: ['cus_1', 1250] });
  const query = `TaskQueue = "${taskQueue}"`;
  const read = await worker.runUntil(async () => {
    // A 503 cured by its retry, then a 409 retried to the end of the policy (4 attempts).
    service.reset({
      'GET /customers': [{ status: 503 }, { status: 200, body: { id: 'cus_1' } }],
      'POST /charges': [{ status: 409, body: { code: 'duplicate_charge' } }],
    });
    await (await start('plainCheckoutWorkflow', 'conflict')).result();
    // A charge whose answer was lost, sent again (and applied twice: the service has no dedupe).
    service.reset({
      'GET /customers': [{ status: 200, body: { id: 'cus_1' } }],
      'POST /charges': [{ destroy: true }, { status: 201, body: { chargeId: 'ch_1' } }],
    });
    await (await start('plainCheckoutWorkflow', 'lost')).result();
    // A 409 under Temporal's default policy: still retrying when the report reads it.
    service.reset({ 'POST /charges': [{ status: 409, body: { code: 'duplicate_charge' } }] });
    const forever = await start('plainChargeWorkflow', 'forever');
    await until(async () => service.hits('POST /charges') >= 3, 'the third attempt of the default policy');
    const r = await until(
      async () => shadowReport(env.client, { query, declare: { chargeCard: { effect: 'write' } } }),
      'visibility lists the three workflows',
      (x: ShadowReport) => x.workflows === 3 && x.byClass.semantic_rejection?.failures === 2,
    );
    // The command itself, in a child process, against the same namespace, while the charge still retries.
    const cli = await promisify(execFile)(
      process.execPath,
      [...TS_CHILD_ARGS, 'operator/cli.ts', 'shadow-report', '--query', query, '--writes', 'chargeCard'],
      { cwd: ROOT, env: { ...process.env, TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS }, timeout: 60_000 },
    );
    await forever.terminate('the report has read it');
    return { r, stdout: cli.stdout };
  });
  const { r: report, stdout } = read;

  expect(report.workflows).toBe(3);
  expect(report.executions).toBe(5); // 2 getCustomer, 2 chargeCard in the checkouts, 1 pending chargeCard
  expect(report.byClass.transient).toEqual({ failures: 1, retries: 1, wastedRetries: 0, wastedMs: 0 });
  expect(report.byClass.outcome_unknown).toMatchObject({ failures: 1, retries: 1, wastedRetries: 0 });
  const conflicts = report.byClass.semantic_rejection!;
  expect(conflicts.failures).toBe(2);
  expect(conflicts.retries).toBeGreaterThanOrEqual(3 + 2); // 3 in the checkout, ≥ 2 by the still-running charge
  expect(conflicts.wastedRetries).toBe(conflicts.retries);
  expect(conflicts.wastedMs).toBeGreaterThan(0);
  expect(report.wastedRetries).toBe(conflicts.wastedRetries);
  expect(report.writesRetriedAfterUnknown).toBe(1);
  expect(report.failed.map((x) => [x.activityType, x.state]).sort()).toEqual([
    ['chargeCard', 'completed'],
    ['chargeCard', 'failed'],
    ['chargeCard', 'running'],
    ['getCustomer', 'completed'],
  ]);
  const table = shadowReportTable(report);
  expect(table).toMatch(/^3 workflows, 5 activity executions, 4 with failures/);
  expect(table).toMatch(/writes retried after an unknown outcome: 1, /);

  expect(stdout).toMatch(/^3 workflows, 5 activity executions, 4 with failures/);
  expect(stdout).toMatch(/^semantic_rejection\s+2\s+\d+\s+\d+\s+[\d.]+ s$/m);
  expect(stdout).toMatch(/^outcome_unknown\s+1\s+1\s+0\s+0\.0 s$/m);
  expect(stdout).toMatch(/writes retried after an unknown outcome: 1, /);
});

async function until<T>(
  read: () => Promise<T>,
  what: string,
  done: (value: T) => boolean = Boolean,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read().catch(() => undefined);
    if (value !== undefined && done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((ok) => setTimeout(ok, 200));
  }
}
