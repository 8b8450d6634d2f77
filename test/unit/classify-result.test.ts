/**
 * Unit tests of output-side classification (recovery/classify/result.ts): no workers, no servers.
 * docs/DESIGN.md, "Routes" (Reject): a 200 with an empty body where {"docs":[...]} is expected is an explicit
 * failure; {"docs":[]} is a success labelled empty.
 */
import { z } from 'zod';
import { classifyInvalidResult, validateResult, ClassifyError } from '../../recovery/classify';
import { toolFailureSchema } from '../../recovery/failure';
import { ctxOf, READ, WRITE, WRITE_DEDUP } from './classify-helpers';

const listDocs = z.object({ docs: z.array(z.object({ id: z.string() })) });

describe('validateResult: an empty body is a failure, an empty list a success labelled empty (docs/DESIGN.md, "Routes")', () => {
  it('validateResult: 200 with an empty body → invalid_result/empty_result in postcheck, not a success', () => {
    const r = validateResult(listDocs, '', READ, 200);
    expect(r).toEqual({
      ok: false,
      failure: {
        tool: 'get_docs',
        callId: 'call-1',
        class: 'invalid_result',
        reason: 'empty_result',
        phase: 'postcheck',
        retryable: false,
        replaySafe: true,
        publicMessage:
          'get_docs: the call returned an empty result (HTTP 200) where data was expected; this is not a success.',
        diagnosticRef: 'diag-1',
        status: 200,
      },
    });
  });

  it('validateResult: 200 {"docs":[]} → success labelled empty', () => {
    expect(validateResult(listDocs, { docs: [] }, READ)).toEqual({ ok: true, value: { docs: [] }, empty: true });
  });

  it('validateResult: 200 {"docs":[{"id":"a1"}]} → success, not empty', () => {
    expect(validateResult(listDocs, { docs: [{ id: 'a1' }] }, READ)).toEqual({
      ok: true,
      value: { docs: [{ id: 'a1' }] },
      empty: false,
    });
  });

  it('validateResult: JSON text is parsed when the raw string fails the schema', () => {
    expect(validateResult(listDocs, '{"docs":[{"id":"a1"}]}', READ)).toMatchObject({ ok: true, empty: false });
  });

  it('validateResult: a body of the wrong shape → schema_violation naming the result paths', () => {
    const r = validateResult(listDocs, { items: [] }, READ);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.failure.reason).toBe('schema_violation');
      expect(r.failure.publicMessage).toBe(
        "get_docs: the result does not match the tool's output schema (docs: Invalid input: expected array, received undefined). It is not a usable fact.",
      );
    }
  });

  it('validateResult: a schema that accepts an empty body → success labelled empty', () => {
    expect(validateResult(z.string(), '', READ)).toEqual({ ok: true, value: '', empty: true });
  });
});

describe('classifyInvalidResult', () => {
  it('classifyInvalidResult: an invariant message → invariant_violation, redacted', () => {
    const f = classifyInvalidResult(
      { invariant: 'refund 900 exceeds charge 500 (see /srv/ledger.db)', received: { refund: 900 } },
      READ,
    );
    expect(f).toMatchObject({
      class: 'invalid_result',
      reason: 'invariant_violation',
      phase: 'postcheck',
      retryable: false,
      replaySafe: true,
    });
    expect(f.publicMessage).toBe(
      'get_docs: the result breaks an invariant: refund 900 exceeds charge 500 (see [path]). It is not a usable fact.',
    );
  });

  it('classifyInvalidResult: a write that returned a bad result was applied → not replaySafe, says so', () => {
    const f = classifyInvalidResult({ error: listDocs.safeParse({}).error, received: {} }, WRITE);
    expect(f.replaySafe).toBe(false);
    expect(f.publicMessage.endsWith('The write was applied; do not repeat it.')).toBe(true);
  });

  it('classifyInvalidResult: a deduplicated write → replaySafe', () => {
    expect(classifyInvalidResult({ invariant: 'x', received: { a: 1 } }, WRITE_DEDUP).replaySafe).toBe(true);
  });

  it('classifyInvalidResult: received given as undefined or null → empty_result (checked before the schema error)', () => {
    expect(
      classifyInvalidResult({ error: listDocs.safeParse(undefined).error, received: undefined }, READ).reason,
    ).toBe('empty_result');
    expect(classifyInvalidResult({ invariant: 'x', received: null }, READ).reason).toBe('empty_result');
  });

  it('classifyInvalidResult: without received, an error alone → schema_violation', () => {
    const f = classifyInvalidResult({ error: listDocs.safeParse({}).error }, READ);
    expect(f.reason).toBe('schema_violation');
    expect(toolFailureSchema().safeParse(f).success).toBe(true);
  });

  it('classifyInvalidResult: a bad ctx → ClassifyError invalid_context', () => {
    expect(() => classifyInvalidResult({ invariant: 'x' }, ctxOf({ nowMs: -1 }))).toThrow(ClassifyError);
  });
});
