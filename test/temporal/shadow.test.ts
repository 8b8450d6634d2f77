/**
 * Shadow mode on a plain workflow (no router: ./fixtures/plain-checkout.ts), on the real dev server:
 * - `shadow` changes no history event: the same run with and without it gives the same events, event for event,
 *   attributes included (timestamps, ids and the worker's identity aside), stack traces of the failures too;
 * - `enforce` cuts retries Temporal's policy would make: a 409 fails at its first attempt, non-retryable; a write
 *   whose answer was lost fails as `outcome_unknown` after one request, or completes from its declared lookup;
 *   a `Retry-After` is waited for (asserted as the delay scheduled, on the time-skipping server);
 * - with Temporal's OpenTelemetry plugin first, each `shadow <type>` span is a child of `RunActivity:<type>`, and
 *   `RecoveryPlugin({ shadow })` watches the worker's activities but not its own `invokeTool`.
 */
import axios from 'axios';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import {
  bundleWorkflowCode,
  DefaultLogger,
  Worker,
  type WorkerPlugin,
  type WorkflowBundleWithSourceMap,
} from '@temporalio/worker';
import type { temporal } from '@temporalio/proto';
import { startScriptedService, type ScriptedService } from '../../examples/scripted-service';
import { supportTools } from '../../examples/support-tools';
import { RecoveryPlugin } from '../../plugin/recovery-plugin';
import { ShadowPlugin } from '../../plugin/shadow/shadow-plugin';
import { spanShapes, testOtel } from '../fixtures/otel';
import { testEnv, timeSkippingEnv, uniqueTaskQueue } from '../setup/env';
import { createCheckoutActivities } from './fixtures/plain-checkout-activities';
import type { CheckoutResult } from './fixtures/plain-checkout';
import { eventTypes, scheduledToLastStartMs } from './harness';

let env: TestWorkflowEnvironment;
let service: ScriptedService;
/** The workflow bundled plain, and with Temporal's OpenTelemetry workflow interceptors. */
let plain: WorkflowBundleWithSourceMap;
let traced: WorkflowBundleWithSourceMap;
const otel = testOtel();
const activities = createCheckoutActivities(() => service.url);
beforeAll(async () => {
  env = await testEnv();
  service = await startScriptedService({});
  const bundling = { workflowsPath: require.resolve('./fixtures/plain-checkout'), logger: new DefaultLogger('ERROR') };
  [plain, traced] = await Promise.all([
    bundleWorkflowCode(bundling),
    bundleWorkflowCode({ ...bundling, plugins: [otel.temporalPlugin] }),
  ]);
});
afterAll(async () => {
  await service?.close();
  await env?.teardown();
});
beforeEach(() => otel.exporter.reset());

/** Runs the checkout once on a worker with `plugins`; its result and history. */
async function checkout(
  plugins: WorkerPlugin[],
  script: Parameters<ScriptedService['reset']>[0],
  bundle?: Awaited<ReturnType<typeof bundleWorkflowCode>>,
  on: TestWorkflowEnvironment = env,
) {
  const withTemporalTracing = plugins.includes(otel.temporalPlugin);
  service.reset(script);
  const taskQueue = uniqueTaskQueue('checkout');
  const worker = await Worker.create({
    connection: on.nativeConnection,
    taskQueue,
    activities,
    plugins,
    workflowBundle: bundle ?? (withTemporalTracing ? traced : plain),
  });
  const workflowId = uniqueTaskQueue('checkout-wf');
  const result = (await worker.runUntil(
    on.client.workflow.execute('plainCheckoutWorkflow', { taskQueue, workflowId, args: ['cus_1', 1250] }),
  )) as CheckoutResult;
  const history = await on.client.workflow.getHandle(workflowId).fetchHistory();
  return { result, events: history.events ?? [], workflowId, taskQueue };
}

/** Keys whose values differ between two runs of the same workflow by nature: times, ids, the worker, the queue. */
const VOLATILE = new Set([
  'eventTime',
  'taskId',
  'identity',
  'requestId',
  'originalExecutionRunId',
  'firstExecutionRunId',
  'taskQueue',
  'historySizeBytes',
  'workerVersion',
  'prevAutoResetPoints',
  'workflowExecutionExpirationTime',
  'lastHeartbeatTime',
  'expirationTime',
  'links',
]);

/** An event as plain JSON without its volatile values; the workflow id replaced by `<id>`. */
function normalized(events: temporal.api.history.v1.IHistoryEvent[], workflowId: string): unknown[] {
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip);
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.entries(v as Record<string, unknown>)
          .filter(([k]) => !VOLATILE.has(k))
          // Core reports the SDK flags it used as a set, in no fixed order.
          .map(([k, x]) => [k, k === 'coreUsedFlags' && Array.isArray(x) ? [...(x as number[])].sort() : strip(x)]),
      );
    }
    return typeof v === 'string' ? v.split(workflowId).join('<id>') : v;
  };
  return events.map((e) => strip(JSON.parse(JSON.stringify(e))));
}

const SCRIPT = {
  'GET /customers': [{ status: 503 }, { status: 200, body: { id: 'cus_1', name: 'Ada' } }],
  'POST /charges': [{ status: 409, body: { code: 'duplicate_charge', message: 'already charged' } }],
};

test('shadow changes no history event: with and without it, the same events and attributes, stack traces included', async () => {
  const without = await checkout([], SCRIPT);
  const hitsWithout = [service.hits('GET /customers'), service.hits('POST /charges')];
  const shadowed = await checkout(
    [new ShadowPlugin({ mode: 'shadow', declare: { chargeCard: { effect: 'write' } } })],
    SCRIPT,
  );
  const hitsWith = [service.hits('GET /customers'), service.hits('POST /charges')];

  expect(hitsWithout).toEqual([2, 4]);
  expect(hitsWith).toEqual(hitsWithout);
  expect(shadowed.result).toEqual(without.result);
  expect(without.result.failed).toMatchObject({ type: 'AxiosError', nonRetryable: false });
  expect(eventTypes(shadowed.events)).toEqual(eventTypes(without.events));
  expect(normalized(shadowed.events, shadowed.workflowId)).toEqual(normalized(without.events, without.workflowId));
  const failedEvent = without.events.find((e) => e.activityTaskFailedEventAttributes);
  expect(failedEvent?.activityTaskFailedEventAttributes?.failure?.stackTrace).toMatch(/chargeCard/);

  // What shadow recorded instead: one span per failed attempt (1 × 503, 4 × 409).
  const shapes = spanShapes(otel.exporter.getFinishedSpans()).filter((s) => s.name.startsWith('shadow '));
  expect(shapes.map((s) => [s.name, s.attributes['error.type'], s.attributes['recovery_router.action']])).toEqual([
    ['shadow getCustomer', 'transient', 'retry'],
    ['shadow chargeCard', 'semantic_rejection', 'replan'],
    ['shadow chargeCard', 'semantic_rejection', 'replan'],
    ['shadow chargeCard', 'semantic_rejection', 'replan'],
    ['shadow chargeCard', 'semantic_rejection', 'replan'],
  ]);
});

const tracing = () => ({ tracerProvider: otel.tracerProvider, meterProvider: otel.meterProvider });
const enforce = (declare: ConstructorParameters<typeof ShadowPlugin>[0]['declare'] = {}) =>
  new ShadowPlugin({ mode: 'enforce', activities: ['getCustomer', 'chargeCard'], declare, tracing: tracing() });
const OK_CUSTOMER = { 'GET /customers': [{ status: 200, body: { id: 'cus_1', name: 'Ada' } }] };

test('enforce: the 409 fails at its first attempt, non-retryable, with its type and message: 1 request instead of 4', async () => {
  const { result } = await checkout([enforce({ chargeCard: { effect: 'write' } })], SCRIPT);
  expect(result.failed).toEqual({
    type: 'AxiosError',
    nonRetryable: true,
    message: 'Request failed with status code 409',
    cause: 'Request failed with status code 409',
  });
  expect(service.hits('POST /charges')).toBe(1);
});

test('enforce: a charge whose answer was lost is never sent twice — outcome_unknown without a lookup; with one, the charge it found', async () => {
  const lost = { ...OK_CUSTOMER, 'POST /charges': [{ destroy: true }] };
  const unknown = await checkout([enforce({ chargeCard: { effect: 'write' } })], lost);
  expect(unknown.result.failed).toMatchObject({ type: 'outcome_unknown', nonRetryable: true });
  expect(unknown.result.failed?.message).toMatch(/may or may not have been applied/);
  expect(service.hits('POST /charges')).toBe(1);

  const lookup: NonNullable<Parameters<typeof enforce>[0]>[string]['lookup'] = async ({ info }) => {
    const key = `${info.workflowExecution?.workflowId}:${info.activityId}`;
    const found = (await axios.get(`${service.url}/charges/by-key`, { params: { key } })).data as { id?: string };
    return found.id ? { state: 'applied', value: { chargeId: found.id } } : { state: 'not_applied' };
  };
  const found = await checkout([enforce({ chargeCard: { effect: 'write', lookup } })], {
    ...lost,
    'GET /charges/by-key': [{ status: 200, body: { id: 'ch_42' } }],
  });
  expect(found.result).toEqual({ customer: { id: 'cus_1', name: 'Ada' }, charge: { chargeId: 'ch_42' } });
  expect([service.hits('POST /charges'), service.hits('GET /charges/by-key')]).toEqual([1, 1]);
  expect(service.received.find((r) => r.route === 'POST /charges')?.headers['idempotency-key']).toBe(
    `${found.workflowId}:2`,
  );
});

test('enforce: Retry-After: 2 is waited for — the retry is scheduled exactly 2000 ms out (the policy alone: 100 ms)', async () => {
  // On the time-skipping server, without jitter: the delay is asserted as scheduled (the span, the history's last
  // failure) and on the server's clock, never as a measured gap.
  const skipping = await timeSkippingEnv();
  try {
    const plugin = new ShadowPlugin({
      mode: 'enforce',
      activities: ['getCustomer', 'chargeCard'],
      declare: { getCustomer: { effect: 'read' } },
      backoff: { jitterRatio: 0 },
      tracing: tracing(),
    });
    const { result, events } = await checkout(
      [plugin],
      {
        'GET /customers': [
          { status: 503, headers: { 'retry-after': '2' } },
          { status: 200, body: { id: 'cus_1', name: 'Ada' } },
        ],
        'POST /charges': [{ status: 201, body: { chargeId: 'ch_1' } }],
      },
      undefined,
      skipping,
    );
    expect(result.charge).toEqual({ chargeId: 'ch_1' });
    expect(service.hits('GET /customers')).toBe(2);
    const span = otel.exporter.getFinishedSpans().find((s) => s.name === 'shadow getCustomer')!;
    expect(span.attributes['recovery_router.enforced']).toBe('next_retry_delay');
    expect(span.attributes['recovery_router.next_retry_delay_ms']).toBe(2_000);
    // The server's record: the attempt that completed is the 2nd, and 2 s of its clock passed since the first.
    const started = events.find(
      (e) =>
        e.activityTaskStartedEventAttributes &&
        events.find((x) => x.eventId?.toString() === e.activityTaskStartedEventAttributes!.scheduledEventId?.toString())
          ?.activityTaskScheduledEventAttributes?.activityType?.name === 'getCustomer',
    )!.activityTaskStartedEventAttributes!;
    expect(started.attempt).toBe(2);
    expect(scheduledToLastStartMs(events, 'getCustomer')).toBeGreaterThanOrEqual(2_000);
  } finally {
    await skipping.teardown();
  }
});

test('RecoveryPlugin({ shadow }) after Temporal’s plugin: each shadow span is a child of RunActivity:<type>', async () => {
  const plugin = new RecoveryPlugin({
    tools: supportTools('http://127.0.0.1:9').all,
    shadow: { mode: 'shadow', declare: { chargeCard: { effect: 'write' }, getCustomer: { effect: 'read' } } },
    tracing: tracing(),
    searchAttributes: false,
  });
  // A prebuilt bundle must carry the plugin's own workflows (plugin/bundle-check.ts): built with the plugin.
  const bundle = await bundleWorkflowCode({
    workflowsPath: require.resolve('./fixtures/plain-checkout'),
    logger: new DefaultLogger('ERROR'),
    plugins: [otel.temporalPlugin, plugin],
  });
  const { result } = await checkout([otel.temporalPlugin, plugin], SCRIPT, bundle);
  expect(result.failed).toMatchObject({ type: 'AxiosError', nonRetryable: false });
  const shapes = spanShapes(otel.exporter.getFinishedSpans()).filter((s) => s.name.startsWith('shadow '));
  expect(shapes.map((s) => [s.name, s.parent, s.attributes['error.type'], s.status])).toEqual([
    ['shadow getCustomer', 'RunActivity:getCustomer', 'transient', 2],
    ['shadow chargeCard', 'RunActivity:chargeCard', 'semantic_rejection', 2],
    ['shadow chargeCard', 'RunActivity:chargeCard', 'semantic_rejection', 2],
    ['shadow chargeCard', 'RunActivity:chargeCard', 'semantic_rejection', 2],
    ['shadow chargeCard', 'RunActivity:chargeCard', 'semantic_rejection', 2],
  ]);
});
