/**
 * Property: whatever a tool throws — any value fast-check makes, made cyclic, or hidden behind getters that throw —
 * the tool activity answers with a shaped `ApplicationFailure` (a valid ToolFailure in `details[0]`, an empty stack,
 * no stack text in its message), and a write that is not replay-safe ends `outcome_unknown` (docs/DESIGN.md,
 * "Phases": unknown after dispatch, on a write). Through the real `invokeTool` under `MockActivityEnvironment`.
 */
import { ApplicationFailure } from '@temporalio/common';
import { activityEnv } from '../fixtures/activity-env';
import fc from 'fast-check';
import { z } from 'zod';
import { defineTool } from '../../activities/define-tool';
import { createToolActivities } from '../../activities/invoke-tool';
import { DEFAULT_BACKOFF_POLICY } from '../../recovery/backoff';
import { toolFailureSchema, type ToolFailure } from '../../recovery/failure';

const silent = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };

/**
 * What makes the thrown value, made hostile: as is, with itself as its cause, behind getters that throw, or a revoked
 * Proxy. A maker, not the value: fast-check itself cannot hold a revoked Proxy.
 */
const hostile = fc
  .tuple(
    fc.anything({ withBigInt: true, withDate: true, withMap: true, withSet: true, withNullPrototype: true }),
    fc.constantFrom('as-is', 'self-cause', 'throwing-getters', 'error-with-cause', 'revoked-proxy'),
  )
  .map(([value, how]) => (): unknown => {
    switch (how) {
      case 'self-cause': {
        const e = new Error(typeof value === 'string' ? value : 'loop');
        (e as { cause?: unknown }).cause = e;
        return e;
      }
      case 'throwing-getters': {
        const throwing = () => {
          throw value instanceof Error ? value : new Error('getter');
        };
        return Object.defineProperties(
          {},
          { message: { get: throwing }, cause: { get: throwing }, code: { get: throwing } },
        );
      }
      case 'error-with-cause':
        return new Error('wrapped', { cause: value });
      case 'revoked-proxy': {
        const { proxy, revoke } = Proxy.revocable({}, {});
        revoke();
        return proxy;
      }
      default:
        return value;
    }
  });

async function failureOf(effect: 'read' | 'write', make: () => unknown): Promise<ApplicationFailure> {
  const tool = defineTool({
    name: 'probe',
    description: 'Throws what it is given.',
    input: z.object({}),
    output: z.unknown(),
    effect,
    idempotency:
      effect === 'write' ? { carrier: 'header', name: 'Idempotency-Key', deduplicates: false } : { carrier: 'none' },
    async execute() {
      throw make();
    },
  });
  const { invokeTool } = createToolActivities({ tools: [tool], backoff: DEFAULT_BACKOFF_POLICY });
  const env = activityEnv({ activityId: 'act-1' }, { logger: silent });
  const err = await env.run(invokeTool, { tool: 'probe', args: {}, callId: 'c', operationId: 'wf:s' }).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof ApplicationFailure)) throw new Error('the activity did not answer with an ApplicationFailure');
  return err;
}

function expectShaped(err: ApplicationFailure): ToolFailure {
  expect(err.stack).toBe('');
  expect(err.message).not.toMatch(/\n\s+at |\.ts:\d+|\.js:\d+/);
  const parsed = toolFailureSchema().safeParse((err.details as unknown[])[0]);
  expect(parsed.success).toBe(true);
  return parsed.data!;
}

describe('activity edge (property): any thrown value', () => {
  it('activity edge: a write that throws anything after dispatch → a shaped outcome_unknown, no stack', async () => {
    await fc.assert(
      fc.asyncProperty(hostile, async (make) => {
        const failure = expectShaped(await failureOf('write', make));
        // A value no rule recognises may still be one a rule does (a fast-check object with `code: "ECONNREFUSED"`
        // is a refused connection): either way a write that may have been applied is never a tool bug. It is an
        // unknown outcome, or a result that came back unusable (`invalid_result`: the model is told it was applied).
        if (!failure.replaySafe) expect(['outcome_unknown', 'invalid_result']).toContain(failure.class);
        expect(failure.class === 'unrecoverable' && !failure.replaySafe).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('activity edge: a read that throws anything → a shaped failure, no stack', async () => {
    await fc.assert(
      fc.asyncProperty(hostile, async (make) => {
        expect(expectShaped(await failureOf('read', make)).replaySafe).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
