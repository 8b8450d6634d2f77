/**
 * What a long agent keeps: the observation window (workflows/agent-window.ts) and the router state continue-as-new
 * carries (workflows/router/compact.ts). docs/DESIGN.md, "Long-lived agents".
 */
import { DEFAULT_OBSERVATION_WINDOW, trimObservations } from '../../workflows/agent-window';
import type { Observation } from '../../workflows/planner-contract';
import { compactRouterState, MAX_CARRIED_RECORDS, MAX_LEDGER_ENTRIES } from '../../workflows/router/compact';
import type { ToolRouterState } from '../../workflows/tool-router-types';
import type { RecoveryRecord } from '../../recovery/records';

const result = (i: number, value: unknown = { n: i }): Observation => ({
  kind: 'tool_result',
  callId: `c${i}`,
  tool: 'check_inventory',
  args: { sku: `SKU-${i}` },
  value,
  empty: false,
  turn: 1,
});

describe('trimObservations', () => {
  test('keeps the newest maxObservations, in order, and says how many it dropped', () => {
    const obs = Array.from({ length: 12 }, (_, i) => result(i));
    expect(trimObservations(obs, { maxObservations: 5 })).toBe(7);
    expect(obs.map((o) => (o.kind === 'tool_result' ? o.callId : ''))).toEqual(['c7', 'c8', 'c9', 'c10', 'c11']);
    expect(trimObservations(obs, { maxObservations: 5 })).toBe(0);
  });

  test('keeps the newest that fit maxChars (each observation JSON + 1), never fewer than one', () => {
    const big = (i: number) => result(i, 'x'.repeat(40_000));
    const size = JSON.stringify(big(0)).length + 1;
    const obs = [big(0), big(1), big(2), big(3)];
    expect(trimObservations(obs, { maxChars: 2 * size })).toBe(2);
    expect(obs.map((o) => (o.kind === 'tool_result' ? o.callId : ''))).toEqual(['c2', 'c3']);
    const one = [result(0, 'y'.repeat(150_000))];
    expect(trimObservations(one, { maxChars: 100_000 })).toBe(0);
    expect(one).toHaveLength(1);
  });

  test('the defaults: 200 observations, 400,000 characters', () => {
    expect(DEFAULT_OBSERVATION_WINDOW).toEqual({ maxObservations: 200, maxChars: 400_000 });
    const obs = Array.from({ length: 250 }, (_, i) => result(i));
    expect(trimObservations(obs, undefined)).toBe(50);
    expect(obs).toHaveLength(200);
  });
});

function record(i: number): RecoveryRecord {
  const budgetsLeft = { retries: 3, repairs: 2, replans: 3, runAttempts: 100 };
  return {
    callId: `c${i}`,
    tool: 't',
    turn: 1,
    attempts: 1,
    activities: 1,
    budgetsLeft,
    terminal: 'succeeded',
    durationMs: 1,
  };
}

function state(records: number, ledger: number): ToolRouterState {
  const failures = Object.fromEntries(Array.from({ length: ledger }, (_, i) => [`t\u0000h${i}`, { n: i }]));
  const outcomes = Object.fromEntries(Array.from({ length: ledger }, (_, i) => [`t\u0000h${i}\u0000o`, 1]));
  return {
    budgets: {
      version: 1,
      policy: {
        perCallRetries: 3,
        perCallRepairs: 2,
        perTurnReplans: 3,
        perRunAttempts: 100,
        consecutiveUnknownToolTurns: 3,
      },
      run: { attempts: 5 },
      turn: { index: 7, replans: 1 },
      calls: [
        { key: 'pay#0', retries: 0, repairs: 0 },
        { key: 'pay#1', retries: 1, repairs: 0 },
        { key: 'read#4', retries: 0, repairs: 1 },
        { key: 'custom-step', retries: 2, repairs: 0 },
      ],
    },
    calls: { failures, outcomes } as unknown as ToolRouterState['calls'],
    grants: { pay: 1 },
    credentialVersions: { pay: 2 },
    successes: { 't6:pay': 3, 't7:pay': 1, 't7:read': 2 },
    records: Array.from({ length: records }, (_, i) => record(i)),
    stepArgs: { 'pay#0': ['a'], 'pay#1': ['b', 'c'], 'read#4': ['d'], 'custom-step': ['e'], '__proto__#0': ['f'] },
  };
}

describe('compactRouterState', () => {
  const closed = (id: string) => id === 'pay#0' || id === '__proto__#0';

  test('drops closed steps, keeps the current turn, the newest ledger entries and records; keeps the rest as is', () => {
    const input = state(MAX_CARRIED_RECORDS + 30, MAX_LEDGER_ENTRIES + 7);
    const before = JSON.stringify(input);
    const out = compactRouterState(input, closed);
    expect(JSON.stringify(input)).toBe(before); // the input is not changed
    expect(out.budgets.calls.map((c) => c.key)).toEqual(['pay#1', 'read#4', 'custom-step']);
    expect(out.budgets.run).toEqual({ attempts: 5 });
    expect(out.budgets.turn).toEqual({ index: 7, replans: 1 });
    expect(out.stepArgs).toEqual({ 'pay#1': ['b', 'c'], 'read#4': ['d'], 'custom-step': ['e'] });
    expect(out.successes).toEqual({ 't7:pay': 1, 't7:read': 2 });
    expect(Object.keys(out.calls.failures)).toHaveLength(MAX_LEDGER_ENTRIES);
    expect(Object.keys(out.calls.failures)[0]).toBe('t\u0000h7');
    expect(Object.keys(out.calls.outcomes).at(-1)).toBe(`t\u0000h${MAX_LEDGER_ENTRIES + 6}\u0000o`);
    expect(out.records).toHaveLength(MAX_CARRIED_RECORDS);
    expect(out.records[0]!.callId).toBe('c30');
    expect(out.recordsOmitted).toBe(30);
    expect([out.grants, out.credentialVersions]).toEqual([{ pay: 1 }, { pay: 2 }]);
  });

  test('omitted records add up across runs; a small state is only copied', () => {
    const first = compactRouterState(state(MAX_CARRIED_RECORDS + 5, 3), closed);
    const second = compactRouterState({ ...first, records: [...first.records, record(999)] }, closed);
    expect(second.recordsOmitted).toBe(6);
    const small = state(3, 3);
    const out = compactRouterState(small);
    expect(out).toEqual({ ...small, successes: { 't7:pay': 1, 't7:read': 2 } });
    expect(out.recordsOmitted).toBeUndefined();
  });
});
