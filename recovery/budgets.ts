/**
 * Recovery budgets: how many retries, repairs, replans and attempts a run may spend before it escalates.
 *
 * Source: docs/DESIGN.md, "Budgets and escalation": 3 retries and 2 repairs per call, 2 replans per turn, then
 * escalate; 50 tool attempts per run (the per-run cap of the AWS Well-Architected Agentic AI Lens); 2 turns in a row
 * that name an unknown tool. The retry budget is per call, not per turn, so one flaky tool cannot eat the turn's
 * budget. Budgets never reset inside their scope: an attempt counter that resets is a bug (docs/DESIGN.md, "Budgets and escalation").
 *
 * The ledger is an immutable, frozen plain object that survives `JSON.stringify`/`JSON.parse`, so a workflow can
 * carry it across continue-as-new. Every function returns a new ledger and never mutates its input.
 * Pure: no I/O, no clock.
 */
import { budgetLedgerSchema, budgetPolicySchema, type BudgetLedger, type BudgetPolicy } from './budget-schemas';
import { parseInput, RecoveryInputError, RecoveryInputErrorCode } from './errors';

export * from './budget-schemas';

/** What a unit of budget is spent on. */
export const BudgetKind = {
  RETRY: 'retry',
  REPLAN: 'replan',
  REPAIR: 'repair',
  ATTEMPT: 'attempt',
} as const;
export type BudgetKind = (typeof BudgetKind)[keyof typeof BudgetKind];

/** Which budget ran out; the caller escalates (docs/DESIGN.md, "Budgets and escalation"). */
export const ExhaustedBudget = {
  PER_CALL_RETRIES: 'per_call_retries',
  PER_TURN_REPLANS: 'per_turn_replans',
  PER_CALL_REPAIRS: 'per_call_repairs',
  PER_RUN_ATTEMPTS: 'per_run_attempts',
  /**
   * `consecutiveUnknownToolTurns` reached. Not spent through `spend`: the router counts the streak (it needs the
   * turn of each `capability_missing` outcome) and reports this value when it ends the run.
   */
  CONSECUTIVE_UNKNOWN_TOOL_TURNS: 'consecutive_unknown_tool_turns',
} as const;
export type ExhaustedBudget = (typeof ExhaustedBudget)[keyof typeof ExhaustedBudget];

/** The budget each kind draws from, its policy field, and its scope. One table. */
const BUDGET_OF: Readonly<
  Record<BudgetKind, { budget: ExhaustedBudget; limit: keyof BudgetPolicy; scope: 'call' | 'turn' | 'run' }>
> = Object.freeze({
  retry: { budget: 'per_call_retries', limit: 'perCallRetries', scope: 'call' },
  repair: { budget: 'per_call_repairs', limit: 'perCallRepairs', scope: 'call' },
  replan: { budget: 'per_turn_replans', limit: 'perTurnReplans', scope: 'turn' },
  attempt: { budget: 'per_run_attempts', limit: 'perRunAttempts', scope: 'run' },
});

/**
 * The answer of `spend`.
 * - `allowed`: the unit was spent; `ledger` is the new ledger. When false, `ledger` equals the input: nothing was spent.
 * - `remaining`: units of that budget left after this answer (0 when refused).
 * - `exhausted`: which budget ran out, present exactly when `allowed` is false.
 */
export type SpendResult = Readonly<{
  ledger: BudgetLedger;
  allowed: boolean;
  remaining: number;
  exhausted?: ExhaustedBudget;
}>;

/**
 * A new ledger for a run: no turn open yet, nothing spent.
 * @param policy budget limits; omitted fields take the defaults (`DEFAULT_BUDGET_POLICY`).
 * @throws RecoveryInputError `invalid_policy` when a limit is not an integer ≥ 0 (`perRunAttempts` ≥ 1) or a key is unknown.
 */
export function startRun(policy: Partial<BudgetPolicy> = {}): BudgetLedger {
  const p = parseInput(budgetPolicySchema(), policy, 'startRun: policy', RecoveryInputErrorCode.INVALID_POLICY);
  return freezeLedger({ version: 1, policy: p, run: { attempts: 0 }, turn: { index: 0, replans: 0 }, calls: [] });
}

/**
 * Opens the next turn: the replan counter starts at 0. By default the previous turn's per-call counters are dropped
 * (call keys belong to a turn; this also keeps the ledger small across a long run). With `keepCalls: true` they
 * carry on: for call keys that outlive a turn (an agent's step ids), so a call repaired in one turn has fewer
 * repairs left in the next — otherwise a planner repeating a bad call once per turn would never run out (attack
 * review B1). Run attempts always carry on.
 * @param ledger one this module built, or one `restoreLedger` checked (validated at the edges only: issue 39).
 */
export function startTurn(l: BudgetLedger, options: { keepCalls?: boolean } = {}): BudgetLedger {
  // The next index must stay a safe integer, as the schema requires of every ledger.
  if (l.turn.index >= Number.MAX_SAFE_INTEGER) {
    throw new RecoveryInputError(RecoveryInputErrorCode.INVALID_STATE, 'startTurn: the turn index is exhausted');
  }
  return freezeLedger({
    ...l,
    turn: { index: l.turn.index + 1, replans: 0 },
    calls: options.keepCalls === true ? l.calls : [],
  });
}

/**
 * Registers a call in the current turn with no retries or repairs spent. Use a key stable across the call's
 * repairs and retries (e.g. the workflow's step id), not the model's per-message call id.
 * @throws RecoveryInputError `invalid_state` when no turn is open, or the key was already started in this turn
 *   (restarting would reset its counters). `invalid_input` when `callKey` is empty.
 */
export function startCall(l: BudgetLedger, callKey: string): BudgetLedger {
  const key = readCallKey(callKey, 'startCall');
  if (l.turn.index === 0) throw noTurn('startCall');
  if (l.calls.some((c) => c.key === key)) {
    throw new RecoveryInputError(
      RecoveryInputErrorCode.INVALID_STATE,
      `startCall: call ${JSON.stringify(key)} was already started in turn ${l.turn.index}; starting it again would reset its budgets`,
    );
  }
  return freezeLedger({ ...l, calls: [...l.calls, { key, retries: 0, repairs: 0 }] });
}

/**
 * Spends one unit of a budget.
 * - `retry`, `repair`: per call; `callKey` is required and must have been started (`startCall`).
 * - `replan`: per turn; `attempt`: per run (every dispatch, first or retry). `callKey` must be omitted.
 *
 * The kinds are independent counters: a retry that dispatches spends `retry` and `attempt`.
 * @returns `{ ledger, allowed: true, remaining }` when a unit was left, else `{ ledger, allowed: false,
 *   remaining: 0, exhausted }` with a ledger equal to the input (nothing spent) and `exhausted` naming the budget that ran out.
 * @throws RecoveryInputError `invalid_state` when the call or turn was not started; `invalid_input` for an
 *   unknown kind, a missing or superfluous `callKey`.
 */
export function spend(l: BudgetLedger, kind: BudgetKind, callKey?: string): SpendResult {
  const row = Object.hasOwn(BUDGET_OF, kind) ? BUDGET_OF[kind] : undefined;
  if (row === undefined) {
    throw new RecoveryInputError(
      RecoveryInputErrorCode.INVALID_INPUT,
      `spend: kind must be one of ${Object.keys(BUDGET_OF).join(', ')}, not ${JSON.stringify(kind)}`,
    );
  }
  const limit = l.policy[row.limit];

  if (row.scope !== 'call' && callKey !== undefined) {
    throw new RecoveryInputError(
      RecoveryInputErrorCode.INVALID_INPUT,
      `spend: ${kind} is counted per ${row.scope}; do not pass a callKey`,
    );
  }
  if (row.scope !== 'run' && l.turn.index === 0) throw noTurn('spend');

  let used: number;
  let next: (n: number) => BudgetLedger;
  if (row.scope === 'call') {
    const key = readCallKey(callKey, 'spend');
    const counters = l.calls.find((c) => c.key === key);
    if (counters === undefined) {
      throw new RecoveryInputError(
        RecoveryInputErrorCode.INVALID_STATE,
        `spend: call ${JSON.stringify(key)} was not started in turn ${l.turn.index}; call startCall first`,
      );
    }
    const field = kind === 'retry' ? 'retries' : 'repairs';
    used = counters[field];
    next = (n) => freezeLedger({ ...l, calls: l.calls.map((c) => (c.key === key ? { ...c, [field]: n } : c)) });
  } else if (row.scope === 'turn') {
    used = l.turn.replans;
    next = (n) => freezeLedger({ ...l, turn: { ...l.turn, replans: n } });
  } else {
    used = l.run.attempts;
    next = (n) => freezeLedger({ ...l, run: { attempts: n } });
  }

  if (used >= limit) return Object.freeze({ ledger: l, allowed: false, remaining: 0, exhausted: row.budget });
  return Object.freeze({ ledger: next(used + 1), allowed: true, remaining: limit - used - 1 });
}

/**
 * Validates a ledger that came back from JSON (carried state: continue-as-new input, `router.state()`) and returns
 * it frozen: the one edge where a ledger enters; the functions above take the typed ledgers this module builds.
 * @throws RecoveryInputError `invalid_input` naming the first bad field.
 */
export function restoreLedger(json: unknown): BudgetLedger {
  return freezeLedger(parseInput(budgetLedgerSchema(), json, 'restoreLedger: ledger'));
}

function readCallKey(callKey: unknown, fn: string): string {
  if (typeof callKey !== 'string' || callKey === '') {
    throw new RecoveryInputError(
      RecoveryInputErrorCode.INVALID_INPUT,
      `${fn}: callKey must be a non-empty string, not ${callKey === undefined ? 'undefined' : JSON.stringify(callKey)}`,
    );
  }
  return callKey;
}

function noTurn(fn: string): RecoveryInputError {
  return new RecoveryInputError(RecoveryInputErrorCode.INVALID_STATE, `${fn}: no turn is open; call startTurn first`);
}

/**
 * A new, deeply frozen ledger from plain parts (copies every level, so no input is shared or mutated), remembered as
 * built here. Only for parts that are valid: a parsed ledger, or one this module changed by the rules above (counters
 * below their limits, a new non-empty unique key, the next turn index).
 */
function freezeLedger(l: BudgetLedger): BudgetLedger {
  const built = Object.freeze({
    version: 1 as const,
    policy: Object.freeze({ ...l.policy }),
    run: Object.freeze({ ...l.run }),
    turn: Object.freeze({ ...l.turn }),
    calls: Object.freeze(l.calls.map((c) => Object.freeze({ ...c }))),
  });
  return built;
}
