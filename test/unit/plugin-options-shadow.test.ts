/**
 * The `tracing` and `shadow` options of RecoveryPlugin, and ShadowPlugin's: each refusal names the option and the
 * rule; a valid shadow option adds one activity interceptor. No workers, no server.
 */
import { supportTools } from '../../examples/support-tools';
import { RecoveryPlugin, RecoveryPluginOptionsError } from '../../plugin/recovery-plugin';
import { ShadowPlugin } from '../../plugin/shadow/shadow-plugin';

const tools = () => supportTools('http://127.0.0.1:1').all;
const config = { taskQueue: 'plugin-options-shadow' };

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof RecoveryPluginOptionsError) return err.message;
    throw err;
  }
  throw new Error('expected a RecoveryPluginOptionsError, nothing was thrown');
}

const plugin = (more: object) => new RecoveryPlugin({ tools: tools(), config, ...more });

test('shadow: a mode that is neither shadow nor enforce is refused, naming shadow.mode', () => {
  expect(refusal(() => plugin({ shadow: { mode: 'log' } }))).toBe(
    "RecoveryPlugin: shadow.mode must be 'shadow' or 'enforce'",
  );
});

test('shadow: enforce without activities is refused — the activities to enforce are named, the others stay in shadow', () => {
  expect(refusal(() => plugin({ shadow: { mode: 'enforce' } }))).toBe(
    "RecoveryPlugin: shadow.activities must name at least one activity type in mode 'enforce' (the others stay in shadow)",
  );
});

test('shadow: a declaration with another effect, or a lookup that is not a function, names the activity and field', () => {
  expect(refusal(() => plugin({ shadow: { mode: 'shadow', declare: { chargeCard: { effect: 'delete' } } } }))).toBe(
    "RecoveryPlugin: shadow.declare.chargeCard.effect must be 'read' or 'write'",
  );
  expect(refusal(() => plugin({ shadow: { mode: 'shadow', declare: { chargeCard: { lookup: 'GET /x' } } } }))).toBe(
    'RecoveryPlugin: shadow.declare.chargeCard.lookup must be a function',
  );
});

test('shadow.backoff merged with the config’s backoff must still hold: maximumIntervalMs below initialIntervalMs is refused', () => {
  expect(refusal(() => plugin({ shadow: { mode: 'shadow', backoff: { maximumIntervalMs: 100 } } }))).toBe(
    'RecoveryPlugin: shadow.backoff.maximumIntervalMs BackoffPolicy.maximumIntervalMs (100) cannot be less than its initialIntervalMs (500)',
  );
});

test('tracing: false, or providers with their get… methods; anything else is refused', () => {
  expect(plugin({ tracing: false }).tracing).toBeUndefined();
  expect(refusal(() => plugin({ tracing: true }))).toBe(
    'RecoveryPlugin: `tracing` must be false or { tracerProvider?, meterProvider? } (OpenTelemetry providers)',
  );
  expect(refusal(() => plugin({ tracing: { tracerProvider: {} } }))).toBe(
    'RecoveryPlugin: tracing.tracerProvider must be an OpenTelemetry TracerProvider: an object with a getTracer() method',
  );
});

test('a valid shadow option adds one activity interceptor factory to the worker; without it, none', () => {
  const interceptorsOf = (p: RecoveryPlugin) => p.configureWorker({ taskQueue: 'q' }).interceptors?.activity ?? [];
  expect(interceptorsOf(plugin({ shadow: { mode: 'shadow' } }))).toHaveLength(1);
  expect(interceptorsOf(plugin({}))).toHaveLength(0);
});

test('ShadowPlugin: the same rules, named ShadowPlugin', () => {
  expect(refusal(() => new ShadowPlugin({ mode: 'enforce' }))).toBe(
    "ShadowPlugin: shadow.activities must name at least one activity type in mode 'enforce' (the others stay in shadow)",
  );
  expect(new ShadowPlugin({ mode: 'shadow' }).configureWorker({ taskQueue: 'q' }).interceptors?.activity).toHaveLength(
    1,
  );
});
