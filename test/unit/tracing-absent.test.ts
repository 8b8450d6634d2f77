/**
 * `@opentelemetry/api` is an optional peer: with it absent (its `require` throws, as Node's does for a missing
 * package), the plugin, shadow mode and the tool activity make nothing and throw nothing.
 */
jest.mock('@opentelemetry/api', () => {
  throw new Error("Cannot find module '@opentelemetry/api'");
});

import { activityEnv } from '../fixtures/activity-env';
import { DefaultLogger, type LogEntry } from '@temporalio/worker';
import { createTracing } from '../../activities/tracing/tracing';
import { supportTools } from '../../examples/support-tools';
import { RecoveryPlugin } from '../../plugin/recovery-plugin';
import { shadowInterceptors } from '../../plugin/shadow/interceptor';
import { SHADOW_LOG_MESSAGE } from '../../plugin/shadow/record';
import { shadowRuntime } from '../../plugin/shadow/shadow-plugin';
import { DEFAULT_BACKOFF_POLICY } from '../../recovery/backoff';

test('without the API: no tracing, the plugin builds, its trace sink is a no-op', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the require the library's loader makes
  expect(() => require('@opentelemetry/api')).toThrow(/Cannot find module/);
  expect(createTracing(undefined)).toBeUndefined();
  expect(createTracing({})).toBeUndefined();
  const plugin = new RecoveryPlugin({
    tools: supportTools('http://127.0.0.1:9').all,
    shadow: { mode: 'shadow' },
    searchAttributes: false,
  });
  expect(plugin.tracing).toBeUndefined();
  const sinks = plugin.configureWorker({ taskQueue: 'q' }).sinks as Record<
    string,
    Record<string, { fn: (...args: unknown[]) => void }>
  >;
  expect(Object.keys(sinks).sort()).toEqual(['recoveryTelemetry', 'recoveryTraces']);
  expect(() =>
    sinks.recoveryTraces!.spans!.fn({}, { spans: [{ name: 'x', startMs: 1, endMs: 2, attributes: {}, parent: -1 }] }),
  ).not.toThrow();
});

test('without the API: shadow mode still writes its one log line and rethrows the activity’s error', async () => {
  const logs: LogEntry[] = [];
  const rt = shadowRuntime({ mode: 'shadow' }, DEFAULT_BACKOFF_POLICY, [], createTracing(undefined), 'test');
  const env = activityEnv(
    { activityType: 'sendEmail' },
    { logger: new DefaultLogger('DEBUG', (e) => logs.push(e)), interceptors: [shadowInterceptors(rt)] },
  );
  const err = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:25'), {
    code: 'ECONNREFUSED',
    syscall: 'connect',
  });
  await expect(
    env.run(async () => {
      await Promise.resolve();
      throw err;
    }),
  ).rejects.toBe(err);
  expect(logs.filter((l) => l.message === SHADOW_LOG_MESSAGE).map((l) => l.meta?.['error.type'])).toEqual([
    'transient',
  ]);
});
