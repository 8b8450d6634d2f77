/**
 * The tool activity's last step: the result passes the output schema and the `validate.after` invariants, or the
 * call is `invalid_result` (reject). Pure unit tests: no workers, no servers.
 */
import { callContext, readTool } from '../../test/fixtures/invoke';
import { postcheck } from './postcheck';
import { CallStopped } from './stop';

function stoppedBy(fn: () => unknown): CallStopped {
  try {
    fn();
  } catch (err) {
    if (err instanceof CallStopped) return err;
    throw err;
  }
  throw new Error('postcheck did not stop the call');
}

describe('postcheck', () => {
  it('postcheck: a result that passes the schema and the invariant is the parsed output (unknown keys stripped)', () => {
    const tool = readTool({ validate: { after: () => undefined } });
    expect(postcheck(tool, { id: 'o-1', total: 3, extra: true }, { id: 'o-1' }, callContext(tool))).toEqual({
      id: 'o-1',
      total: 3,
    });
  });

  it('postcheck: a 200 whose result breaks the output schema → invalid_result/schema_violation, the zod error kept for the log', () => {
    const tool = readTool();
    const stopped = stoppedBy(() => postcheck(tool, { id: 'o-1', total: 'three' }, {}, callContext(tool)));
    expect(stopped.failure).toMatchObject({ class: 'invalid_result', reason: 'schema_violation', phase: 'postcheck' });
    expect((stopped.diagnostic as Error).name).toBe('ZodError');
  });

  it('postcheck: a result that breaks the tool’s invariant → invalid_result/invariant_violation, the broken rule kept', () => {
    const tool = readTool({
      validate: { after: (r: { id: string }, a: { id: string }) => (r.id === a.id ? undefined : 'another order') },
    });
    const stopped = stoppedBy(() => postcheck(tool, { id: 'o-2', total: 3 }, { id: 'o-1' }, callContext(tool)));
    expect(stopped.failure).toMatchObject({ class: 'invalid_result', reason: 'invariant_violation' });
    expect(stopped.diagnostic).toBe('another order');
  });

  it('postcheck: an empty answer where the schema expects content → invalid_result/empty_result', () => {
    const tool = readTool();
    expect(stoppedBy(() => postcheck(tool, '', {}, callContext(tool))).failure).toMatchObject({
      class: 'invalid_result',
      reason: 'empty_result',
    });
  });

  it('postcheck: an invariant that throws, after a read ran → unrecoverable/unrecognized, its words not shown', () => {
    const bug = new TypeError('cannot read total');
    const tool = readTool({
      validate: {
        after: () => {
          throw bug;
        },
      },
    });
    const stopped = stoppedBy(() => postcheck(tool, { id: 'o-1', total: 3 }, {}, callContext(tool)));
    expect(stopped.diagnostic).toBe(bug);
    expect(stopped.failure).toMatchObject({
      class: 'unrecoverable',
      reason: 'unrecognized',
      retryable: false,
      publicMessage: 'get_order: the tool failed with an error no rule recognises (TypeError).',
    });
  });

  it('postcheck: an invariant that throws after a one-shot write was sent → outcome_unknown (the write may have applied)', () => {
    const tool = readTool({
      name: 'refund',
      effect: 'write',
      idempotency: { carrier: 'header', deduplicates: false },
      validate: {
        after: () => {
          throw new TypeError('x');
        },
      },
    });
    const stopped = stoppedBy(() => postcheck(tool, { id: 'o-1', total: 3 }, {}, callContext(tool)));
    expect(stopped.failure).toMatchObject({
      class: 'outcome_unknown',
      phase: 'commit_unknown',
      replaySafe: false,
    });
  });
});
