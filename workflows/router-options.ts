/**
 * `createToolRouter`'s options, checked before the router is built: a workflow of yours passes them from its own
 * input (`plugin.workflowDefaults()`), so a malformed one — no catalog, a negative budget, a `restore` that is not a
 * router state, a scope list given as a string — fails the run cleanly (`ApplicationFailure` of type
 * `invalid_input`, naming the field) instead of failing its workflow task on every attempt. Plain options are
 * accepted without the schema (workflows/plain-input.ts). The plugin's own workflows check their inputs themselves
 * and build the router unchecked. Sandbox-safe.
 */
import { ApplicationFailure } from '@temporalio/workflow';
import { startTurn, type BudgetLedger } from '../recovery/budgets';
import { isRecoveryInputError } from '../recovery/errors';
import { ApplicationFailureType } from '../recovery/failure-types';
import { lazy } from '../recovery/lazy';
import { invalidInput } from './input-errors';
import { plainlyValidRouterOptions } from './plain-input';
import { toolPlanInputSchema } from './tool-plan';

const PREFIX = 'createToolRouter options';

/** The options' shape: `toolPlanWorkflow`'s input without its calls, plus `restore` and `stepBudgetsAcrossTurns`. */
export const routerOptionsSchema = lazy((z) => {
  const counts = z.record(z.string(), z.number().int().min(0));
  return toolPlanInputSchema()
    .omit({ calls: true, stopOnTerminal: true, failOnTerminal: true })
    .extend({
      restore: z
        .object({
          budgets: z.unknown(),
          calls: z.object({ failures: z.record(z.string(), z.unknown()), outcomes: counts }).strict(),
          grants: counts,
          credentialVersions: counts,
          successes: counts,
          records: z.array(z.unknown()),
        })
        .strict()
        .optional(),
      stepBudgetsAcrossTurns: z.boolean().optional(),
    })
    .strict();
});

/**
 * Checks `createToolRouter`'s options.
 * @throws ApplicationFailure `invalid_input` (non-retryable) naming the field.
 */
export function checkRouterOptions(options: unknown): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw ApplicationFailure.nonRetryable(
      `${PREFIX}: must be an object, e.g. { grantedScopes: ['billing'] } (the catalog and policy come from the worker)`,
      ApplicationFailureType.INVALID_INPUT,
    );
  }
  if (!plainlyValidRouterOptions(options)) {
    const parsed = routerOptionsSchema().safeParse(options);
    if (!parsed.success) throw invalidInput(`${PREFIX}.`, parsed.error);
  }
  const restore = (options as { restore?: { budgets: unknown } }).restore;
  if (restore !== undefined) checkRestoredBudgets(restore.budgets, `${PREFIX}.restore.budgets`);
}

/**
 * A budget ledger carried from an earlier run (`router.state()`, continue-as-new), checked by starting a turn on it.
 * @param field the field's name in the message, e.g. `agentWorkflow carried.router.budgets`.
 * @throws ApplicationFailure `invalid_input` (non-retryable) naming `field`.
 */
export function checkRestoredBudgets(budgets: unknown, field: string): void {
  try {
    startTurn(budgets as BudgetLedger);
  } catch (err) {
    if (!isRecoveryInputError(err)) throw err;
    throw ApplicationFailure.nonRetryable(`${field}: ${err.message}`, ApplicationFailureType.INVALID_INPUT);
  }
}
