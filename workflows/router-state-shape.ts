/**
 * The shape of a router state handed to a new run (`router.state()`, workflows/tool-router-types.ts): the `restore`
 * of `createToolRouter` and the `router` of `agentWorkflow`'s carried state. Every field the router reads is checked
 * here, where the state enters, so a forged or damaged state fails the run as `invalid_input` naming the field
 * instead of throwing later inside a call (a throw in workflow code fails the workflow task again and again). The
 * budget ledger is checked by starting a turn on it (`checkRestoredBudgets`, workflows/router-options.ts).
 * Sandbox-safe; built on first use (recovery/shape.ts).
 */
import { FAILURE_CLASSES } from '../recovery/failure';
import { attemptRecordSchema } from '../recovery/gate-records';
import { shaped } from '../recovery/shape';

/**
 * `ToolRouterState` as JSON: the optional fields are those a state saved before them lacks. Keys it does not name are
 * let through, as the agent's carry always let them: a state from a newer worker still restores on an older one.
 */
export const routerStateSchema = shaped((s) => {
  const count = s.number().int().min(0);
  const counts = s.record(s.string(), count);
  return s
    .object({
      budgets: s.unknown(),
      // The gate parses each entry it reads with the same schema (recovery/gate.ts `allowNextAttempt`).
      calls: s.object({ failures: s.record(s.string(), attemptRecordSchema()), outcomes: counts }).strict(),
      grants: counts,
      credentialVersions: counts,
      successes: counts,
      records: s.array(s.unknown()),
      recordsOmitted: count.optional(),
      unknownToolTurns: s.object({ count, lastTurn: count }).strict().optional(),
      stepArgs: s.record(s.string(), s.array(s.string())).optional(),
      intent: s.string().max(256).optional(),
      reconciling: s.array(s.string()).max(1_000).optional(),
      pendingReplan: s
        .object({ atMs: count, class: s.enum(FAILURE_CLASSES) })
        .strict()
        .optional(),
    })
    .passthrough();
});
