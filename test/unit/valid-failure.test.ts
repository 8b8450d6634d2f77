/**
 * recovery/valid-failure.ts: a failure validated once and deep-frozen is not parsed again by `routeFor`, the gate or
 * the activity edge; anything else is parsed exactly as before (same answers, same errors).
 */
import fc from 'fast-check';
import { classify, type CallContext } from '../../recovery/classify';
import { argsHash } from '../../recovery/canonical';
import { RecoveryInputError } from '../../recovery/errors';
import { FAILURE_CLASSES, toolFailureSchema, type ToolFailure } from '../../recovery/failure';
import { allowNextAttempt, attemptRecordSchema, type ChangeEvidence } from '../../recovery/gate';
import { routeFor } from '../../recovery/routes';
import { isValidFailure, markValid, validFailure } from '../../recovery/valid-failure';

const CTX: CallContext = {
  tool: 'check_inventory',
  callId: 'c1',
  effect: 'read',
  deduplicates: false,
  approvalCanLift: false,
  nowMs: 1_000,
  diagnosticRef: 'diag-1',
};
const HASH = argsHash({ sku: 'SKU-1' });

function built(): ToolFailure {
  return classify(
    { kind: 'http', status: 422, headers: {}, body: { errors: [{ field: 'sku', message: 'unknown' }] } },
    CTX,
  );
}

/** A deep, unfrozen, unmarked copy: what history or another caller hands over. */
const copy = (f: ToolFailure): ToolFailure => JSON.parse(JSON.stringify(f)) as ToolFailure;

describe('validFailure', () => {
  it('returns a failure classify built as it is, deep-frozen and known valid', () => {
    const f = built();
    expect(isValidFailure(f)).toBe(true);
    expect(validFailure(f, 'test')).toBe(f);
    expect(Object.isFrozen(f)).toBe(true);
    expect(f.issues?.length).toBe(1);
    expect(Object.isFrozen(f.issues)).toBe(true);
    expect(Object.isFrozen(f.issues?.[0])).toBe(true);
    expect(Object.isFrozen(f.issues?.[0]?.path)).toBe(true);
    expect(() => {
      (f as { class: string }).class = 'transient';
    }).toThrow(TypeError);
  });

  it('routeFor and the gate do not parse a built failure again; a plain copy is parsed', () => {
    const f = built();
    const parse = jest.spyOn(toolFailureSchema(), 'safeParse');
    const parseRecord = jest.spyOn(attemptRecordSchema(), 'safeParse');
    try {
      routeFor(f);
      const record = { tool: CTX.tool, argsHash: HASH, credentialVersion: 0, failure: f, endedAtMs: 1_000 };
      const cand = { tool: CTX.tool, argsHash: HASH, credentialVersion: 1 };
      allowNextAttempt(record, cand, null, 2_000);
      expect([parse.mock.calls.length, parseRecord.mock.calls.length]).toEqual([0, 0]);
      routeFor(copy(f));
      allowNextAttempt({ ...record, failure: copy(f) }, cand, null, 2_000);
      expect([parse.mock.calls.length, parseRecord.mock.calls.length]).toEqual([1, 1]);
    } finally {
      parse.mockRestore();
      parseRecord.mockRestore();
    }
  });

  it('parses a plain copy: an equal, new, frozen value, then known valid', () => {
    const f = built();
    const plain = copy(f);
    expect(isValidFailure(plain)).toBe(false);
    const parsed = validFailure(plain, 'test');
    expect(parsed).toEqual(f);
    expect(isValidFailure(parsed)).toBe(true);
    expect(Object.isFrozen(parsed)).toBe(true);
  });

  it('rejects an invalid failure, frozen or not, naming the field', () => {
    const bad = { ...copy(built()), retryable: true };
    expect(() => validFailure(bad, 'routeFor: failure')).toThrow(RecoveryInputError);
    const message = 'routeFor: failure.retryable: only transient failures are retryable, not invalid_arguments';
    expect(() => validFailure(Object.freeze(bad), 'routeFor: failure')).toThrow(message);
    expect(() => routeFor(Object.freeze(bad))).toThrow(message);
  });

  it('routeFor answers the same for the built failure and its plain copy, for every class', () => {
    for (const cls of FAILURE_CLASSES) {
      const f = markValid(
        toolFailureSchema().parse({
          ...copy(built()),
          class: cls,
          reason: 'unspecified',
          phase: cls === 'outcome_unknown' ? 'commit_unknown' : 'preflight',
          issues: undefined,
        }),
      );
      expect(routeFor(f)).toEqual(routeFor(copy(f)));
    }
  });
});

describe('allowNextAttempt with a failure known valid', () => {
  const failure503 = (): ToolFailure =>
    classify({ kind: 'http', status: 503, headers: { 'retry-after': '2' }, body: 'busy' }, CTX);

  it('decides exactly as for an unmarked copy (fast-check over records, candidates, evidence and time)', () => {
    const evidence = fc.constantFrom<ChangeEvidence | null>(
      null,
      { kind: 'time_elapsed' },
      { kind: 'args_changed' },
      { kind: 'credential_refreshed' },
      { kind: 'tool_changed' },
    );
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.nat(5),
        fc.nat(5),
        fc.integer({ min: 0, max: 20_000 }),
        evidence,
        (sameArgs, prevVersion, candVersion, nowMs, ev) => {
          const f = failure503();
          const record = (failure: ToolFailure) => ({
            tool: CTX.tool,
            argsHash: HASH,
            credentialVersion: prevVersion,
            failure,
            endedAtMs: 1_000,
            earliestRetryAtMs: 3_000,
          });
          const cand = {
            tool: CTX.tool,
            argsHash: sameArgs ? HASH : argsHash({ sku: 'SKU-2' }),
            credentialVersion: candVersion,
          };
          expect(allowNextAttempt(record(f), cand, ev, nowMs)).toEqual(
            allowNextAttempt(record(copy(f)), cand, ev, nowMs),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('still checks the rest of the record, and a failure getter that throws is refused (zod reads it)', () => {
    const f = failure503();
    const cand = { tool: CTX.tool, argsHash: HASH, credentialVersion: 0 };
    const base = { tool: CTX.tool, argsHash: HASH, credentialVersion: 0, failure: f, endedAtMs: 5_000 };
    expect(() => allowNextAttempt({ ...base, earliestRetryAtMs: 4_000 }, cand, null, 6_000)).toThrow(
      /^allowNextAttempt: previous.earliestRetryAtMs: cannot be before endedAtMs$/,
    );
    const hostile = Object.defineProperty({ ...base }, 'failure', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    // previousSchema's own read is guarded; zod's read of the same getter throws, and parseInput refuses the value
    // with a RecoveryInputError (the getter's own message stays in `cause`).
    expect(() => allowNextAttempt(hostile, cand, null, 6_000)).toThrow(
      /^allowNextAttempt: previous: cannot be read \(reading it threw\)$/,
    );
  });
});
