/**
 * The zod schema of RecoveryPlugin's options (plugin/options.ts) and of BreakerOptions (activities/breaker.ts):
 * the messages name the option path; the schemas are built once, on first use. The messages test/unit/
 * plugin-options.test.ts asserts are kept as they were; these are the cases it does not cover.
 */
import { BreakerRegistry, breakerOptionsSchema } from '../../activities/breaker';
import { supportTools } from '../../examples/support-tools';
import { checkOptions, pluginOptionsSchema, RecoveryPluginOptionsError } from '../../plugin/options';
import { RecoveryPlugin, RecoveryPluginOptionsError as Reexported } from '../../plugin/recovery-plugin';
import { formatOptionIssue } from '../../recovery/errors';
import { isRecoveryError } from '../../recovery/recovery-error';

const tools = () => supportTools('http://127.0.0.1:1').all;
const config = { taskQueue: 'plugin-options-schema' };

/** The message `checkOptions` throws for `options` (fails if it throws anything else or nothing). */
function refusal(options: unknown): string {
  try {
    checkOptions(options);
  } catch (err) {
    expect(err).toBeInstanceOf(RecoveryPluginOptionsError);
    expect(isRecoveryError(err, 'invalid_plugin_options')).toBe(true);
    return (err as Error).message;
  }
  throw new Error('expected a RecoveryPluginOptionsError, nothing was thrown');
}

test('the class is the one recovery-plugin.ts exports, and the plugin throws it', () => {
  expect(Reexported).toBe(RecoveryPluginOptionsError);
  expect(() => new RecoveryPlugin({ tools: [], config })).toThrow(
    new RecoveryPluginOptionsError('RecoveryPlugin: `tools` must be a non-empty array of defineTool(...) results'),
  );
});

test('options that are not an object, or tools that are not an array, name `tools`', () => {
  const expected = 'RecoveryPlugin: `tools` must be a non-empty array of defineTool(...) results';
  for (const bad of [undefined, null, 'tools', {}, { tools: {} }, { tools: 'x' }]) expect(refusal(bad)).toBe(expected);
});

test('breaker bounds: non-integers, unsafe integers and ±Infinity are refused with the value shown', () => {
  const msg = (breaker: unknown) => refusal({ tools: tools(), breaker });
  expect(msg({ threshold: 1.5 })).toBe('RecoveryPlugin: breaker.threshold must be a positive integer (got 1.5)');
  expect(msg({ threshold: 2 ** 60 })).toBe(
    'RecoveryPlugin: breaker.threshold must be a positive integer (got 1152921504606847000)',
  );
  expect(msg({ threshold: 3n })).toBe('RecoveryPlugin: breaker.threshold must be a positive integer (got 3n)');
  expect(msg({ halfOpenAfterMs: -1 })).toBe(
    'RecoveryPlugin: breaker.halfOpenAfterMs must be a finite number of ms ≥ 0 (got -1)',
  );
  expect(msg({ halfOpenAfterMs: Infinity })).toBe(
    'RecoveryPlugin: breaker.halfOpenAfterMs must be a finite number of ms ≥ 0 (got Infinity)',
  );
  expect(msg([])).toBe(
    'RecoveryPlugin: `breaker` must be an object { threshold?: positive integer, halfOpenAfterMs?: ms ≥ 0 }',
  );
  expect(() => checkOptions({ tools: tools(), breaker: { threshold: 1, halfOpenAfterMs: 0 } })).not.toThrow();
});

test('credentials: the failing provider is named by its id, also one that is not an identifier', () => {
  const ok = { initial: async () => ({ token: 't' }), refresh: async () => ({ token: 'u' }) };
  expect(refusal({ tools: tools(), credentials: { crm: ok, 'billing-api': { initial: ok.initial } } })).toBe(
    'RecoveryPlugin: credentials["billing-api"] must be a CredentialProvider: an object with initial() and refresh() functions',
  );
  class Providers {
    crm = ok;
  }
  expect(() => checkOptions({ tools: tools(), credentials: new Providers() })).not.toThrow();
  expect(refusal({ tools: tools(), credentials: { crm: null } })).toBe(
    'RecoveryPlugin: credentials.crm must be a CredentialProvider: an object with initial() and refresh() functions',
  );
});

test('approvals: the shape, the key’s type and its length, each named', () => {
  const msg = (approvals: unknown) => refusal({ tools: tools(), approvals });
  expect(msg('key')).toBe(
    'RecoveryPlugin: `approvals` must be an object { signingKey?: string | Uint8Array of at least 32 bytes }',
  );
  expect(msg({ signingKey: 42 })).toBe(
    'RecoveryPlugin: approvals.signingKey must be a string or a Uint8Array of at least 32 bytes',
  );
  expect(msg({ signingKey: 'short' })).toBe('RecoveryPlugin: approvals.signingKey needs at least 32 bytes');
  expect(msg({ signingKey: new Uint8Array(31) })).toBe('RecoveryPlugin: approvals.signingKey needs at least 32 bytes');
  expect(() => checkOptions({ tools: tools(), approvals: { signingKey: new Uint8Array(32) } })).not.toThrow();
  expect(() => checkOptions({ tools: tools(), approvals: {} })).not.toThrow();
});

test('the first problem is reported, in the order of the options (tools first)', () => {
  expect(refusal({ tools: [null], breaker: 5, telemetry: 1 })).toBe(
    'RecoveryPlugin: tools[0] is not a defineTool(...) result',
  );
  expect(refusal({ tools: tools(), breaker: 5, telemetry: 1 })).toMatch(/^RecoveryPlugin: `breaker` must be/);
});

test('the schemas are built on first use and then kept', () => {
  expect(pluginOptionsSchema()).toBe(pluginOptionsSchema());
  expect(breakerOptionsSchema()).toBe(breakerOptionsSchema());
});

test('BreakerRegistry checks the same rules, as a RangeError naming the field', () => {
  expect(() => new BreakerRegistry({ threshold: 0 })).toThrow(
    new RangeError('breaker.threshold must be a positive integer (got 0)'),
  );
  expect(() => new BreakerRegistry({ halfOpenAfterMs: NaN })).toThrow(
    new RangeError('breaker.halfOpenAfterMs must be a finite number of ms ≥ 0 (got NaN)'),
  );
  expect(() => new BreakerRegistry({ threshold: 2, halfOpenAfterMs: 1 })).not.toThrow();
  expect(new BreakerRegistry().state('anything')).toBe('closed');
});

test('formatOptionIssue: backticks for an option, a path below it, unknown keys by their own path', () => {
  const issue = (path: PropertyKey[], message: string, extra: object = {}) =>
    ({ code: 'custom', path, message, input: undefined, ...extra }) as never;
  expect(formatOptionIssue(issue(['telemetry', 'sinks'], 'must be x'), () => 1)).toBe('`telemetry` must be x');
  expect(formatOptionIssue(issue(['tools', 2, 'spec', 'name'], 'has no y'), () => 2)).toBe('tools[2] has no y');
  expect(formatOptionIssue(issue(['tools', 0], ': `name` differs'))).toBe('tools[0]: `name` differs');
  expect(formatOptionIssue(issue([], 'whole value'))).toBe('whole value');
  expect(
    formatOptionIssue(issue(['breaker'], 'is not an option', { code: 'unrecognized_keys', keys: ['halfOpenAfter'] })),
  ).toBe('breaker.halfOpenAfter is not an option');
});
