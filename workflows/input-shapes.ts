/**
 * The fields every run of the router takes from its input (`toolPlanWorkflow`'s input, `agentWorkflow`'s options,
 * `createToolRouter`'s options): the catalog when the input carries one, the caller's scopes, the budget, backoff
 * and per-tool overrides over the worker's policy, the approval timings and the reconcile options. One declaration
 * (recovery/shape.ts), which each input's shape extends. Sandbox-safe.
 */
import { backoffOverrideSchema } from '../recovery/backoff';
import { budgetOverrideSchema } from '../recovery/budgets';
import { shaped } from '../recovery/shape';
import { toolSpecSchema } from '../recovery/tool-spec';

export const runInputFields = shaped((s) => {
  const overrides = { budgets: budgetOverrideSchema().optional(), backoff: backoffOverrideSchema().optional() };
  return {
    catalog: s.array(toolSpecSchema()).optional(),
    grantedScopes: s.array(s.string()).optional(),
    ...overrides,
    approvalTimeoutMs: s.number().int().min(0).optional(),
    approvalHoldMs: s.number().int().min(0).optional(),
    searchAttributes: s.boolean().optional(),
    toolOverrides: s.record(s.string(), s.object(overrides).strict()).optional(),
    reconcile: s
      .object({
        lookupBudget: s.number().int().min(0).optional(),
        replayBudget: s.number().int().min(0).optional(),
        lookupTimeoutMs: s.number().int().min(1).optional(),
        lookupBackoff: backoffOverrideSchema().optional(),
        reviewTimeoutMs: s.number().int().min(0).optional(),
        searchAttributes: s.boolean().optional(),
      })
      .strict()
      .optional(),
  };
});
