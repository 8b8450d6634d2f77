/**
 * recovery/budgets.ts validates a ledger where it enters (`restoreLedger`: carried state) and nowhere else (issue 39,
 * "validate at the edges only"). What it builds must be what the edge accepts: random sequences of operations run
 * on the built ledger and on its JSON copy restored give equal ledgers, answers and errors, and every ledger built
 * passes `budgetLedgerSchema()`.
 */
import fc from 'fast-check';
import {
  budgetLedgerSchema,
  restoreLedger,
  spend,
  startCall,
  startRun,
  startTurn,
  type BudgetKind,
  type BudgetLedger,
} from '../../recovery/budgets';

type Op =
  | { op: 'turn'; keepCalls: boolean }
  | { op: 'call'; key: string }
  | { op: 'spend'; kind: BudgetKind; key?: string };

const key = fc.constantFrom('a', 'b', 'c', '__proto__');
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('turn' as const), keepCalls: fc.boolean() }),
  fc.record({ op: fc.constant('call' as const), key }),
  fc.record({ op: fc.constant('spend' as const), kind: fc.constantFrom<BudgetKind>('retry', 'repair'), key }),
  fc.record({ op: fc.constant('spend' as const), kind: fc.constantFrom<BudgetKind>('replan', 'attempt') }),
);

function apply(l: BudgetLedger, o: Op): { ledger: BudgetLedger; answer: unknown } {
  try {
    if (o.op === 'turn') return { ledger: startTurn(l, { keepCalls: o.keepCalls }), answer: 'turn' };
    if (o.op === 'call') return { ledger: startCall(l, o.key), answer: 'call' };
    const r = spend(l, o.kind, o.key);
    return { ledger: r.ledger, answer: { allowed: r.allowed, remaining: r.remaining, exhausted: r.exhausted } };
  } catch (e) {
    return { ledger: l, answer: `error: ${(e as Error).message}` };
  }
}

const copy = (l: BudgetLedger): BudgetLedger => restoreLedger(JSON.parse(JSON.stringify(l)));

test('operations on a built ledger answer as on its restored JSON copy, and every built ledger is valid', () => {
  fc.assert(
    fc.property(fc.nat(3), fc.nat(3), fc.array(op, { maxLength: 40 }), (retries, replans, ops) => {
      let built = startRun({ perCallRetries: retries, perTurnReplans: replans, perCallRepairs: 2, perRunAttempts: 6 });
      for (const o of ops) {
        const fast = apply(built, o);
        const slow = apply(copy(built), o);
        expect(fast.answer).toEqual(slow.answer);
        expect(fast.ledger).toEqual(slow.ledger);
        expect(budgetLedgerSchema().safeParse(fast.ledger).success).toBe(true);
        built = fast.ledger;
      }
    }),
    { numRuns: 500 },
  );
});

test('a forged carried ledger is refused where it enters, naming the field; no operation parses a ledger again', () => {
  const l = startCall(startTurn(startRun()), 'a');
  const forged = { ...JSON.parse(JSON.stringify(l)), run: { attempts: -1 } } as unknown;
  expect(() => restoreLedger(forged)).toThrow(
    'restoreLedger: ledger.run.attempts: Too small: expected number to be >=0',
  );
  const parse = jest.spyOn(budgetLedgerSchema(), 'safeParse');
  try {
    spend(spend(copy(l), 'retry', 'a').ledger, 'attempt');
    expect(parse).toHaveBeenCalledTimes(1); // the copy's restoreLedger, not the two spends
  } finally {
    parse.mockRestore();
  }
});
