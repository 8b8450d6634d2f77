/**
 * The agent workflow's input checks: its options and the state continue-as-new carries. A malformed input fails the
 * run cleanly (`ApplicationFailure` of type `invalid_input`), never the workflow task (a task failure is retried
 * forever: attack review C1). Sandbox-safe.
 */
import type { z as Zod } from 'zod';
import { ApplicationFailure } from '@temporalio/workflow';
import { AGENT_OPTION_BOUNDS, MAX_USER_MESSAGE_CHARS } from './definitions';
import { invalidInput } from './input-errors';
import { plainlyValidAgentOptions } from './plain-input';
import { OBSERVATION_KINDS } from './planner-contract';
import { lazy } from '../recovery/lazy';
import { checkRestoredBudgets } from './router-options';
import { toolPlanInputSchema } from './tool-plan';
import { ApplicationFailureType } from '../recovery/failure-types';

/** Most user messages waiting for the planner; more are dropped (with a worker log line). */
export const MAX_PENDING_USER_MESSAGES = 50;

/** An optional integer in `[min, max]`. */
function bounded(z: typeof Zod, [min, max]: readonly [number, number]) {
  return z.number().int().min(min).max(max).optional();
}

/**
 * The options' shape, checked before anything runs: bad options fail the run cleanly, never the workflow task.
 * Plain options are accepted without it (workflows/plain-input.ts).
 * Built on first use (recovery/lazy.ts).
 */
export const agentOptionsSchema = lazy((z) =>
  toolPlanInputSchema()
    .omit({
      calls: true,
      stopOnTerminal: true,
      failOnTerminal: true,
    })
    .extend({
      maxTurns: bounded(z, AGENT_OPTION_BOUNDS.maxTurns),
      maxInvalidDecisions: bounded(z, AGENT_OPTION_BOUNDS.maxInvalidDecisions),
      planner: z
        .object({
          startToCloseTimeoutMs: bounded(z, AGENT_OPTION_BOUNDS.plannerStartToCloseTimeoutMs),
          maximumAttempts: bounded(z, AGENT_OPTION_BOUNDS.plannerMaximumAttempts),
          taskQueue: z.string().min(1).optional(),
          heartbeatTimeoutMs: bounded(z, AGENT_OPTION_BOUNDS.plannerHeartbeatTimeoutMs),
        })
        .strict()
        .optional(),
      continueAsNewAfterTurns: z.number().int().min(1).optional(),
    })
    .strict(),
);

/** The shape of a continue-as-new carry; the router state's own fields are checked by the budget ledger. */
const agentCarrySchema = lazy((z) =>
  z
    .object({
      router: z.object({ budgets: z.unknown(), records: z.array(z.unknown()) }).passthrough(),
      observations: z.array(z.object({ kind: z.enum(OBSERVATION_KINDS) }).passthrough()),
      turn: z.number().int().min(0),
      invalidDecisionsInARow: z.number().int().min(0),
      pendingUserMessages: z.array(z.string().max(MAX_USER_MESSAGE_CHARS)).max(MAX_PENDING_USER_MESSAGES),
      toolSuccesses: z.record(z.string(), z.number().int().min(0)),
      continuedAsNew: z.number().int().min(0),
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
  if (!plainlyValidAgentOptions(options)) {
    const parsed = agentOptionsSchema().safeParse(options);
    if (!parsed.success) throw invalidInput('agentWorkflow options.', parsed.error);
  }
  if (carried === undefined) return;
  // Set by continue-as-new only; a caller passing a third argument gets a clean failure, not a stuck task (C1).
  const carry = agentCarrySchema().safeParse(carried);
  if (!carry.success) {
    throw invalidInput('agentWorkflow carried.', carry.error, ' (the third argument is set by continue-as-new only)');
  }
  checkRestoredBudgets(carry.data.router.budgets, 'agentWorkflow carried.router.budgets');
}
