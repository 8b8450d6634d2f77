/**
 * A 2xx applied is applied: a write's unusable answer succeeds with its lookup's record or the applied marker; a
 * read's stays `invalid_result`; a write's unreadable answer without a 2xx seen is an unknown outcome. Pure unit
 * tests: no workers, no servers; the lookup is the tool's own function.
 */
import type { ToolFailure } from '../../recovery/failure';
import type { ToolContext } from '../tool-context';
import { callContext, readTool, writeTool } from '../../test/fixtures/invoke';
import { afterAnswer, appliedValue } from './applied';
import { CallStopped, unusableResult } from './stop';

const toolCtx = { operationId: 'wf-1:s1' } as ToolContext;
const unusable = (tool = writeTool(), reason?: ToolFailure['reason']) => {
  const f = unusableResult(callContext(tool), 'the answer is not JSON', false);
  return new CallStopped(reason ? { ...f, reason } : f, 'diagnostic');
};

describe('appliedValue', () => {
  it('applied: a write’s unusable answer → the record its lookup finds now, looked up by operation id and arguments', async () => {
    const lookups: unknown[][] = [];
    const tool = writeTool({
      lookup: (id: string, _ctx: unknown, args: unknown) => {
        lookups.push([id, args]);
        return Promise.resolve({ state: 'applied', result: { id: 'o-1', total: 3, extra: 'stripped' } });
      },
    });
    await expect(appliedValue(unusable(tool), tool, { id: 'o-1' }, toolCtx)).resolves.toEqual({ id: 'o-1', total: 3 });
    expect(lookups).toEqual([['wf-1:s1', { id: 'o-1' }]]);
  });

  it('applied: a lookup that throws or does not find it → the applied marker, never a failure', async () => {
    const throwing = writeTool({ lookup: () => Promise.reject(new Error('503')) });
    const marker = {
      omitted: true,
      why: "the write was applied, but its answer does not match the tool's output schema",
      applied: true,
      note: 'The write was applied; only its result could not be carried back. Do not repeat it.',
    };
    await expect(appliedValue(unusable(throwing), throwing, {}, toolCtx)).resolves.toEqual(marker);
    const notFound = writeTool({ lookup: () => Promise.resolve({ state: 'not_applied' }) });
    await expect(appliedValue(unusable(notFound), notFound, {}, toolCtx)).resolves.toEqual(marker);
  });

  it('applied: the marker says why the answer was unusable (an empty 204, an answer too large)', async () => {
    const tool = writeTool();
    await expect(appliedValue(unusable(tool, 'empty_result'), tool, {}, toolCtx)).resolves.toMatchObject({
      why: 'the write was applied, but its answer was empty where the output schema expects content',
    });
    await expect(appliedValue(unusable(tool, 'result_too_large'), tool, {}, toolCtx)).resolves.toMatchObject({
      why: 'the write was applied, but its answer is larger than a body is read to',
    });
  });

  it('applied: a read’s unusable answer, a write’s other failure and a foreign error are thrown on as they are', async () => {
    const read = readTool();
    const readStop = unusable(read);
    await expect(appliedValue(readStop, read, {}, toolCtx)).rejects.toBe(readStop);
    const conflict = new CallStopped({ ...unusable().failure, class: 'semantic_rejection', reason: 'conflict' }, 'd');
    await expect(appliedValue(conflict, writeTool(), {}, toolCtx)).rejects.toBe(conflict);
    const foreign = new Error('x');
    await expect(appliedValue(foreign, writeTool(), {}, toolCtx)).rejects.toBe(foreign);
  });
});

describe('afterAnswer', () => {
  const write = writeTool();
  const ctx = callContext(write);

  it('applied: a write’s unreadable answer with no 2xx seen may have been an error page → outcome_unknown/unrecognized', () => {
    const out = afterAnswer(unusable(write).failure, write, false, ctx);
    expect(out).toMatchObject({
      class: 'outcome_unknown',
      reason: 'unrecognized',
      phase: 'commit_unknown',
      retryable: false,
      replaySafe: false,
    });
    expect(out.publicMessage).toMatch(/^refund: the answer could not be read/);
  });

  it('applied: after a 2xx to the write, an unreadable answer stays invalid_result (appliedValue makes it applied)', () => {
    const f = unusable(write).failure;
    expect(afterAnswer(f, write, true, ctx)).toBe(f);
  });

  it('applied: after a 2xx to the write, an unknown outcome is `accepted`: never resent blind', () => {
    const unknown = { ...unusable(write).failure, class: 'outcome_unknown', reason: 'timeout' } as ToolFailure;
    expect(afterAnswer(unknown, write, true, ctx)).toEqual({ ...unknown, reason: 'accepted' });
  });

  it('applied: without a 2xx seen, an unknown outcome keeps its own reason (it is not `accepted`)', () => {
    const unknown = { ...unusable(write).failure, class: 'outcome_unknown', reason: 'timeout' } as ToolFailure;
    expect(afterAnswer(unknown, write, false, ctx)).toBe(unknown);
  });

  it('applied: a read’s failure, and a write’s without a 2xx that is no unreadable answer, are unchanged', () => {
    const read = readTool();
    const f = unusable(read).failure;
    expect(afterAnswer(f, read, false, callContext(read))).toBe(f);
    const conflict = { ...f, class: 'semantic_rejection', reason: 'conflict' } as ToolFailure;
    expect(afterAnswer(conflict, write, false, ctx)).toBe(conflict);
  });
});
