/**
 * Shadow mode's interceptor around real activities, in Temporal's `MockActivityEnvironment` (@temporalio/testing:
 * the real activity Context, its interceptors and its logger, no server): each failed attempt makes one span, one
 * count and one log line; `shadow` rethrows the very error the activity threw; `enforce` makes a persistent failure
 * non-retryable and settles a declared write's unknown outcome with its lookup. Real axios against a loopback service;
 * spans and metrics into the OpenTelemetry SDK's in-memory exporter and a reader.
 */
import axios from 'axios';
import { ApplicationFailure } from '@temporalio/common';
import { activityEnv } from '../fixtures/activity-env';
import { DefaultLogger, type LogEntry } from '@temporalio/worker';
import { createTracing } from '../../activities/tracing/tracing';
import { startScriptedService, type ScriptedService } from '../../examples/scripted-service';
import { shadowInterceptors } from '../../plugin/shadow/interceptor';
import type { ShadowOptions } from '../../plugin/shadow/options';
import { SHADOW_LOG_MESSAGE } from '../../plugin/shadow/record';
import { shadowRuntime } from '../../plugin/shadow/shadow-plugin';
import { DEFAULT_BACKOFF_POLICY } from '../../recovery/backoff';
import { spanShapes, testOtel } from '../fixtures/otel';

let service: ScriptedService;
const otel = testOtel();
const tracing = createTracing({ tracerProvider: otel.tracerProvider, meterProvider: otel.meterProvider })!;
beforeAll(async () => {
  service = await startScriptedService({});
});
afterAll(async () => service?.close());
beforeEach(() => otel.exporter.reset());

/** The activity under test: a write through axios. */
const chargeCard = async (amount: number) =>
  (await axios.post(`${service.url}/charges`, { amount })).data as { id: string };

/** A mock environment for `chargeCard`'s attempt `attempt`, with shadow mode's interceptor; its log lines. */
function environment(options: ShadowOptions, attempt = 1) {
  const logs: LogEntry[] = [];
  const logger = new DefaultLogger('DEBUG', (entry) => logs.push(entry));
  const rt = shadowRuntime(options, DEFAULT_BACKOFF_POLICY, ['invokeTool'], tracing, 'test');
  const env = activityEnv(
    { activityType: 'chargeCard', activityId: '3', attempt },
    { logger, interceptors: [shadowInterceptors(rt)] },
  );
  return { env, shadowLogs: () => logs.filter((l) => l.message === SHADOW_LOG_MESSAGE) };
}

async function thrown(run: Promise<unknown>): Promise<unknown> {
  try {
    await run;
  } catch (err) {
    return err;
  }
  throw new Error('the activity did not fail');
}

test('shadow: a 409 is rethrown as the very same error; one span, one count, one log line say semantic_rejection → replan', async () => {
  service.reset({ 'POST /charges': [{ status: 409, body: { code: 'duplicate_charge' } }] });
  const { env, shadowLogs } = environment({ mode: 'shadow', declare: { chargeCard: { effect: 'write' } } });
  const err = await thrown(env.run(chargeCard, 500));
  expect(axios.isAxiosError(err) && err.response?.status).toBe(409);
  expect(service.hits('POST /charges')).toBe(1);
  const expected = {
    'error.type': 'semantic_rejection',
    'recovery_router.action': 'replan',
    'recovery_router.reason': 'conflict',
    'recovery_router.phase': 'dispatch',
    'recovery_router.retryable': false,
    'recovery_router.replay_safe': true,
    'http.response.status_code': 409,
    'recovery_router.code': 'duplicate_charge',
    'recovery_router.mode': 'shadow',
    'recovery_router.enforced': 'unchanged',
    'recovery_router.effect': 'write',
    'recovery_router.activity': 'chargeCard',
    'recovery_router.attempt': 1,
  };
  expect(spanShapes(otel.exporter.getFinishedSpans())).toEqual([
    { name: 'shadow chargeCard', parent: null, attributes: expected, status: 2 },
  ]);
  const [event] = otel.exporter.getFinishedSpans()[0]!.events;
  expect([event?.name, event?.attributes?.['exception.type']]).toEqual([
    'gen_ai.client.operation.exception',
    'semantic_rejection',
  ]);
  expect(shadowLogs()).toHaveLength(1);
  expect(shadowLogs()[0]).toMatchObject({ level: 'WARN', meta: expected });
  const counts = await otel.points('recovery_router.shadow.failures');
  expect(counts.map((p) => [p.attributes, p.value])).toEqual([
    [
      {
        'recovery_router.activity': 'chargeCard',
        'error.type': 'semantic_rejection',
        'recovery_router.action': 'replan',
        'recovery_router.mode': 'shadow',
        'recovery_router.enforced': 'unchanged',
      },
      1,
    ],
  ]);
});

test('shadow: an attempt that succeeds records nothing, and the router’s own activity types are never watched', async () => {
  service.reset({ 'POST /charges': [{ status: 201, body: { id: 'ch_1' } }] });
  const { env, shadowLogs } = environment({ mode: 'shadow' });
  await expect(env.run(chargeCard, 500)).resolves.toEqual({ id: 'ch_1' });
  const own = activityEnv(
    { activityType: 'invokeTool' },
    {
      interceptors: [
        shadowInterceptors(shadowRuntime({ mode: 'shadow' }, DEFAULT_BACKOFF_POLICY, ['invokeTool'], tracing, 't')),
      ],
    },
  );
  const bug = new Error('a bug');
  await expect(
    own.run(async () => {
      throw bug;
    }),
  ).rejects.toBe(bug);
  expect([otel.exporter.getFinishedSpans().length, shadowLogs().length]).toEqual([0, 0]);
});

test('enforce: the 409 of a listed activity leaves as the same type and message, non-retryable, with the original as cause', async () => {
  service.reset({ 'POST /charges': [{ status: 409, body: { code: 'duplicate_charge' } }] });
  const { env, shadowLogs } = environment({ mode: 'enforce', activities: ['chargeCard'] });
  const err = await thrown(env.run(chargeCard, 500));
  expect(err).toBeInstanceOf(ApplicationFailure);
  const failure = err as ApplicationFailure;
  expect([failure.type, failure.message, failure.nonRetryable, axios.isAxiosError(failure.cause)]).toEqual([
    'AxiosError',
    'Request failed with status code 409',
    true,
    true,
  ]);
  expect(shadowLogs().map((l) => l.meta?.['recovery_router.enforced'])).toEqual(['non_retryable']);
});

test('enforce: a declared write whose answer was lost is looked up — applied → the activity completes with the lookup’s value, nothing sent again', async () => {
  service.reset({ 'POST /charges': [{ destroy: true }] });
  const lookups: unknown[] = [];
  const { env, shadowLogs } = environment({
    mode: 'enforce',
    activities: ['chargeCard'],
    declare: {
      chargeCard: {
        effect: 'write',
        lookup: async ({ args, info }) => {
          lookups.push([args, info.activityType]);
          return { state: 'applied', value: { id: 'ch_found' } };
        },
      },
    },
  });
  await expect(env.run(chargeCard, 500)).resolves.toEqual({ id: 'ch_found' });
  expect(lookups).toEqual([[[500], 'chargeCard']]);
  expect(service.hits('POST /charges')).toBe(1);
  expect(shadowLogs().map((l) => l.meta?.['recovery_router.enforced'])).toEqual(['reconciled_applied']);
});

test('enforce: the lookup finds it not applied → the original error, left to Temporal’s retry; it cannot tell → outcome_unknown, non-retryable', async () => {
  service.reset({ 'POST /charges': [{ destroy: true }] });
  const declare = (state: 'not_applied' | 'unknown') => ({
    chargeCard: { effect: 'write' as const, lookup: async () => ({ state }) },
  });
  const notApplied = environment({ mode: 'enforce', activities: ['chargeCard'], declare: declare('not_applied') });
  const lost = await thrown(notApplied.env.run(chargeCard, 500));
  expect(axios.isAxiosError(lost)).toBe(true);
  const unknown = environment({ mode: 'enforce', activities: ['chargeCard'], declare: declare('unknown') });
  const err = (await thrown(unknown.env.run(chargeCard, 500))) as ApplicationFailure;
  expect([err.type, err.nonRetryable, axios.isAxiosError(err.cause)]).toEqual(['outcome_unknown', true, true]);
  expect(
    [...notApplied.shadowLogs(), ...unknown.shadowLogs()].map((l) => l.meta?.['recovery_router.enforced']),
  ).toEqual(['reconciled_not_applied', 'outcome_unknown']);
});

test('an activity that throws before it awaits anything is judged too', async () => {
  const { env, shadowLogs } = environment({ mode: 'shadow' });
  const bug = new TypeError('x is undefined');
  const syncThrow = (() => {
    throw bug;
  }) as unknown as () => Promise<void>;
  await expect(env.run(syncThrow)).rejects.toBe(bug);
  // No rule recognises it, and the activity's effect is undeclared (a write, on the safe side): it may have been sent.
  expect(shadowLogs().map((l) => [l.meta?.['error.type'], l.meta?.['recovery_router.reason']])).toEqual([
    ['outcome_unknown', 'unrecognized'],
  ]);
});
