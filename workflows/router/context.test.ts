/**
 * The router's context helpers: budgets spent and left, the versions a call runs with, scopes and capabilities.
 * Pure unit tests: no workers, no servers.
 */
import { dedupWrite, routerContext, spec, state } from '../../test/fixtures/router';
import { budgetsLeft, capabilities, permitted, spendUnit, versions } from './context';

describe('spendUnit', () => {
  it('context: a retry within the per-call budget is allowed and the ledger replaced', () => {
    const ctx = routerContext([spec()], { st: state({ perCallRetries: 2 }, ['s1']) });
    const before = ctx.st.budgets;
    expect(spendUnit(ctx, 'retry', 's1')).toEqual({ allowed: true });
    expect(ctx.st.budgets).not.toBe(before);
    expect(ctx.st.budgets.calls).toEqual([{ key: 's1', retries: 1, repairs: 0 }]);
  });

  it('context: the retry past perCallRetries is refused as per_call_retries', () => {
    const ctx = routerContext([spec()], { st: state({ perCallRetries: 1 }, ['s1']) });
    spendUnit(ctx, 'retry', 's1');
    expect(spendUnit(ctx, 'retry', 's1')).toEqual({ allowed: false, exhausted: 'per_call_retries' });
  });

  it('context: a replan is charged to the turn, not a call', () => {
    const ctx = routerContext([spec()], { st: state({ perTurnReplans: 1 }, ['s1']) });
    expect(spendUnit(ctx, 'replan')).toEqual({ allowed: true });
    expect(spendUnit(ctx, 'replan')).toEqual({ allowed: false, exhausted: 'per_turn_replans' });
    expect(ctx.st.budgets.turn.replans).toBe(1);
  });
});

describe('budgetsLeft', () => {
  it('context: what the record shows left — the policy minus what the step, the turn and the run spent', () => {
    const ctx = routerContext([spec()], {
      st: state({ perCallRetries: 3, perCallRepairs: 2, perTurnReplans: 2, perRunAttempts: 10 }, ['s1']),
    });
    spendUnit(ctx, 'retry', 's1');
    spendUnit(ctx, 'repair', 's1');
    spendUnit(ctx, 'replan');
    spendUnit(ctx, 'attempt');
    spendUnit(ctx, 'attempt');
    expect(budgetsLeft(ctx, 's1')).toEqual({ retries: 2, repairs: 1, replans: 1, runAttempts: 8 });
  });

  it('context: a step the ledger does not hold has its whole per-call budgets left', () => {
    const ctx = routerContext([spec()]);
    expect(budgetsLeft(ctx, 'never-started')).toEqual({ retries: 3, repairs: 2, replans: 2, runAttempts: 50 });
  });
});

describe('versions', () => {
  it('context: the tool’s credential version and this exact call’s grant count', () => {
    const ctx = routerContext([dedupWrite()]);
    ctx.st.credentialVersions = { refund: 4 };
    ctx.st.grants = { 'refund|h1': 2 };
    expect(versions(ctx, 'refund', 'h1')).toEqual({ credentialVersion: 4, grantVersion: 2 });
  });

  it('context: a grant of other arguments is not this call’s; an unknown tool is at version 0', () => {
    const ctx = routerContext([dedupWrite()]);
    ctx.st.grants = { 'refund|h1': 2 };
    expect(versions(ctx, 'refund', 'h2')).toEqual({ credentialVersion: 0, grantVersion: 0 });
  });

  it('context: inherited names (toString, __proto__) are not versions', () => {
    const ctx = routerContext([spec()]);
    expect(versions(ctx, 'toString', '__proto__')).toEqual({ credentialVersion: 0, grantVersion: 0 });
  });
});

describe('permitted and capabilities', () => {
  const open = spec({ name: 'get_order' });
  const admin = dedupWrite({ name: 'refund', scope: 'payments:write' });

  it('context: a tool without a scope is open; a scoped one needs its scope granted', () => {
    expect(permitted(routerContext([open, admin]), open)).toBe(true);
    expect(permitted(routerContext([open, admin]), admin)).toBe(false);
    expect(permitted(routerContext([open, admin], { scopes: ['payments:write'] }), admin)).toBe(true);
  });

  it('context: the capabilities a replan shows are the permitted tools, sorted, name, description and schema only', () => {
    const ctx = routerContext([admin, open, spec({ name: 'audit', description: 'Audits.' })]);
    expect(capabilities(ctx)).toEqual([
      { name: 'audit', description: 'Audits.', inputSchema: open.inputSchema },
      { name: 'get_order', description: 'Reads an order.', inputSchema: open.inputSchema },
    ]);
  });
});
