/**
 * Pure unit tests of the route table (recovery/routes.ts): no workers, no servers.
 */
import fc from 'fast-check';
import { FAILURE_CLASSES, FAILURE_REASONS, PHASES, toolFailureSchema } from '../../recovery/failure';
import type { FailureClass, FailureReason, ToolFailure } from '../../recovery/failure';
import { RECOVERY_ACTIONS, RecoveryAction, routeFor, ROUTES } from '../../recovery/routes';
import { routesMarkdown } from '../../scripts/generated-blocks';

function failure(over: Partial<ToolFailure> & Pick<ToolFailure, 'class'>): ToolFailure {
  return toolFailureSchema().parse({
    tool: 'issue_refund',
    callId: 'call-1',
    reason: 'unspecified',
    phase: over.class === 'outcome_unknown' ? 'commit_unknown' : 'dispatch',
    retryable: false,
    replaySafe: false,
    publicMessage: 'The call failed.',
    diagnosticRef: 'diag-1',
    ...over,
  });
}

/** Any ToolFailure that passes ToolFailureSchema (its refinements included). */
const validFailure: fc.Arbitrary<ToolFailure> = fc
  .record({
    class: fc.constantFrom(...FAILURE_CLASSES),
    reason: fc.constantFrom(...FAILURE_REASONS),
    phase: fc.constantFrom(...PHASES),
    retryable: fc.boolean(),
    replaySafe: fc.boolean(),
    retryAfterMs: fc.option(fc.nat(1_000_000), { nil: undefined }),
    status: fc.option(fc.integer({ min: 100, max: 599 }), { nil: undefined }),
  })
  .map((f) => {
    const retryable = f.retryable && f.class === 'transient';
    const v: Record<string, unknown> = {
      tool: 't',
      callId: 'c',
      class: f.class,
      reason: f.reason,
      phase: f.class === 'outcome_unknown' ? 'commit_unknown' : f.phase,
      retryable,
      replaySafe: f.replaySafe || retryable,
      publicMessage: 'm',
      diagnosticRef: 'd',
    };
    if (f.retryAfterMs !== undefined) v.retryAfterMs = f.retryAfterMs;
    if (f.status !== undefined) v.status = f.status;
    return toolFailureSchema().parse(v);
  });

describe('routes: the table', () => {
  test('routes: RecoveryAction has the nine actions of the design', () => {
    expect(RECOVERY_ACTIONS).toEqual([
      'repair',
      'retry',
      'reauth',
      'request_approval',
      'replan',
      'reconcile',
      'reject',
      'escalate',
      'stop',
    ]);
    expect(RecoveryAction.REQUEST_APPROVAL).toBe('request_approval');
  });

  test('routes: every failure class has at least one row', () => {
    for (const c of FAILURE_CLASSES) expect(ROUTES.some((r) => r.class === c)).toBe(true);
  });

  test('routes: every failure class ends with a catch-all row (no `when`), so the table is total', () => {
    for (const c of FAILURE_CLASSES) {
      const rows = ROUTES.filter((r) => r.class === c);
      expect([c, rows[rows.length - 1]?.when]).toEqual([c, undefined]);
    }
  });

  test('routes: no row is unreachable (no catch-all row precedes another row of its class)', () => {
    ROUTES.forEach((r, i) => {
      const earlierCatchAll = ROUTES.slice(0, i).some((e) => e.class === r.class && e.when === undefined);
      expect([i, earlierCatchAll]).toEqual([i, false]);
    });
  });

  test('routes: every row names a known action and gives a why', () => {
    for (const r of ROUTES) {
      expect(RECOVERY_ACTIONS).toContain(r.action);
      expect(r.why.length).toBeGreaterThan(10);
    }
  });

  test('routes: the table and its rows are frozen', () => {
    expect(Object.isFrozen(ROUTES)).toBe(true);
    for (const r of ROUTES) expect(Object.isFrozen(r)).toBe(true);
  });

  test('routes: the Markdown table has a header, a rule and one line per row', () => {
    const md = routesMarkdown().split('\n');
    expect(md).toHaveLength(ROUTES.length + 2);
    expect(md[0]).toBe('| row | class | when | action | why |');
    expect(md[2]).toBe(
      '| `invalid-arguments` | `invalid_arguments` | otherwise | `repair` | the same arguments fail the same way; only changed arguments can pass |',
    );
    expect(md[3]).toContain('| `transient-wait-too-long` | `transient` | reason ∈ {retry_after_too_long} | `replan` |');
    expect(md[4]).toContain('| `transient-retryable` | `transient` | retryable = true | `retry` |');
  });
});

describe('routes: routeFor (docs/DESIGN.md, "Routes"; docs/DESIGN.md, "Failure classes and the two axes")', () => {
  test.each<[string, Partial<ToolFailure> & Pick<ToolFailure, 'class'>, RecoveryAction, string]>([
    [
      'invalid_arguments (schema)',
      { class: 'invalid_arguments', reason: 'schema', phase: 'preflight' },
      'repair',
      'invalid-arguments',
    ],
    [
      'transient 429, retryable',
      {
        class: 'transient',
        reason: 'rate_limited',
        retryable: true,
        replaySafe: true,
        retryAfterMs: 3000,
        status: 429,
      },
      'retry',
      'transient-retryable',
    ],
    [
      'transient 503, retryable',
      { class: 'transient', reason: 'unavailable', retryable: true, replaySafe: true, status: 503 },
      'retry',
      'transient-retryable',
    ],
    [
      'transient retry_after_too_long (not retryable)',
      { class: 'transient', reason: 'retry_after_too_long', replaySafe: true, retryAfterMs: 120_000 },
      'replan',
      'transient-wait-too-long',
    ],
    [
      'transient circuit_open (not retryable)',
      { class: 'transient', reason: 'circuit_open', replaySafe: true },
      'replan',
      'transient-not-retryable',
    ],
    ['transient, not replay-safe', { class: 'transient', reason: 'network' }, 'replan', 'transient-not-retryable'],
    [
      'authentication credential_expired (401)',
      { class: 'authentication', reason: 'credential_expired', status: 401 },
      'reauth',
      'authentication',
    ],
    [
      'authentication credential_missing',
      { class: 'authentication', reason: 'credential_missing' },
      'reauth',
      'authentication',
    ],
    [
      'authentication refresh_failed (invalid_grant)',
      { class: 'authentication', reason: 'refresh_failed' },
      'escalate',
      'authentication-refresh-failed',
    ],
    [
      'authorization approval_required',
      { class: 'authorization', reason: 'approval_required', status: 403 },
      'request_approval',
      'authorization-approval',
    ],
    ['authorization forbidden', { class: 'authorization', reason: 'forbidden', status: 403 }, 'stop', 'authorization'],
    ['authorization policy_denied', { class: 'authorization', reason: 'policy_denied' }, 'stop', 'authorization'],
    [
      'capability_missing unknown_tool',
      { class: 'capability_missing', reason: 'unknown_tool', phase: 'preflight' },
      'replan',
      'capability-missing',
    ],
    [
      'semantic_rejection 409 conflict',
      { class: 'semantic_rejection', reason: 'conflict', status: 409 },
      'replan',
      'semantic-rejection',
    ],
    [
      'semantic_rejection 404 not_found',
      { class: 'semantic_rejection', reason: 'not_found', status: 404 },
      'replan',
      'semantic-rejection',
    ],
    [
      'outcome_unknown timeout',
      { class: 'outcome_unknown', reason: 'timeout', phase: 'commit_unknown' },
      'reconcile',
      'outcome-unknown',
    ],
    [
      'invalid_result empty 200',
      { class: 'invalid_result', reason: 'schema_violation', phase: 'postcheck', status: 200 },
      'reject',
      'invalid-result',
    ],
    ['unrecoverable tool_bug', { class: 'unrecoverable', reason: 'tool_bug' }, 'escalate', 'unrecoverable'],
  ])('routeFor: %s → %s', (_label, over, action, id) => {
    const route = routeFor(failure(over));
    expect([route.action, route.id]).toEqual([action, id]);
    expect(route.why).toBe(ROUTES.find((r) => r.id === id)?.why);
    expect(Object.isFrozen(route)).toBe(true);
  });

  test('routeFor: a transient failure marked retryable but with reason retry_after_too_long → replan, never retry', () => {
    const f = failure({ class: 'transient', reason: 'retry_after_too_long', retryable: true, replaySafe: true });
    expect(routeFor(f).action).toBe('replan');
  });
});

describe('routes: properties', () => {
  test('routeFor: total over valid ToolFailures — never throws, always a known action', () => {
    fc.assert(
      fc.property(validFailure, (f) => {
        const r = routeFor(f);
        expect(RECOVERY_ACTIONS).toContain(r.action);
        expect(ROUTES.find((row) => row.id === r.id)?.class).toBe(f.class);
      }),
      { numRuns: 500 },
    );
  });

  test('routeFor: only transient, retryable failures are retried (persistent errors are never retried: docs/DESIGN.md, "Failure classes and the two axes")', () => {
    fc.assert(
      fc.property(validFailure, (f) => {
        if (routeFor(f).action === 'retry') {
          expect([f.class, f.retryable, f.replaySafe]).toEqual(['transient', true, true]);
        }
      }),
      { numRuns: 500 },
    );
  });

  test('routeFor: the action depends only on class, reason and retryable', () => {
    const key = fc.record({
      class: fc.constantFrom(...FAILURE_CLASSES) as fc.Arbitrary<FailureClass>,
      reason: fc.constantFrom(...FAILURE_REASONS) as fc.Arbitrary<FailureReason>,
    });
    fc.assert(
      fc.property(key, validFailure, validFailure, (k, a, b) => {
        const fa = {
          ...a,
          ...k,
          phase: k.class === 'outcome_unknown' ? 'commit_unknown' : a.phase,
          retryable: false,
        } as ToolFailure;
        const fb = {
          ...b,
          ...k,
          phase: k.class === 'outcome_unknown' ? 'commit_unknown' : b.phase,
          retryable: false,
        } as ToolFailure;
        expect(routeFor(fa)).toEqual(routeFor(fb));
      }),
    );
  });
});
