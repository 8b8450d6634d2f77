/**
 * Pure unit tests of the budget ledger (recovery/budgets.ts): no workers, no servers.
 */
import fc from 'fast-check';
import {
  budgetPolicySchema,
  DEFAULT_BUDGET_POLICY,
  restoreLedger,
  spend,
  startCall,
  startRun,
  startTurn,
} from '../../recovery/budgets';
import type { BudgetKind, BudgetLedger } from '../../recovery/budgets';
import { RecoveryInputError } from '../../recovery/errors';

function thrown(fn: () => unknown): RecoveryInputError {
  try {
    fn();
  } catch (e) {
    if (e instanceof RecoveryInputError) return e;
    throw e;
  }
  throw new Error('expected a RecoveryInputError, nothing was thrown');
}

/** Spends `kind` n times, returning every answer. */
function spendN(ledger: BudgetLedger, kind: BudgetKind, n: number, callKey?: string) {
  const answers = [];
  let l = ledger;
  for (let i = 0; i < n; i++) {
    const a = spend(l, kind, callKey);
    answers.push(a);
    l = a.ledger;
  }
  return answers;
}

const opened = (policy = {}) => startCall(startTurn(startRun(policy)), 'step-1');

describe('budgets: policy', () => {
  test('budgets: the defaults are 3 retries per call, 2 replans per turn, 2 repairs per call, 50 attempts per run, 2 unknown-tool turns in a row', () => {
    expect(DEFAULT_BUDGET_POLICY).toEqual({
      perCallRetries: 3,
      perTurnReplans: 2,
      perCallRepairs: 2,
      perRunAttempts: 50,
      consecutiveUnknownToolTurns: 2,
    });
    expect(budgetPolicySchema().parse({})).toEqual(DEFAULT_BUDGET_POLICY);
    expect(Object.isFrozen(DEFAULT_BUDGET_POLICY)).toBe(true);
  });

  test('budgets: a partial policy keeps the other defaults', () => {
    expect(startRun({ perCallRetries: 5 }).policy).toEqual({ ...DEFAULT_BUDGET_POLICY, perCallRetries: 5 });
  });

  test.each<[string, object, string]>([
    [
      'a negative limit',
      { perCallRetries: -1 },
      'startRun: policy.perCallRetries: Too small: expected number to be >=0',
    ],
    [
      'a fractional limit',
      { perTurnReplans: 1.5 },
      'startRun: policy.perTurnReplans: Invalid input: expected int, received number',
    ],
    [
      'zero attempts per run',
      { perRunAttempts: 0 },
      'startRun: policy.perRunAttempts: Too small: expected number to be >=1',
    ],
    ['an unknown key', { perTurnRetries: 3 }, 'startRun: policy: Unrecognized key: "perTurnRetries"'],
  ])('budgets: %s → invalid_policy', (_label, policy, message) => {
    const e = thrown(() => startRun(policy));
    expect([e.code, e.message]).toEqual(['invalid_policy', message]);
  });

  test('budgets: a limit of 0 retries refuses the first retry', () => {
    expect(spend(opened({ perCallRetries: 0 }), 'retry', 'step-1')).toMatchObject({
      allowed: false,
      remaining: 0,
      exhausted: 'per_call_retries',
    });
  });
});

describe('budgets: spending', () => {
  test('budgets: 3 retries per call are allowed (remaining 2, 1, 0), the 4th says per_call_retries (docs/DESIGN.md, "Budgets and escalation")', () => {
    const answers = spendN(opened(), 'retry', 4, 'step-1');
    expect(answers.map((a) => [a.allowed, a.remaining, a.exhausted])).toEqual([
      [true, 2, undefined],
      [true, 1, undefined],
      [true, 0, undefined],
      [false, 0, 'per_call_retries'],
    ]);
    expect(answers[3]?.ledger).toEqual(answers[2]?.ledger);
    expect(answers[3]?.ledger.calls).toEqual([{ key: 'step-1', retries: 3, repairs: 0 }]);
  });

  test('budgets: 2 repairs per call, the 3rd says per_call_repairs (docs/DESIGN.md, "Budgets and escalation")', () => {
    const answers = spendN(opened(), 'repair', 3, 'step-1');
    expect(answers.map((a) => [a.allowed, a.remaining, a.exhausted])).toEqual([
      [true, 1, undefined],
      [true, 0, undefined],
      [false, 0, 'per_call_repairs'],
    ]);
  });

  test('budgets: 2 replans per turn, the 3rd says per_turn_replans (docs/DESIGN.md, "Budgets and escalation")', () => {
    const answers = spendN(startTurn(startRun()), 'replan', 3);
    expect(answers.map((a) => [a.allowed, a.remaining, a.exhausted])).toEqual([
      [true, 1, undefined],
      [true, 0, undefined],
      [false, 0, 'per_turn_replans'],
    ]);
  });

  test('budgets: 50 attempts per run, the 51st says per_run_attempts; attempts need no turn', () => {
    const answers = spendN(startRun(), 'attempt', 51);
    expect(answers[49]).toMatchObject({ allowed: true, remaining: 0 });
    expect(answers[50]).toMatchObject({ allowed: false, remaining: 0, exhausted: 'per_run_attempts' });
  });

  test('budgets: retries are per call — one flaky call does not spend another call’s retries', () => {
    let l = startCall(opened(), 'step-2');
    for (const a of spendN(l, 'retry', 3, 'step-1')) l = a.ledger;
    expect(spend(l, 'retry', 'step-1').exhausted).toBe('per_call_retries');
    expect(spend(l, 'retry', 'step-2')).toMatchObject({ allowed: true, remaining: 2 });
  });

  test('budgets: a new turn resets replans and per-call counters but not run attempts', () => {
    let l = opened();
    l = spend(l, 'replan').ledger;
    l = spend(l, 'replan').ledger;
    l = spend(l, 'attempt').ledger;
    l = spend(l, 'retry', 'step-1').ledger;
    const next = startTurn(l);
    expect(next.turn).toEqual({ index: 2, replans: 0 });
    expect(next.calls).toEqual([]);
    expect(next.run).toEqual({ attempts: 1 });
    expect(spend(next, 'replan')).toMatchObject({ allowed: true, remaining: 1 });
  });

  test('budgets: the kinds are independent counters (a retry does not spend an attempt)', () => {
    const l = spend(opened(), 'retry', 'step-1').ledger;
    expect(l.run.attempts).toBe(0);
    expect(l.turn.replans).toBe(0);
  });
});

describe('budgets: immutability and JSON', () => {
  test('budgets: every ledger is deeply frozen', () => {
    const l = spend(opened(), 'retry', 'step-1').ledger;
    expect([
      Object.isFrozen(l),
      Object.isFrozen(l.policy),
      Object.isFrozen(l.run),
      Object.isFrozen(l.turn),
      Object.isFrozen(l.calls),
      Object.isFrozen(l.calls[0]),
    ]).toEqual([true, true, true, true, true, true]);
  });

  test('budgets: spending never mutates the input ledger', () => {
    const l = opened();
    const before = JSON.stringify(l);
    spend(l, 'retry', 'step-1');
    spend(l, 'replan');
    spend(l, 'attempt');
    startCall(l, 'step-9');
    startTurn(l);
    expect(JSON.stringify(l)).toBe(before);
  });

  test('budgets: a ledger survives a JSON round trip (continue-as-new) with its counters', () => {
    let l = opened();
    l = spend(l, 'retry', 'step-1').ledger;
    l = spend(l, 'replan').ledger;
    const back = restoreLedger(JSON.parse(JSON.stringify(l)));
    expect(back).toEqual(l);
    expect(Object.isFrozen(back.calls[0])).toBe(true);
    expect(spend(back, 'retry', 'step-1')).toMatchObject({ allowed: true, remaining: 1 });
  });

  test('budgets: an unfrozen ledger parsed from JSON can be spent directly', () => {
    const json = JSON.parse(JSON.stringify(opened())) as BudgetLedger;
    expect(spend(json, 'repair', 'step-1')).toMatchObject({ allowed: true, remaining: 1 });
  });

  test('budgets: "__proto__" and "constructor" are ordinary call keys, also after JSON', () => {
    let l = startCall(startCall(startTurn(startRun()), '__proto__'), 'constructor');
    l = restoreLedger(JSON.parse(JSON.stringify(l)));
    expect(spend(l, 'retry', '__proto__')).toMatchObject({ allowed: true, remaining: 2 });
    expect(spend(l, 'retry', 'constructor')).toMatchObject({ allowed: true, remaining: 2 });
    expect(thrown(() => spend(l, 'retry', 'toString')).code).toBe('invalid_state');
  });
});

describe('budgets: misuse is a typed error', () => {
  test.each<[string, () => unknown, string, string]>([
    [
      'startCall before any turn',
      () => startCall(startRun(), 'step-1'),
      'invalid_state',
      'startCall: no turn is open; call startTurn first',
    ],
    [
      'spend replan before any turn',
      () => spend(startRun(), 'replan'),
      'invalid_state',
      'spend: no turn is open; call startTurn first',
    ],
    [
      'startCall twice (would reset the counters)',
      () => startCall(opened(), 'step-1'),
      'invalid_state',
      'startCall: call "step-1" was already started in turn 1; starting it again would reset its budgets',
    ],
    [
      'spend retry on a call never started',
      () => spend(opened(), 'retry', 'step-2'),
      'invalid_state',
      'spend: call "step-2" was not started in turn 1; call startCall first',
    ],
    [
      'spend retry without a callKey',
      () => spend(opened(), 'retry'),
      'invalid_input',
      'spend: callKey must be a non-empty string, not undefined',
    ],
    [
      'spend replan with a callKey',
      () => spend(opened(), 'replan', 'step-1'),
      'invalid_input',
      'spend: replan is counted per turn; do not pass a callKey',
    ],
    [
      'spend attempt with a callKey',
      () => spend(opened(), 'attempt', 'step-1'),
      'invalid_input',
      'spend: attempt is counted per run; do not pass a callKey',
    ],
    [
      'spend an unknown kind',
      () => spend(opened(), 'retries' as BudgetKind),
      'invalid_input',
      'spend: kind must be one of retry, repair, replan, attempt, not "retries"',
    ],
    [
      'startCall with an empty key',
      () => startCall(startTurn(startRun()), ''),
      'invalid_input',
      'startCall: callKey must be a non-empty string, not ""',
    ],
    [
      'restoring a ledger with a negative counter',
      () => restoreLedger({ ...opened(), run: { attempts: -1 } }),
      'invalid_input',
      'restoreLedger: ledger.run.attempts: Too small: expected number to be >=0',
    ],
    [
      'restoring a ledger with duplicate call keys',
      () =>
        restoreLedger({
          ...JSON.parse(JSON.stringify(opened())),
          calls: [
            { key: 'a', retries: 0, repairs: 0 },
            { key: 'a', retries: 1, repairs: 0 },
          ],
        }),
      'invalid_input',
      'restoreLedger: ledger.calls[1].key: duplicate call key "a"',
    ],
    [
      'restoring something that is not a ledger',
      () => restoreLedger('ledger'),
      'invalid_input',
      'restoreLedger: ledger: Invalid input: expected object, received string',
    ],
  ])('budgets: %s → typed error', (_label, fn, code, message) => {
    const e = thrown(fn);
    expect([e.code, e.message]).toEqual([code, message]);
  });
});

describe('budgets: properties', () => {
  const policy = fc.record({
    perCallRetries: fc.nat(6),
    perTurnReplans: fc.nat(6),
    perCallRepairs: fc.nat(6),
    perRunAttempts: fc.integer({ min: 1, max: 8 }),
  });
  const ops = fc.array(
    fc.oneof(
      fc.record({
        op: fc.constant('spend' as const),
        kind: fc.constantFrom<BudgetKind>('retry', 'repair'),
        call: fc.constantFrom('a', 'b'),
      }),
      fc.record({ op: fc.constant('spend' as const), kind: fc.constantFrom<BudgetKind>('replan', 'attempt') }),
      fc.record({ op: fc.constant('turn' as const) }),
    ),
    { maxLength: 60 },
  );

  test('budgets: allowed spends never exceed a limit, and a refusal names the budget that ran out', () => {
    fc.assert(
      fc.property(policy, ops, (p, script) => {
        let l = startCall(startCall(startTurn(startRun(p)), 'a'), 'b');
        let attempts = 0;
        let replans = 0;
        const perCall: Record<string, { retry: number; repair: number }> = {
          a: { retry: 0, repair: 0 },
          b: { retry: 0, repair: 0 },
        };
        for (const step of script) {
          if (step.op === 'turn') {
            l = startCall(startCall(startTurn(l), 'a'), 'b');
            replans = 0;
            perCall.a = { retry: 0, repair: 0 };
            perCall.b = { retry: 0, repair: 0 };
            continue;
          }
          const callKey = 'call' in step ? step.call : undefined;
          const a = spend(l, step.kind, callKey);
          const [used, limit, name] =
            step.kind === 'attempt'
              ? [attempts, p.perRunAttempts, 'per_run_attempts']
              : step.kind === 'replan'
                ? [replans, p.perTurnReplans, 'per_turn_replans']
                : step.kind === 'retry'
                  ? [perCall[callKey as string]!.retry, p.perCallRetries, 'per_call_retries']
                  : [perCall[callKey as string]!.repair, p.perCallRepairs, 'per_call_repairs'];
          expect(a.allowed).toBe(used < limit);
          if (a.allowed) {
            expect(a.remaining).toBe(limit - used - 1);
            if (step.kind === 'attempt') attempts++;
            else if (step.kind === 'replan') replans++;
            else perCall[callKey as string]![step.kind as 'retry' | 'repair']++;
          } else {
            expect([a.remaining, a.exhausted, a.ledger]).toEqual([0, name, l]);
          }
          l = a.ledger;
        }
        expect(l.run.attempts).toBe(attempts);
        expect(l.turn.replans).toBe(replans);
      }),
    );
  });
});

describe('startTurn keepCalls (step ids that outlive a turn: agentWorkflow)', () => {
  test('keepCalls: true carries the per-call counters into the next turn; the replan counter still starts over', () => {
    let l = opened({ perCallRepairs: 2 });
    l = spend(l, 'repair', 'step-1').ledger;
    l = spend(l, 'replan').ledger;
    const next = startTurn(l, { keepCalls: true });
    expect(next.turn).toEqual({ index: 2, replans: 0 });
    expect(next.calls).toEqual([{ key: 'step-1', retries: 0, repairs: 1 }]);
    const second = spend(next, 'repair', 'step-1');
    expect(second.allowed).toBe(true);
    expect(spend(second.ledger, 'repair', 'step-1')).toMatchObject({ allowed: false, exhausted: 'per_call_repairs' });
  });
  test('by default the counters are dropped at the next turn', () => {
    const l = spend(opened(), 'repair', 'step-1').ledger;
    expect(startTurn(l).calls).toEqual([]);
    expect(startTurn(l, { keepCalls: false }).calls).toEqual([]);
  });
});

describe('a carried value whose reads throw is refused where it enters with a RecoveryInputError, not its own error', () => {
  const throwing = {
    get version(): never {
      throw new Error('boom at /srv/app/secret.ts:1:1');
    },
  };
  it.each([
    ['a throwing getter', () => restoreLedger(throwing)],
    [
      'a throwing proxy',
      () =>
        restoreLedger(
          new Proxy(
            {},
            {
              get: () => {
                throw new Error('trap');
              },
            },
          ),
        ),
    ],
  ])('%s', (_label, call) => {
    let caught: unknown;
    try {
      call();
    } catch (e) {
      caught = e;
    }
    expect(RecoveryInputError.is(caught) && [caught.code, caught.message]).toEqual([
      'invalid_input',
      'restoreLedger: ledger: cannot be read (reading it threw)',
    ]);
  });
});
