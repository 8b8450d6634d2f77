/**
 * Reading failures back from history (operator/history-failure.ts, operator/shadow-report-history.ts): the status and
 * Node error code common clients write into their messages, a timeout, and how an execution's retries are judged
 * from its last two failures. Pure: histories are built as the server records them (proto JSON shapes).
 */
import type { temporal } from '@temporalio/proto';
import { recordedError } from '../../operator/history-failure';
import { executionsOf, judgeRetries } from '../../operator/shadow-report-history';
import { ROUTER_ACTIVITY_TYPES, summarize } from '../../operator/shadow-report';
import { createScriptedPlanner } from '../../activities/planners/scripted';
import { supportTools } from '../../examples/support-tools';
import { RecoveryPlugin } from '../../plugin/recovery-plugin';
import { classifyActivityFailure } from '../../plugin/shadow/decide';

type Failure = temporal.api.failure.v1.IFailure;
const app = (type: string, message: string, more: Partial<Failure> = {}): Failure => ({
  message,
  applicationFailureInfo: { type },
  ...more,
});
const classOf = (f: Failure, effect?: 'read' | 'write') =>
  classifyActivityFailure(
    recordedError(f),
    { activityType: 'a', activityId: '1', attempt: 1 },
    effect ? { effect } : undefined,
    0,
  ).failure;

test('recordedError: axios and got statuses, Node codes with their syscall, a timeout, the cause chain', () => {
  expect(recordedError(app('AxiosError', 'Request failed with status code 409'))).toEqual({
    name: 'AxiosError',
    message: 'Request failed with status code 409',
    response: { status: 409, headers: {} },
  });
  expect(recordedError(app('HTTPError', 'Response code 503 (Service Unavailable)')).response?.status).toBe(503);
  expect(recordedError(app('Error', 'read ECONNRESET'))).toMatchObject({ code: 'ECONNRESET', syscall: 'read' });
  expect(recordedError(app('Error', 'connect ECONNREFUSED 127.0.0.1:5432'))).toMatchObject({
    code: 'ECONNREFUSED',
    syscall: 'connect',
  });
  expect(recordedError({ message: 'activity StartToClose timeout', timeoutFailureInfo: {} }).name).toBe('TimeoutError');
  expect(
    recordedError(app('Wrapper', 'charge failed', { cause: app('AxiosError', 'Request failed with status code 422') }))
      .cause?.response?.status,
  ).toBe(422);
  expect(recordedError(app('Error', 'the total is 404 euros')).response).toBeUndefined();
});

test('the classes read back: 409 → semantic_rejection, 503 → transient, a reset write → outcome_unknown, a refused connect → transient', () => {
  expect(classOf(app('AxiosError', 'Request failed with status code 409')).class).toBe('semantic_rejection');
  expect(classOf(app('AxiosError', 'Request failed with status code 503')).class).toBe('transient');
  expect(classOf(app('Error', 'read ECONNRESET'), 'write').class).toBe('outcome_unknown');
  expect(classOf(app('Error', 'read ECONNRESET'), 'read').class).toBe('transient');
  expect(classOf(app('Error', 'connect ECONNREFUSED 127.0.0.1:1'), 'write').class).toBe('transient');
  expect(classOf({ message: 'activity StartToClose timeout', timeoutFailureInfo: {} }, 'write').class).toBe(
    'outcome_unknown',
  );
  // An error no rule recognises: a bug on a read; on a write (or an undeclared effect) it may have been sent.
  expect(classOf(app('TypeError', 'x is undefined'), 'read').reason).toBe('unrecognized');
  expect([classOf(app('TypeError', 'x is undefined')).class, classOf(app('TypeError', 'x')).reason]).toEqual([
    'outcome_unknown',
    'unrecognized',
  ]);
});

test('judgeRetries: persistent retries are wasted (a 401’s first excepted); a retry that worked is not; an unknown write retried counts', () => {
  const v = (f: Failure, effect?: 'read' | 'write') =>
    classifyActivityFailure(
      recordedError(f),
      { activityType: 'a', activityId: '1', attempt: 1 },
      effect ? { effect } : undefined,
      0,
    );
  const conflict = v(app('AxiosError', 'Request failed with status code 409'));
  expect(judgeRetries(4, 'failed', conflict)).toEqual({ wastedRetries: 3, writeRetriedAfterUnknown: false });
  expect(judgeRetries(4, 'completed', conflict)).toEqual({ wastedRetries: 0, writeRetriedAfterUnknown: false });
  expect(judgeRetries(3, 'running', v(app('AxiosError', 'Request failed with status code 401')))).toEqual({
    wastedRetries: 1,
    writeRetriedAfterUnknown: false,
  });
  expect(judgeRetries(2, 'completed', v(app('Error', 'read ECONNRESET'), 'write'))).toEqual({
    wastedRetries: 0,
    writeRetriedAfterUnknown: true,
  });
  expect(judgeRetries(2, 'completed', v(app('Error', 'read ECONNRESET'), 'read')).writeRetriedAfterUnknown).toBe(false);
  expect(judgeRetries(5, 'failed', v(app('TypeError', 'x is undefined'), 'read')).wastedRetries).toBe(0);
  // Undeclared, it may be a write: an error no rule recognises is an unknown outcome there (docs/DESIGN.md, "Phases").
  expect(judgeRetries(5, 'failed', v(app('TypeError', 'x is undefined')))).toEqual({
    wastedRetries: 0,
    writeRetriedAfterUnknown: true,
  });
});

test('judgeRetries: a write retried after a lost answer that history names less well than the live log (mysql2’s lost connection, a Stripe connection error) counts, as the live log flags it', () => {
  const facts = { activityType: 'chargeCard', activityId: '1', attempt: 1 };
  const lost = [
    // mysql2 keeps PROTOCOL_CONNECTION_LOST in `code`, which history does not keep: live it is a network failure.
    Object.assign(new Error('Connection lost: The server closed the connection.'), {
      code: 'PROTOCOL_CONNECTION_LOST',
    }),
    Object.assign(new Error('An error occurred with our connection to Stripe. Request was retried 2 times.'), {
      name: 'StripeConnectionError',
    }),
  ];
  for (const err of lost) {
    const live = classifyActivityFailure(err, facts, { effect: 'write' }, 0);
    const recorded = classifyActivityFailure(recordedError(app(err.name, err.message)), facts, { effect: 'write' }, 0);
    expect([live.failure.class, recorded.failure.class]).toEqual(['outcome_unknown', 'outcome_unknown']);
    expect(judgeRetries(2, 'completed', recorded)).toEqual({ wastedRetries: 0, writeRetriedAfterUnknown: true });
  }
});

test('executionsOf: an activity scheduled at 0 s, last attempt (4) started at 7 s after a 409, failed → 3 wasted retries, 7 s; the router’s own activities left out', () => {
  const at = (s: number) => ({ seconds: s, nanos: 0 });
  const events: temporal.api.history.v1.IHistoryEvent[] = [
    { eventId: 5, eventTime: at(0), activityTaskScheduledEventAttributes: { activityType: { name: 'chargeCard' } } },
    { eventId: 6, eventTime: at(0), activityTaskScheduledEventAttributes: { activityType: { name: 'invokeTool' } } },
    {
      eventId: 7,
      eventTime: at(7),
      activityTaskStartedEventAttributes: {
        scheduledEventId: 5,
        attempt: 4,
        lastFailure: app('AxiosError', 'Request failed with status code 409'),
      },
    },
    {
      eventId: 8,
      eventTime: at(7),
      activityTaskFailedEventAttributes: {
        scheduledEventId: 5,
        failure: app('AxiosError', 'Request failed with status code 409'),
      },
    },
  ] as never;
  const xs = executionsOf('wf', events, { declare: {}, exclude: new Set(['invokeTool']) });
  expect(xs.map((x) => [x.activityType, x.attempts, x.state, x.wastedRetries, x.retryMs])).toEqual([
    ['chargeCard', 4, 'failed', 3, 7_000],
  ]);
  expect(summarize(1, xs).byClass).toEqual({
    semantic_rejection: { failures: 1, retries: 3, wastedRetries: 3, wastedMs: 7_000 },
  });
});

test('the report leaves out exactly the activities a RecoveryPlugin registers (planner and shared refresh included)', () => {
  const plugin = new RecoveryPlugin({
    tools: supportTools('http://127.0.0.1:9').all,
    planner: createScriptedPlanner({ goals: {} }),
    credentialRefresh: { shared: true, key: 'k'.repeat(32) },
    entityWorker: false,
    searchAttributes: false,
  });
  const registered = Object.keys(plugin.configureWorker({ taskQueue: 'q' }).activities ?? {});
  expect(registered.sort()).toEqual([...ROUTER_ACTIVITY_TYPES].sort());
});
