/**
 * A call's recovery steps kept as spans on its scope (workflows/router/trace.ts). Pure unit tests: no workers, no
 * servers; workflow time is jest's fake clock.
 */
import type { RecoveryRecord } from '../../recovery/records';
import { readyScope, spec } from '../../test/fixtures/router';
import { emitCallSpans, guardrailStep, traceStep } from './trace';

beforeEach(() => jest.useFakeTimers({ now: 10_000 }));
afterEach(() => jest.useRealTimers());

describe('traceStep', () => {
  it('trace: a retry wait is kept as `retry_wait {tool}` from its start to now, with its delay', () => {
    const scope = readyScope(spec());
    traceStep(scope, 'retry_wait', 7_500, { 'recovery_router.delay_ms': 2_500 });
    expect(scope.traceSteps).toEqual([
      {
        name: 'retry_wait get_order',
        startMs: 7_500,
        endMs: 10_000,
        attributes: { 'gen_ai.tool.name': 'get_order', 'recovery_router.delay_ms': 2_500 },
      },
    ]);
  });

  it('trace: an apply_guardrail step is named by its guardian, and steps are kept in the order they ended', () => {
    const scope = readyScope(spec());
    traceStep(scope, 'reconcile', 9_000);
    traceStep(scope, 'apply_guardrail', 9_500, { 'gen_ai.guardian.name': 'human_approval' });
    expect(scope.traceSteps!.map((s) => s.name)).toEqual(['reconcile get_order', 'apply_guardrail human_approval']);
  });
});

describe('guardrailStep', () => {
  it('trace: the gate’s refusal is a deny with its reason beside the route’s action', () => {
    const scope = readyScope(spec());
    guardrailStep(scope, 'change_before_retry', { allow: false, reason: 'no_evidence', action: 'retry' });
    expect(scope.traceSteps).toEqual([
      {
        name: 'apply_guardrail change_before_retry',
        startMs: 10_000,
        endMs: 10_000,
        attributes: {
          'gen_ai.tool.name': 'get_order',
          'gen_ai.operation.name': 'apply_guardrail',
          'gen_ai.guardian.name': 'change_before_retry',
          'gen_ai.security.target.type': 'tool_call',
          'gen_ai.security.target.id': 'c1',
          'gen_ai.security.decision.type': 'deny',
          'gen_ai.security.decision.reason': 'no_evidence',
          'recovery_router.action': 'retry',
        },
      },
    ]);
  });

  it('trace: a person’s approval is an allow from the wait’s start, without a reason', () => {
    const scope = readyScope(spec());
    guardrailStep(scope, 'human_approval', { allow: true, reason: 'approved', action: 'request_approval' }, 4_000);
    const [step] = scope.traceSteps!;
    expect([step!.startMs, step!.endMs]).toEqual([4_000, 10_000]);
    expect(step!.attributes['gen_ai.security.decision.type']).toBe('allow');
    expect(step!.attributes['gen_ai.security.decision.reason']).toBeUndefined();
  });
});

describe('emitCallSpans', () => {
  it('trace: a first-attempt success with no replan before it emits nothing (the happy path makes no sink call)', () => {
    const scope = readyScope(spec());
    const record = { callId: 'c1', tool: 'get_order', terminal: 'succeeded', attempts: 1 } as RecoveryRecord;
    // A sink call needs a workflow context, which this test has none of: it would throw.
    expect(() => emitCallSpans(scope, record, undefined)).not.toThrow();
    expect(scope.traceSteps).toBeUndefined();
  });
});
