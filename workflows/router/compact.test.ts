/**
 * compactRouterState: what continue-as-new carries of a router's state. Pure unit tests: no workers, no servers.
 */
import { spend } from '../../recovery/budgets';
import { recordFailure, recordOutcome } from '../../recovery/call-ledger';
import { argsHash } from '../../recovery/canonical';
import type { RecoveryRecord } from '../../recovery/records';
import { failure, state } from '../../test/fixtures/router';
import { compactRouterState, MAX_CARRIED_RECORDS, MAX_LEDGER_ENTRIES } from './compact';

const record = (i: number) => ({ callId: `c${i}` }) as RecoveryRecord;

describe('compactRouterState', () => {
  it('compact: a closed step’s counters and operation ids are dropped, an open spent step’s kept', () => {
    const st = state({}, ['open', 'closed', 'idle']);
    st.budgets = spend(spend(st.budgets, 'retry', 'open').ledger, 'retry', 'closed').ledger;
    st.stepArgs = { open: ['h1'], closed: ['h2'] };
    const out = compactRouterState(st, (id) => id === 'closed');
    expect(out.budgets.calls).toEqual([{ key: 'open', retries: 1, repairs: 0 }]);
    expect(out.stepArgs).toEqual({ open: ['h1'] });
  });

  it('compact: a step that spent nothing but holds an operation id is kept (its key is still read)', () => {
    const st = state({}, ['keyed', 'unknown_tool']);
    st.stepArgs = { keyed: ['h1'] };
    expect(compactRouterState(st).budgets.calls.map((c) => c.key)).toEqual(['keyed']);
  });

  it('compact: only the current turn’s success counters are carried', () => {
    const st = state();
    st.successes = { 't0:get_order': 4, 't1:get_order': 2, 't1:refund': 1, 't10:x': 9 };
    expect(compactRouterState(st).successes).toEqual({ 't1:get_order': 2, 't1:refund': 1 });
  });

  it(`compact: the gate’s ledgers keep their newest ${MAX_LEDGER_ENTRIES} entries each, in order`, () => {
    const st = state();
    for (let i = 0; i < MAX_LEDGER_ENTRIES + 3; i++) {
      const h = argsHash({ i });
      st.calls = recordFailure(st.calls, {
        tool: 't',
        argsHash: h,
        credentialVersion: 0,
        failure: failure(),
        endedAtMs: 1_000,
      });
      st.calls = recordOutcome(st.calls, 't', h, 'd').ledger;
    }
    const out = compactRouterState(st);
    const failures = Object.keys(out.calls.failures);
    expect(failures).toHaveLength(MAX_LEDGER_ENTRIES);
    expect(Object.keys(out.calls.outcomes)).toHaveLength(MAX_LEDGER_ENTRIES);
    expect(failures[0]).toBe(`t\u0000${argsHash({ i: 3 })}`);
    expect(failures.at(-1)).toBe(`t\u0000${argsHash({ i: MAX_LEDGER_ENTRIES + 2 })}`);
  });

  it(`compact: records beyond the newest ${MAX_CARRIED_RECORDS} are counted in recordsOmitted, added to earlier ones`, () => {
    const st = { ...state(), recordsOmitted: 7 };
    st.records = Array.from({ length: MAX_CARRIED_RECORDS + 5 }, (_, i) => record(i));
    const out = compactRouterState(st);
    expect(out.records).toHaveLength(MAX_CARRIED_RECORDS);
    expect(out.records[0]!.callId).toBe('c5');
    expect(out.recordsOmitted).toBe(12);
  });

  it('compact: under the bounds nothing is omitted, and grants, versions and the pending replan pass as they are', () => {
    const st = { ...state({}, ['s1']), grants: { 'refund|h': 1 }, credentialVersions: { refund: 3 } };
    st.budgets = spend(st.budgets, 'retry', 's1').ledger;
    st.pendingReplan = { atMs: 5, class: 'semantic_rejection' as const };
    st.records = [record(1)];
    const out = compactRouterState(st);
    expect(out.recordsOmitted).toBeUndefined();
    expect(out.records).toEqual([record(1)]);
    expect(out.grants).toEqual({ 'refund|h': 1 });
    expect(out.credentialVersions).toEqual({ refund: 3 });
    expect(out.pendingReplan).toEqual({ atMs: 5, class: 'semantic_rejection' });
    expect(out.budgets.run).toEqual(st.budgets.run);
    expect(out.stepArgs).toBeUndefined();
  });

  it('compact: the state it is given is not changed', () => {
    const st = state({}, ['s1', 's2']);
    st.records = Array.from({ length: MAX_CARRIED_RECORDS + 1 }, (_, i) => record(i));
    compactRouterState(st, () => true);
    expect(st.records).toHaveLength(MAX_CARRIED_RECORDS + 1);
    expect(st.budgets.calls.map((c) => c.key)).toEqual(['s1', 's2']);
  });

  it('compact: a step id such as __proto__ stays a key of stepArgs', () => {
    const st = state({}, ['__proto__']);
    st.stepArgs = Object.fromEntries([['__proto__', ['h1']]]);
    const out = compactRouterState(st);
    expect(Object.keys(out.stepArgs!)).toEqual(['__proto__']);
    expect(out.budgets.calls.map((c) => c.key)).toEqual(['__proto__']);
  });
});
