/**
 * Unknown is not a bug by default (issue 28): an error no fact speaks for carries a stable fingerprint, and an
 * operator's rule in temporal.config.json (`classify.rules`) routes it with no code change; a malformed rule is
 * refused at start, naming its path. Through the real `invokeTool` under MockActivityEnvironment; no server.
 */
import { ApplicationFailure } from '@temporalio/common';
import { activityEnv } from '../fixtures/activity-env';
import { z } from 'zod';
import { parseConfigObject } from '../../config/load';
import { defineTool } from '../../activities/define-tool';
import { createToolActivities } from '../../activities/invoke-tool';
import { DEFAULT_BACKOFF_POLICY } from '../../recovery/backoff';
import { fingerprintOf, messageShape, type ClassifyRule } from '../../recovery/classify/rules';
import type { ToolFailure } from '../../recovery/failure';
import { routeFor } from '../../recovery/routes';

const silent = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };

class FluxError extends Error {
  override name = 'FluxError';
}

async function failureOf(effect: 'read' | 'write', thrown: unknown, rules: ClassifyRule[] = []): Promise<ToolFailure> {
  const tool = defineTool({
    name: 'flux',
    description: 'Calls a library no table names.',
    input: z.object({}),
    output: z.unknown(),
    effect,
    ...(effect === 'write' ? { idempotency: { carrier: 'header', name: 'Idempotency-Key', deduplicates: false } } : {}),
    async execute() {
      throw thrown;
    },
  } as Parameters<typeof defineTool>[0]);
  const { invokeTool } = createToolActivities({ tools: [tool], backoff: DEFAULT_BACKOFF_POLICY, classifyRules: rules });
  const env = activityEnv({ activityId: 'a' }, { logger: silent });
  const err = await env.run(invokeTool, { tool: 'flux', args: {}, callId: 'c', operationId: 'wf:s' }).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof ApplicationFailure)) throw new Error('expected an ApplicationFailure');
  return (err.details as [ToolFailure])[0];
}

describe('fingerprints of errors no fact speaks for', () => {
  test('fingerprint: two occurrences that differ only in their values share one; another kind does not', () => {
    const a = fingerprintOf(new FluxError('capacitor 7 jammed at "bay-12" (id 9f8e7d6c5b4a)'));
    const b = fingerprintOf(new FluxError('capacitor 31 jammed at "bay-4" (id 0011223344ff)'));
    const other = fingerprintOf(new FluxError('capacitor 7 melted'));
    expect(a.id).toMatch(/^fp_[0-9a-f]{12}$/);
    expect(a.id).toBe(b.id);
    expect(other.id).not.toBe(a.id);
    expect(a).toMatchObject({ name: 'FluxError', shape: 'capacitor <n> jammed at <q> (id <hex>)' });
  });

  test('messageShape: values, URLs and e-mail addresses never stay in the shape', () => {
    expect(
      messageShape('user ada@example.org hit https://x.test/a?b=1 with key sk_live_abc123XYZ and 42 retries'),
    ).toBe('user <email> hit <url> with key <id> and <n> retries');
  });

  test('a read that fails with an unknown error → unrecoverable/unrecognized (escalate) with its fingerprint, not a tool bug', async () => {
    const f = await failureOf('read', new FluxError('capacitor 7 jammed'));
    expect(f).toMatchObject({ class: 'unrecoverable', reason: 'unrecognized' });
    expect(f.fingerprint).toBe(fingerprintOf(new FluxError('capacitor 9 jammed')).id);
    expect(routeFor(f).action).toBe('escalate');
  });
});

describe('classify.rules: operators teach the router', () => {
  const fp = fingerprintOf(new FluxError('capacitor 7 jammed')).id;

  test('a rule matching the fingerprint routes the unknown error as the rule says: transient → retry', async () => {
    const f = await failureOf('read', new FluxError('capacitor 12 jammed'), [
      { match: { fingerprint: fp }, class: 'transient', reason: 'unavailable' },
    ]);
    expect(f).toMatchObject({ class: 'transient', reason: 'unavailable', retryable: true, replaySafe: true });
    expect(f.publicMessage).toBe('flux: the error is one an operator rule names (classify.rules[0]).');
    expect(routeFor(f).action).toBe('retry');
  });

  test('match by name, code, status or message pattern; the first matching rule wins', async () => {
    const coded = Object.assign(new FluxError('x'), { code: 'FLX_CAPACITY' });
    const rules: ClassifyRule[] = [
      { match: { name: 'Nope' }, class: 'transient' },
      { match: { code: 'FLX_CAPACITY' }, class: 'invalid_arguments', reason: 'schema' },
      { match: { message: '^x$' }, class: 'semantic_rejection' },
    ];
    expect(await failureOf('read', coded, rules)).toMatchObject({ class: 'invalid_arguments', reason: 'schema' });
    expect(await failureOf('read', new FluxError('x'), rules)).toMatchObject({ class: 'semantic_rejection' });
  });

  test('a write that may have been applied stays an unknown outcome unless its rule says applied: "no"', async () => {
    const rule = { match: { fingerprint: fp }, class: 'transient' as const, reason: 'unavailable' as const };
    expect(await failureOf('write', new FluxError('capacitor 1 jammed'), [rule])).toMatchObject({
      class: 'outcome_unknown',
      replaySafe: false,
    });
    expect(await failureOf('write', new FluxError('capacitor 1 jammed'), [{ ...rule, applied: 'no' }])).toMatchObject({
      class: 'transient',
      replaySafe: true,
      retryable: true,
    });
  });

  test.each([
    [{ match: {}, class: 'transient' }, 'classify.rules.0.match: a rule matches on at least one'],
    [
      { match: { message: '(' }, class: 'transient' },
      'classify.rules.0.match.message: must be a valid regular expression',
    ],
    [{ match: { fingerprint: 'abc' }, class: 'transient' }, 'classify.rules.0.match.fingerprint'],
    [{ match: { name: 'X' }, class: 'oops' }, 'classify.rules.0.class'],
    [{ match: { name: 'X' }, class: 'transient', extra: 1 }, 'classify.rules.0: Unrecognized key'],
  ])('a malformed rule %j is refused at start, naming %s', (rule, path) => {
    expect(() => parseConfigObject({ classify: { rules: [rule] } }, 'temporal.config.json')).toThrow(path);
  });
});
