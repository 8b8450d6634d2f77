/**
 * The agent workflow's input checks: its options and the state continue-as-new carries. A malformed input fails the
 * run cleanly (`ApplicationFailure` of type `invalid_input`), never the workflow task (a task failure is retried
 * forever: attack review C1). Sandbox-safe.
 */
import { ApplicationFailure } from '@temporalio/workflow';
import { AGENT_OPTION_BOUNDS, MAX_USER_MESSAGE_CHARS } from './definitions';
import { invalidInput } from './input-errors';
import { runInputFields } from './input-shapes';
import { OBSERVATION_KINDS } from './planner-contract';
import { s as shapes, shaped } from '../recovery/shape';
import { checkRestoredBudgets } from './router-options';
import { routerStateSchema } from './router-state-shape';
import { ApplicationFailureType } from '../recovery/failure-types';

/** Most user messages waiting for the planner; more are dropped (with a worker log line). */
export const MAX_PENDING_USER_MESSAGES = 50;

/** An optional integer in `[min, max]`. */
function bounded([min, max]: readonly [number, number]) {
  return shapes.number().int().min(min).max(max).optional();
}

/**
 * The options' shape: the fields every run takes (workflows/input-shapes.ts) and the agent's own, checked before
 * anything runs: bad options fail the run cleanly, never the workflow task. Built on first use (recovery/shape.ts).
 */
export const agentOptionsSchema = shaped((s) =>
  s
    .object({
      ...runInputFields(),
      maxTurns: bounded(AGENT_OPTION_BOUNDS.maxTurns),
      maxInvalidDecisions: bounded(AGENT_OPTION_BOUNDS.maxInvalidDecisions),
      planner: s
        .object({
          startToCloseTimeoutMs: bounded(AGENT_OPTION_BOUNDS.plannerStartToCloseTimeoutMs),
          maximumAttempts: bounded(AGENT_OPTION_BOUNDS.plannerMaximumAttempts),
          taskQueue: s.string().min(1).optional(),
          heartbeatTimeoutMs: bounded(AGENT_OPTION_BOUNDS.plannerHeartbeatTimeoutMs),
        })
        .strict()
        .optional(),
      continueAsNewAfterTurns: s.number().int().min(1).optional(),
      observationWindow: s
        .object({
          maxObservations: bounded(AGENT_OPTION_BOUNDS.observationWindowCount),
          maxChars: bounded(AGENT_OPTION_BOUNDS.observationWindowChars),
        })
        .strict()
        .optional(),
    })
    .strict(),
);

/**
 * The shape of a continue-as-new carry; the router state is checked field by field (workflows/router-state-shape.ts),
 * its budget ledger by starting a turn on it.
 */
const agentCarrySchema = shaped((s) =>
  s
    .object({
      router: routerStateSchema(),
      observations: s.array(s.object({ kind: s.enum(OBSERVATION_KINDS) }).passthrough()),
      omittedObservations: s.number().int().min(0).optional(),
      turn: s.number().int().min(0),
      invalidDecisionsInARow: s.number().int().min(0),
      pendingUserMessages: s.array(s.string().max(MAX_USER_MESSAGE_CHARS)).max(MAX_PENDING_USER_MESSAGES),
      toolSuccesses: s.record(s.string(), s.number().int().min(0)),
      continuedAsNew: s.number().int().min(0),
    })
    .strict(),
);

/**
 * Checks `agentWorkflow`'s arguments.
 * @throws ApplicationFailure `invalid_input` (non-retryable) naming the field.
 */
export function checkInput(goal: unknown, options: unknown, carried: unknown): void {
  if (typeof goal !== 'string' || goal.trim() === '' || goal.length > 8_000) {
    throw ApplicationFailure.nonRetryable(
      'agentWorkflow goal: must be a string of 1 to 8000 characters',
      ApplicationFailureType.INVALID_INPUT,
    );
  }
  const parsed = agentOptionsSchema().safeParse(options);
  if (!parsed.success) throw invalidInput('agentWorkflow options.', parsed.error);
  if (carried === undefined) return;
  // Set by continue-as-new only; a caller passing a third argument gets a clean failure, not a stuck task (C1).
  const carry = agentCarrySchema().safeParse(carried);
  if (!carry.success) {
    throw invalidInput('agentWorkflow carried.', carry.error, ' (the third argument is set by continue-as-new only)');
  }
  checkRestoredBudgets(carry.data.router.budgets, 'agentWorkflow carried.router.budgets');
}
