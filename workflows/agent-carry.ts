/**
 * What a long agent keeps from one planner step to the next and from one run to the next (docs/DESIGN.md,
 * "Long-lived agents"): the observation window before each planner step, and continue-as-new with the router's state
 * compacted. Sandbox-safe: imports only `@temporalio/workflow`, the pure core and types.
 */
import { allHandlersFinished, condition, continueAsNew, patched } from '@temporalio/workflow';
import type { AgentRun, Ending } from './agent-run';
import { AgentStatus, MAX_CARRIED_CHARS, type AgentCarry, type AgentOptions, type AgentResult } from './agent-types';
import { BOUNDED_CARRY_PATCH, overWindow, trimObservations, type ObservationWindow } from './agent-window';
import { compactRouterState } from './router/compact';
import { chainIntent } from './router/intent';
import { own } from './router-helpers';
import type { ToolRouter } from './tool-router';

/**
 * Drops the observations outside `window` before a planner step (workflows/agent-window.ts); a history recorded
 * before the window (no `BOUNDED_CARRY_PATCH` marker) keeps them all. `patched` is asked only when something would be
 * dropped, so a short run writes no marker.
 */
export function applyWindow(run: AgentRun, window: ObservationWindow | undefined): void {
  const over = overWindow(run.observations, window);
  if (over === 0 || !patched(BOUNDED_CARRY_PATCH)) return;
  run.observations.splice(0, over);
  run.omittedObservations += over;
}

/**
 * Continues as new once every handler finished, with the router's state and the run's; escalates instead when
 * that state is over `MAX_CARRIED_CHARS` characters of JSON.
 */
export async function continueOrEscalate(
  run: AgentRun,
  router: ToolRouter,
  options: AgentOptions,
  end: (result: Ending) => AgentResult,
): Promise<AgentResult> {
  await condition(allHandlersFinished);
  const bounded = patched(BOUNDED_CARRY_PATCH);
  if (bounded) run.omittedObservations += trimObservations(run.observations, options.observationWindow);
  const state = router.state();
  chainIntent(state); // the next run keys its writes for this chain's intent (workflows/router/intent.ts)
  const carry: AgentCarry = {
    router: bounded ? compactRouterState(state, closedStep(run.toolSuccesses)) : state,
    observations: run.observations,
    ...(run.omittedObservations > 0 ? { omittedObservations: run.omittedObservations } : {}),
    turn: run.turn,
    invalidDecisionsInARow: run.invalidInARow,
    pendingUserMessages: run.pendingUserMessages,
    toolSuccesses: run.toolSuccesses,
    continuedAsNew: run.continuedAsNew + 1,
  };
  const size = JSON.stringify(carry).length;
  if (size > MAX_CARRIED_CHARS) {
    return end({
      status: AgentStatus.ESCALATED,
      reason: `The run's state is too large to continue (${size} characters of JSON); a person must take over.`,
    });
  }
  type AgentWorkflow = (goal: string, options: AgentOptions, carried?: AgentCarry) => Promise<AgentResult>;
  return await continueAsNew<AgentWorkflow>(run.goal, options, carry);
}

/**
 * Whether an agent's step is closed: its ids are `<tool>#<n>`, n the tool's successes before it (startCall), so a
 * step whose n is below the tool's successes so far succeeded and is never called again; its budgets and operation
 * ids need not be carried. Any other id is open.
 */
export function closedStep(toolSuccesses: Record<string, number>): (stepId: string) => boolean {
  return (stepId) => {
    const at = stepId.lastIndexOf('#');
    const n = at < 0 ? NaN : Number(stepId.slice(at + 1));
    return Number.isInteger(n) && n < own(toolSuccesses, stepId.slice(0, at));
  };
}
