/**
 * `createToolRouter`'s options, checked before the router is built: a workflow of yours passes them from its own
 * input (`plugin.workflowDefaults()`), so a malformed one — no catalog, a negative budget, a `restore` that is not a
 * router state, a scope list given as a string — fails the run cleanly (`ApplicationFailure` of type
 * `invalid_input`, naming the field) instead of failing its workflow task on every attempt. The plugin's own
 * workflows check their inputs themselves and build the router unchecked. Sandbox-safe.
 */
import { ApplicationFailure } from '@temporalio/workflow';
import { restoreLedger } from '../recovery/budgets';
import { isRecoveryInputError } from '../recovery/errors';
import { ApplicationFailureType } from '../recovery/failure-types';
import { shaped } from '../recovery/shape';
import { invalidInput } from './input-errors';
import { runInputFields } from './input-shapes';
import { routerStateSchema } from './router-state-shape';

const PREFIX = 'createToolRouter options';

/**
 * The options' shape: the fields every run takes (workflows/input-shapes.ts), `restore` (a `router.state()`,
 * workflows/router-state-shape.ts) and `stepBudgetsAcrossTurns`.
 */
export const routerOptionsSchema = shaped((s) =>
  s
    .object({
      ...runInputFields(),
      restore: routerStateSchema().optional(),
      stepBudgetsAcrossTurns: s.boolean().optional(),
    })
    .strict(),
);

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
  const parsed = routerOptionsSchema().safeParse(options);
  if (!parsed.success) throw invalidInput(`${PREFIX}.`, parsed.error);
  const restore = (options as { restore?: { budgets: unknown } }).restore;
  if (restore !== undefined) checkRestoredBudgets(restore.budgets, `${PREFIX}.restore.budgets`);
}

/**
 * A budget ledger carried from an earlier run (`router.state()`, continue-as-new), checked by `restoreLedger`.
 * @param field the field's name in the message, e.g. `agentWorkflow carried.router.budgets`.
 * @throws ApplicationFailure `invalid_input` (non-retryable) naming `field`.
 */
export function checkRestoredBudgets(budgets: unknown, field: string): void {
  try {
    restoreLedger(budgets);
  } catch (err) {
    if (!isRecoveryInputError(err)) throw err;
    throw ApplicationFailure.nonRetryable(`${field}: ${err.message}`, ApplicationFailureType.INVALID_INPUT);
  }
}
