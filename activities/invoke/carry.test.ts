/**
 * The tool activity's two safety nets: a result goes back only when the payload can carry it, and what no step
 * shaped is classified by whether the request may have left. Pure unit tests: no workers, no servers.
 */
import { MAX_RESULT_BYTES } from '../../recovery/bounds';
import { CallInterrupted } from '../attempt-guard';
import { callContext, readTool, writeTool } from '../../test/fixtures/invoke';
import { carried, unshapedFailure } from './carry';
import { CallStopped } from './stop';

const over = { blob: 'x'.repeat(MAX_RESULT_BYTES) }; // its JSON is 11 bytes more than the limit
const overBytes = MAX_RESULT_BYTES + 11;

describe('carried', () => {
  it('carry: a JSON result within the limit goes back as it is (the same object)', () => {
    const value = { id: 'o-1', total: 3 };
    expect(carried(readTool(), value, callContext(readTool()))).toBe(value);
  });

  it('carry: BigInts go back as decimal strings', () => {
    expect(carried(readTool(), { total: 12345678901234567890n, n: 1 })).toEqual({
      total: '12345678901234567890',
      n: 1,
    });
  });

  it(`carry: a write’s result over ${MAX_RESULT_BYTES} bytes → the applied marker, with its size`, () => {
    expect(carried(writeTool(), over, callContext(writeTool()))).toEqual({
      omitted: true,
      why: `it is ${overBytes} bytes, over the ${MAX_RESULT_BYTES}-byte limit a result may carry`,
      bytes: overBytes,
      applied: true,
      note: 'The write was applied; only its result could not be carried back. Do not repeat it.',
    });
  });

  it('carry: a read’s result over the limit → CallStopped invalid_result/result_too_large (reject)', () => {
    let stopped: unknown;
    try {
      carried(readTool(), over, callContext(readTool()));
    } catch (err) {
      stopped = err;
    }
    expect(stopped).toBeInstanceOf(CallStopped);
    expect((stopped as CallStopped).failure).toMatchObject({
      class: 'invalid_result',
      reason: 'result_too_large',
      phase: 'postcheck',
      publicMessage: `get_order: the result could not be carried back: it is ${overBytes} bytes, over the ${MAX_RESULT_BYTES}-byte limit a result may carry. Ask for less (a filter, a smaller page).`,
    });
  });

  it('carry: a read’s result with a cycle → schema_violation, saying why without quoting it', () => {
    const cyclic: Record<string, unknown> = { id: 'o-1' };
    cyclic.self = cyclic;
    expect(() => carried(readTool(), cyclic, callContext(readTool()))).toThrow(CallStopped);
    try {
      carried(readTool(), cyclic, callContext(readTool()));
    } catch (err) {
      expect((err as CallStopped).failure).toMatchObject({
        reason: 'schema_violation',
        publicMessage:
          'get_order: the result could not be carried back: it cannot be written as JSON: it refers to itself (a cycle).',
      });
    }
  });

  it('carry: a write’s result with a cycle is still applied: the marker without a size', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(carried(writeTool(), cyclic, callContext(writeTool()))).toMatchObject({
      omitted: true,
      applied: true,
      why: 'it cannot be written as JSON: it refers to itself (a cycle)',
    });
    expect(carried(writeTool(), cyclic)).not.toHaveProperty('bytes');
  });
});

describe('unshapedFailure', () => {
  it('carry: a worker shutdown before a read was sent → transient/interrupted, retryable, replay-safe', () => {
    const ctx = callContext(readTool());
    const stopped = unshapedFailure(new CallInterrupted('worker_shutdown'), ctx, false);
    expect(stopped.failure).toMatchObject({
      class: 'transient',
      reason: 'interrupted',
      retryable: true,
      replaySafe: true,
    });
    expect(stopped.failure.publicMessage).toMatch(
      /^get_order: the attempt was interrupted because the worker running it shut down/,
    );
  });

  it('carry: an unknown error after a one-shot write may have left → outcome_unknown, never a tool bug, never replayed', () => {
    const ctx = callContext(writeTool());
    const err = new Error('socket hang up');
    const stopped = unshapedFailure(err, ctx, true);
    expect(stopped.failure).toMatchObject({
      class: 'outcome_unknown',
      reason: 'unrecognized',
      phase: 'commit_unknown',
      retryable: false,
      replaySafe: false,
    });
    expect(stopped.failure.publicMessage).toMatch(/^refund: the call failed inside the tool activity/);
    expect(stopped.diagnostic).toBe(err);
  });

  it('carry: the same error before a write was sent → transient, replay-safe: nothing can have been applied', () => {
    const stopped = unshapedFailure(new Error('x'), callContext(writeTool()), false);
    expect(stopped.failure).toMatchObject({ class: 'transient', replaySafe: true });
  });
});
