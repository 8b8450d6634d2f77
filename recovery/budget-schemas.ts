/**
 * The budget policy and ledger shapes (recovery/budgets.ts spends them): shapes built on first use (recovery/shape.ts),
 * the design's defaults, and the ledger type. Pure: no I/O.
 */
import { s as shapes, shaped, type Infer } from './shape';

const count = (def: number) => shapes.number().int().min(0).default(def);

/**
 * Most `perCallRetries`: a replay-safe call's activity gets `maximumAttempts: 1 + perCallRetries`
 * (recovery/activity-options.ts), and Temporal's `RetryPolicy.maximumAttempts` is an int32 (temporal.api.common.v1);
 * a larger value made the server refuse the workflow task's ScheduleActivityTask command on every attempt
 * ("MaximumAttempts cannot be negative"), so the run never ended.
 */
export const MAX_PER_CALL_RETRIES = 2_147_483_646;

/**
 * Budget limits. Read from `temporal.config.json` (`budgets`); every field is optional there and defaults as below.
 * - `perCallRetries`: retries of one call after transient failures (the first attempt is not a retry), at most
 *   `MAX_PER_CALL_RETRIES`. @default 3
 * - `perTurnReplans`: replans in one turn (capability missing, semantic rejection, exhausted repairs). @default 2
 * - `perCallRepairs`: repairs of one call's arguments after `invalid_arguments`. @default 2
 * - `perRunAttempts`: tool dispatches in the whole run, first attempts and retries alike. ≥ 1. @default 50
 * - `consecutiveUnknownToolTurns`: turns in a row in which the model named a tool it cannot use (unknown, or not
 *   granted: class `capability_missing`) before the run stops; the turn that reaches it ends the run. A call to an
 *   available tool starts the count again. ≥ 1. @default 2 (docs/DESIGN.md, "Budgets and escalation")
 */
export const budgetPolicySchema = shaped((s) =>
  s
    .object({
      perCallRetries: s
        .number()
        .int()
        .min(0)
        .max(MAX_PER_CALL_RETRIES, `must be at most ${MAX_PER_CALL_RETRIES} (Temporal's maximumAttempts is an int32)`)
        .default(3),
      perTurnReplans: count(2),
      perCallRepairs: count(2),
      perRunAttempts: s.number().int().min(1).default(50),
      consecutiveUnknownToolTurns: s.number().int().min(1).default(2),
    })
    .strict(),
);
/**
 * The budgets (docs/DESIGN.md, "Budgets and escalation"): retries and repairs per call, replans per turn,
 * attempts per run, unknown-tool turns in a row.
 */
export type BudgetPolicy = Infer<ReturnType<typeof budgetPolicySchema>>;

/** A partial budget policy (a per-tool override, `temporal.config.json` `tools.<name>.budgets`). Built on first use. */
export const budgetOverrideSchema = shaped(() => budgetPolicySchema().partial());

/**
 * The design's defaults: 3 retries per call, 2 replans per turn, 2 repairs per call, 50 attempts per run, and 2
 * unknown-tool turns in a row.
 */
export const DEFAULT_BUDGET_POLICY: Readonly<BudgetPolicy> = Object.freeze({
  perCallRetries: 3,
  perTurnReplans: 2,
  perCallRepairs: 2,
  perRunAttempts: 50,
  consecutiveUnknownToolTurns: 2,
});

const callCountersSchema = shaped((s) =>
  s.object({ key: s.string().min(1), retries: s.number().int().min(0), repairs: s.number().int().min(0) }).strict(),
);

/**
 * The ledger's shape, for restoring one from JSON (`restoreLedger`).
 * - `turn.index`: 0 before the first `startTurn`, then 1, 2, ...
 * - `calls`: per-call counters of the current turn, in start order, one entry per call key. A list rather than
 *   a record so that any string is a safe key (`"__proto__"` included) after a JSON round trip.
 */
export const budgetLedgerSchema = shaped((s) =>
  s
    .object({
      version: s.literal(1),
      policy: budgetPolicySchema(),
      run: s.object({ attempts: s.number().int().min(0) }).strict(),
      turn: s.object({ index: s.number().int().min(0), replans: s.number().int().min(0) }).strict(),
      calls: s.array(callCountersSchema()),
    })
    .strict()
    .superRefine((l, ctx) => {
      const seen = new Set<string>();
      l.calls.forEach((c, i) => {
        if (seen.has(c.key))
          ctx.addIssue({ path: ['calls', i, 'key'], message: `duplicate call key ${JSON.stringify(c.key)}` });
        seen.add(c.key);
      });
    }),
);

/** Counters of one call. */
export type CallCounters = Readonly<{ key: string; retries: number; repairs: number }>;

/** An immutable budget ledger. Plain JSON: carry it across continue-as-new and `restoreLedger` it. */
export type BudgetLedger = Readonly<{
  version: 1;
  policy: Readonly<BudgetPolicy>;
  run: Readonly<{ attempts: number }>;
  turn: Readonly<{ index: number; replans: number }>;
  calls: readonly CallCounters[];
}>;
