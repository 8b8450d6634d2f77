/**
 * Unit tests of a tool's own classifier over the built-in one (recovery/classify/override.ts via `classify`):
 * precedence, re-normalisation, and fallback when it throws. No workers, no servers.
 */
import { classify, type RawOutcome, type ToolClassifier } from '../../recovery/classify';
import { toolFailureSchema } from '../../recovery/failure';
import { READ, WRITE } from './classify-helpers';

const http500: RawOutcome = { kind: 'http', status: 500, headers: {}, body: { code: 'ledger_locked' } };

describe('classify: a tool classifier overrides the built-in answer', () => {
  it('classify: the tool reclassifies its 500 "ledger_locked" on a write as transient and replay-safe → retryable, in phase dispatch (the unknown outcome was the built-in guess)', () => {
    const tool: ToolClassifier = (raw) =>
      raw.kind === 'http' && (raw.body as { code?: string }).code === 'ledger_locked'
        ? { class: 'transient', replaySafe: true, retryAfterMs: 250 }
        : undefined;
    const f = classify(http500, WRITE, tool);
    expect(f).toMatchObject({
      class: 'transient',
      reason: 'unspecified',
      phase: 'dispatch',
      retryable: true,
      replaySafe: true,
      retryAfterMs: 250,
      status: 500,
    });
    expect(toolFailureSchema().safeParse(f).success).toBe(true);
  });

  it('classify: a result the built-in rules read as unusable (postcheck) that the tool names a refusal is in phase dispatch', () => {
    // Words about the result: the built-in rules read it as unusable (an MCP "(result -32602)" is a code, not words).
    const raw: RawOutcome = {
      kind: 'thrown',
      error: new Error('tool "read" failed: invalid response from the server'),
    };
    expect(classify(raw, READ)).toMatchObject({ class: 'invalid_result', phase: 'postcheck' });
    const f = classify(raw, READ, () => ({ class: 'invalid_arguments', reason: 'schema', replaySafe: true }));
    expect(f).toMatchObject({ class: 'invalid_arguments', reason: 'schema', phase: 'dispatch', retryable: false });
  });

  it('classify: the tool sees the built-in answer and may keep it by returning undefined', () => {
    const seen: string[] = [];
    const builtIn = classify(http500, WRITE);
    const f = classify(http500, WRITE, (_raw, ctx, b) => {
      seen.push(`${ctx.tool}:${b.class}`);
      return undefined;
    });
    expect(seen).toEqual(['create_payment:outcome_unknown']);
    expect(f).toEqual(builtIn);
  });

  it('classify: a field the tool names overrides; the others stay built-in (reason kept when class is unchanged)', () => {
    const f = classify({ kind: 'http', status: 429, headers: { 'retry-after': '3' } }, READ, () => ({
      publicMessage: 'Quota hit; try later.',
    }));
    expect(f).toMatchObject({
      class: 'transient',
      reason: 'rate_limited',
      retryable: true,
      retryAfterMs: 3000,
      publicMessage: 'Quota hit; try later.',
    });
  });

  it('classify: retryable true on a class that is not transient is forced false', () => {
    const f = classify({ kind: 'http', status: 404, headers: {} }, READ, () => ({ retryable: true }));
    expect(f).toMatchObject({ class: 'semantic_rejection', retryable: false });
  });

  it('classify: retryable true on a failure that is not replay-safe is forced false', () => {
    const f = classify(http500, WRITE, () => ({ class: 'transient', retryable: true }));
    expect(f).toMatchObject({ class: 'transient', replaySafe: false, retryable: false });
  });

  it('classify: a class changed to outcome_unknown is put in phase commit_unknown', () => {
    const f = classify({ kind: 'http', status: 409, headers: {} }, WRITE, () => ({
      class: 'outcome_unknown',
      replaySafe: false,
    }));
    expect(f).toMatchObject({
      class: 'outcome_unknown',
      phase: 'commit_unknown',
      reason: 'unspecified',
      retryable: false,
    });
  });

  it("classify: the tool's publicMessage is redacted and cut again", () => {
    const f = classify(http500, READ, () => ({
      publicMessage: `upstream https://10.0.0.5/x failed with token=abc123 ${'x'.repeat(600)}`,
    }));
    expect(f.publicMessage.startsWith('upstream [url] failed with token=[redacted] xxx')).toBe(true);
    expect(f.publicMessage.length).toBe(500);
  });

  it('classify: fields with wrong types or values are ignored', () => {
    const bad = {
      class: 'nope',
      reason: 7,
      retryable: 'yes',
      retryAfterMs: -5,
      publicMessage: '',
    } as unknown as ReturnType<ToolClassifier>;
    expect(classify(http500, READ, () => bad)).toEqual(classify(http500, READ));
  });

  it('classify: a throwing tool classifier falls back to the built-in answer', () => {
    const f = classify(http500, WRITE, () => {
      throw new Error('classifier bug');
    });
    expect(f).toEqual(classify(http500, WRITE));
  });

  it('classify: a tool classifier answering a non-object falls back to the built-in answer', () => {
    expect(classify(http500, READ, (() => 'transient') as unknown as ToolClassifier)).toEqual(classify(http500, READ));
  });

  it('classify: a fractional retryAfterMs is rounded up to whole ms', () => {
    expect(classify(http500, READ, () => ({ retryAfterMs: 1.2 })).retryAfterMs).toBe(2);
  });
});
