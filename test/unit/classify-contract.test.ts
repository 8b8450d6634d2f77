/**
 * Unit tests of the `classify` entry point's contract (recovery/classify/index.ts): typed errors for bad input,
 * frozen results, `isFailureOutcome`. No workers, no servers.
 */
import { classify, isFailureOutcome, type CallContext, ClassifyError, type RawOutcome } from '../../recovery/classify';
import { ctxOf, READ } from './classify-helpers';

const err = (f: () => unknown): ClassifyError => {
  try {
    f();
  } catch (e) {
    if (ClassifyError.is(e)) return e;
    throw e;
  }
  throw new Error('expected a ClassifyError');
};

describe('classify: contract', () => {
  it.each([
    ['an empty tool', { tool: '' }, 'CallContext.tool: Too small: expected string to have >=1 characters'],
    ['an unknown effect', { effect: 'delete' }, 'CallContext.effect: Invalid option: expected one of "read"|"write"'],
    ['a NaN nowMs', { nowMs: Number.NaN }, 'CallContext.nowMs: Invalid input: expected number, received NaN'],
    [
      'a string deduplicates',
      { deduplicates: 'yes' },
      'CallContext.deduplicates: Invalid input: expected boolean, received string',
    ],
  ])('classify: a ctx with %s → ClassifyError invalid_context naming the field', (_n, over, message) => {
    const e = err(() => classify({ kind: 'thrown', error: new Error('x') }, ctxOf(over as Partial<CallContext>)));
    expect(e.code).toBe('invalid_context');
    expect(e.message).toBe(message);
  });

  it('classify: a ctx that is not an object → ClassifyError invalid_context', () => {
    expect(err(() => classify({ kind: 'thrown', error: 1 }, null as unknown as CallContext)).code).toBe(
      'invalid_context',
    );
  });

  it("classify: an envelope whose kind is not 'http' or 'thrown' → ClassifyError invalid_outcome", () => {
    const e = err(() => classify({ kind: 'text', text: '' } as unknown as RawOutcome, READ));
    expect(e.code).toBe('invalid_outcome');
    expect(e.message).toBe("classify: raw.kind must be 'http' or 'thrown'");
  });

  it('classify: the result and its issues are frozen', () => {
    const f = classify(
      { kind: 'http', status: 422, headers: {}, body: { errors: [{ field: 'a', message: 'bad' }] } },
      READ,
    );
    expect(Object.isFrozen(f)).toBe(true);
    expect(Object.isFrozen(f.issues)).toBe(true);
    expect(Object.isFrozen(f.issues?.[0])).toBe(true);
    expect(Object.isFrozen(f.issues?.[0]?.path)).toBe(true);
  });

  it('isFailureOutcome: thrown and non-2xx → true; 2xx → false', () => {
    expect(isFailureOutcome({ kind: 'thrown', error: null })).toBe(true);
    expect(isFailureOutcome({ kind: 'http', status: 404, headers: {} })).toBe(true);
    expect(isFailureOutcome({ kind: 'http', status: 200, headers: {} })).toBe(false);
    expect(isFailureOutcome({ kind: 'http', status: 299, headers: {} })).toBe(false);
  });
});
