/**
 * Pure unit tests of recovery telemetry (recovery/telemetry.ts): no workers, no servers, no clock.
 */
import fc from 'fast-check';
import { FAILURE_CLASSES } from '../../recovery/failure';
import { TerminalState, type RecoveryRecord } from '../../recovery/records';
import { RECOVERY_ACTIONS } from '../../recovery/routes';
import {
  isEscalation,
  isReplan,
  neededRetry,
  retriedThenSucceeded,
  retriesUsed,
  retryBudgetExhausted,
  summarizeRecords,
} from '../../recovery/telemetry';
import { rec, RUN } from './telemetry-records';

describe('summarizeRecords', () => {
  test('a three-turn run: every field, exact', () => {
    expect(summarizeRecords(RUN)).toEqual({
      turns: 3,
      calls: 7,
      replans: {
        total: 4,
        byClass: { semantic_rejection: 1, capability_missing: 1, transient: 1, invalid_result: 1 },
      },
      replanRatePerTurn: {
        semantic_rejection: 1 / 3,
        capability_missing: 1 / 3,
        transient: 1 / 3,
        invalid_result: 1 / 3,
      },
      timeToReplanMs: {
        count: 3,
        meanMs: 700,
        maxMs: 1_200,
        byClass: {
          semantic_rejection: { count: 1, meanMs: 1_200, maxMs: 1_200 },
          capability_missing: { count: 1, meanMs: 300, maxMs: 300 },
          transient: { count: 1, meanMs: 600, maxMs: 600 },
        },
      },
      retryBudget: {
        check_inventory: { calls: 2, dispatched: 2, retriesUsed: 2, meanRetriesUsed: 1, exhausted: 0 },
        book_slot: { calls: 3, dispatched: 3, retriesUsed: 2, meanRetriesUsed: 2 / 3, exhausted: 0 },
        ghost_tool: { calls: 1, dispatched: 0, retriesUsed: 0, meanRetriesUsed: 0, exhausted: 0 },
        get_quote: { calls: 1, dispatched: 1, retriesUsed: 3, meanRetriesUsed: 3, exhausted: 1 },
      },
      retryThenSucceed: { needed: 3, succeeded: 1, rate: 1 / 3 },
      escalations: {
        count: 1,
        calls: [{ tool: 'book_slot', class: 'authentication', callId: 't3:book_slot#0' }],
      },
    });
  });

  test('no records → zeros, empty maps, and a null retry-then-succeed rate', () => {
    expect(summarizeRecords([])).toEqual({
      turns: 0,
      calls: 0,
      replans: { total: 0, byClass: {} },
      replanRatePerTurn: {},
      timeToReplanMs: { count: 0, meanMs: 0, maxMs: 0, byClass: {} },
      retryBudget: {},
      retryThenSucceed: { needed: 0, succeeded: 0, rate: null },
      escalations: { count: 0, calls: [] },
    });
  });

  test('replan rate per turn divides by the highest turn, not by the turns that have records', () => {
    const s = summarizeRecords([
      rec({
        callId: 'a',
        tool: 'book_slot',
        turn: 1,
        class: 'semantic_rejection',
        action: 'replan',
        terminal: 'fed_back',
      }),
      rec({
        callId: 'b',
        tool: 'book_slot',
        turn: 4,
        class: 'semantic_rejection',
        action: 'replan',
        terminal: 'fed_back',
      }),
    ]);
    expect(s.turns).toBe(4);
    expect(s.replanRatePerTurn).toEqual({ semantic_rejection: 0.5 });
  });

  test('a replan at turn 0 (before any turn opened) divides by 1, never by 0', () => {
    const s = summarizeRecords([
      rec({ callId: 'a', tool: 'x', turn: 0, class: 'transient', action: 'replan', terminal: 'fed_back' }),
    ]);
    expect(s.replanRatePerTurn).toEqual({ transient: 1 });
  });

  test('a success on one attempt after time_elapsed evidence (a workflow-side retry) is retry-then-succeed', () => {
    const s = summarizeRecords([rec({ callId: 'a', tool: 'book_slot', turn: 1, evidence: 'time_elapsed' })]);
    expect(s.retryThenSucceed).toEqual({ needed: 1, succeeded: 1, rate: 1 });
    expect(s.retryBudget.book_slot?.retriesUsed).toBe(0);
  });

  test('a transient failure that got no retry (not replay-safe) needed one and did not succeed', () => {
    const s = summarizeRecords([
      rec({ callId: 'a', tool: 'pay', turn: 1, class: 'transient', action: 'replan', terminal: 'fed_back' }),
    ]);
    expect(s.retryThenSucceed).toEqual({ needed: 1, succeeded: 0, rate: 0 });
    expect(s.retryBudget.pay?.exhausted).toBe(0); // 3 retries were left: not exhausted
  });

  test('a tool named __proto__ or constructor is an own data property, not a prototype', () => {
    const s = summarizeRecords([
      rec({ callId: 'a', tool: '__proto__', turn: 1 }),
      rec({ callId: 'b', tool: 'constructor', turn: 1, attempts: 2 }),
    ]);
    expect(Object.getPrototypeOf(s.retryBudget)).toBe(Object.prototype);
    expect(Object.keys(s.retryBudget)).toEqual(['__proto__', 'constructor']);
    expect(Object.getOwnPropertyDescriptor(s.retryBudget, 'constructor')?.value).toMatchObject({ retriesUsed: 1 });
  });

  test('the input is not mutated (frozen records are accepted)', () => {
    const frozen = Object.freeze(RUN.map((r) => Object.freeze({ ...r })));
    const before = JSON.stringify(frozen);
    summarizeRecords(frozen);
    expect(JSON.stringify(frozen)).toBe(before);
  });
});

describe('per-record rules', () => {
  test('retriesUsed: attempts − 1 for a call that dispatched, 0 for one that did not', () => {
    expect(RUN.map(retriesUsed)).toEqual([2, 0, 0, 0, 3, 2, 0]);
  });
  test('isReplan: replan and reject only', () => {
    expect(RUN.map(isReplan)).toEqual([false, true, false, true, true, false, true]);
  });
  test('neededRetry and retriedThenSucceeded', () => {
    expect(RUN.map(neededRetry)).toEqual([true, false, false, false, true, true, false]);
    expect(RUN.map(retriedThenSucceeded)).toEqual([true, false, false, false, false, false, false]);
  });
  test('retryBudgetExhausted: only a transient failure with no retry left', () => {
    expect(RUN.map(retryBudgetExhausted)).toEqual([false, false, false, false, true, false, false]);
    const spentButSucceeded = rec({
      callId: 'a',
      tool: 't',
      turn: 1,
      attempts: 4,
      budgetsLeft: { ...RUN[0]!.budgetsLeft, retries: 0 },
    });
    expect(retryBudgetExhausted(spentButSucceeded)).toBe(false);
  });
  test('isEscalation: action escalate', () => {
    expect(RUN.map(isEscalation)).toEqual([false, false, false, false, false, true, false]);
  });
});

/** Any record the router could write, and some it would not (no class on a routed record). */
const anyRecord: fc.Arbitrary<RecoveryRecord> = fc
  .record({
    callId: fc.constantFrom('t1:book_slot#0', 't2:get_quote#1', 'c'),
    tool: fc.constantFrom('book_slot', 'check_inventory', 'get_quote', '__proto__'),
    turn: fc.nat(6),
    class: fc.option(fc.constantFrom(...FAILURE_CLASSES), { nil: undefined }),
    action: fc.option(fc.constantFrom(...RECOVERY_ACTIONS), { nil: undefined }),
    evidence: fc.option(fc.constantFrom('time_elapsed', 'args_changed', 'credential_refreshed' as const), {
      nil: undefined,
    }),
    attempts: fc.nat(6),
    activities: fc.nat(3),
    retriesLeft: fc.integer({ min: -1, max: 3 }),
    terminal: fc.constantFrom(...Object.values(TerminalState)),
    durationMs: fc.nat(10_000),
    replanLatencyMs: fc.option(fc.nat(60_000), { nil: undefined }),
    replanAfter: fc.constantFrom(...FAILURE_CLASSES),
  })
  .map(({ retriesLeft, replanLatencyMs, replanAfter, ...r }) => {
    const out: RecoveryRecord = {
      callId: r.callId,
      tool: r.tool,
      turn: r.turn,
      attempts: r.attempts,
      activities: r.activities,
      budgetsLeft: { retries: retriesLeft, replans: 1, repairs: 1, runAttempts: 10 },
      terminal: r.terminal,
      durationMs: r.durationMs,
    };
    if (r.class) out.class = r.class;
    if (r.action) out.action = r.action;
    if (r.evidence) out.evidence = r.evidence;
    if (replanLatencyMs !== undefined) Object.assign(out, { replanLatencyMs, replanAfter });
    return out;
  });

describe('summarizeRecords properties', () => {
  test('replans by class sum to the replan/reject records; tool calls sum to the records', () => {
    fc.assert(
      fc.property(fc.array(anyRecord, { maxLength: 40 }), (records) => {
        const s = summarizeRecords(records);
        const byClass = Object.values(s.replans.byClass).reduce((a, b) => a + b, 0);
        const replanRecords = records.filter((r) => r.action === 'replan' || r.action === 'reject').length;
        expect(byClass).toBe(replanRecords);
        expect(s.replans.total).toBe(replanRecords);
        expect(Object.values(s.retryBudget).reduce((a, t) => a + t.calls, 0)).toBe(records.length);
        expect(s.calls).toBe(records.length);
        expect(s.escalations.count).toBe(records.filter((r) => r.action === 'escalate').length);
      }),
    );
  });

  test('bounds: succeeded ≤ needed, rate in [0, 1]; time to replan min ≤ mean ≤ max; retries used ≥ 0', () => {
    fc.assert(
      fc.property(fc.array(anyRecord, { maxLength: 40 }), (records) => {
        const s = summarizeRecords(records);
        expect(s.retryThenSucceed.succeeded).toBeLessThanOrEqual(s.retryThenSucceed.needed);
        if (s.retryThenSucceed.rate !== null) {
          expect(s.retryThenSucceed.rate).toBeGreaterThanOrEqual(0);
          expect(s.retryThenSucceed.rate).toBeLessThanOrEqual(1);
        }
        const latencies = records.flatMap((r) => (r.replanLatencyMs === undefined ? [] : [r.replanLatencyMs]));
        expect(s.timeToReplanMs.count).toBe(latencies.length);
        if (latencies.length > 0) {
          expect(s.timeToReplanMs.meanMs).toBeGreaterThanOrEqual(Math.min(...latencies) - 1e-9);
          expect(s.timeToReplanMs.meanMs).toBeLessThanOrEqual(s.timeToReplanMs.maxMs + 1e-9);
          expect(s.timeToReplanMs.maxMs).toBe(Math.max(...latencies));
        }
        for (const t of Object.values(s.retryBudget)) {
          expect(t.retriesUsed).toBeGreaterThanOrEqual(0);
          expect(t.dispatched).toBeLessThanOrEqual(t.calls);
        }
      }),
    );
  });

  test('counts are additive over concatenation; turns is the larger of the two', () => {
    fc.assert(
      fc.property(fc.array(anyRecord, { maxLength: 20 }), fc.array(anyRecord, { maxLength: 20 }), (a, b) => {
        const [sa, sb, sab] = [summarizeRecords(a), summarizeRecords(b), summarizeRecords([...a, ...b])];
        expect(sab.turns).toBe(Math.max(sa.turns, sb.turns));
        expect(sab.replans.total).toBe(sa.replans.total + sb.replans.total);
        for (const cls of FAILURE_CLASSES) {
          expect(sab.replans.byClass[cls] ?? 0).toBe((sa.replans.byClass[cls] ?? 0) + (sb.replans.byClass[cls] ?? 0));
        }
        expect(sab.retryThenSucceed.needed).toBe(sa.retryThenSucceed.needed + sb.retryThenSucceed.needed);
        expect(sab.escalations.calls).toEqual([...sa.escalations.calls, ...sb.escalations.calls]);
      }),
    );
  });
});
