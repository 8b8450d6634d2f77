/**
 * `agentWorkflow(goal, options)`: a long-lived agent run. Each turn the planner activity (a script or a model)
 * chooses the next step from the goal, the permission-filtered capabilities and the observations so far; its tool
 * calls run through the router (`callTool`), and their answers become the next observations:
 *
 *   planner ─tool_calls→ callTool … callTool ─observations→ planner ─submit→ done
 *
 * How a run ends (`AgentResult.status`):
 * - `submitted`: the planner called the structured `submit` tool; `result` is its value. The only success.
 * - `no_submission`: the planner stopped without submitting (it gave up, or said it is done without delivering).
 *   Never a success (issue 5: "A planner that stops without calling it ends the run as `no_submission`").
 * - `stopped`: the router ended the run: a failure routed to `stop` (a 403 nobody approved, a path outside the
 *   allowed folders, no progress, a spent repair budget), or the planner's answers could not be used
 *   `maxInvalidDecisions` times in a row.
 * - `escalated`: a person must act: a failure routed to `escalate` (an exhausted budget, unknown tools turn after
 *   turn, a review that timed out), the planner unavailable after its retries, or `maxTurns` reached.
 * Each ending carries a `reason` for the user (public text, no secrets).
 *
 * What reaches the planner is only model-safe: tool results as data, and for failures the router's `ModelFeedback`
 * (public message, field issues, permitted capabilities, observed state); never raw errors, headers or tokens.
 * Tool output is data, never control: nothing in a result changes a retry flag, a budget, a scope or the catalog;
 * those come from `options` and the router's records only.
 *
 * Messages (exported definitions in workflows/definitions.ts):
 * - signal `agent.userMessage` `{ text, by? }`: shown to the planner at its next step;
 * - signal `recovery.approval` and query `recovery.pendingApprovals`: approvals of 403s the tool says a person can
 *   lift (workflows/approvals.ts);
 * - query `agent.state` (AgentState) and `recovery.records` (every RecoveryRecord).
 *
 * Continue-as-new: at a turn boundary, when Temporal suggests it (`workflowInfo().continueAsNewSuggested`, Temporal
 * docs "Continue-As-New") or after `continueAsNewAfterTurns` turns in one run, once every handler finished. The new
 * run gets the router's state (budgets, call ledger the gate reads, operation ids by step, credential and grant
 * versions, records), the observations, the turn count and unread user messages, so nothing is re-executed and no
 * budget starts over.
 *
 * Sandbox-safe: imports only `@temporalio/workflow`, the pure core and types.
 */
import { patched, proxyActivities, workflowInfo, type ActivityOptions } from '@temporalio/workflow';
import { applyWindow, continueOrEscalate } from './agent-carry';
import { checkInput } from './agent-input';
import {
  afterCall,
  bounded,
  endRun,
  newRun,
  plannedFrom,
  plannerFailed,
  registerHandlers,
  startCall,
  type Ending,
  type Planned,
} from './agent-run';
import {
  AgentStatus,
  MAX_CARRIED_CHARS,
  type AgentCarry,
  type AgentOptions,
  type AgentResult,
  type PlannerActivities,
} from './agent-types';
import { PLANNER_CAPABILITY_NAMES_PATCH, type PlannerInput, type PlannerStepInput } from './planner-contract';
import { buildToolRouter, type ToolRouterBase } from './tool-router';

export { MAX_PENDING_USER_MESSAGES } from './agent-input';
export { MAX_OBSERVED_ARGS_CHARS, MAX_OBSERVED_VALUE_CHARS } from './agent-observations';
export { AgentStatus, MAX_CARRIED_CHARS, type AgentCarry, type AgentOptions, type AgentResult } from './agent-types';

const DEFAULT_MAX_TURNS = 20;
const DEFAULT_MAX_INVALID_DECISIONS = 2;
/** StartToClose timeout of one planner step, in ms (2.5 min). */
const DEFAULT_PLANNER_TIMEOUT_MS = 150_000;
const DEFAULT_PLANNER_ATTEMPTS = 4;

/**
 * The agent workflow. Start it with `client.workflow.start(agentWorkflow, { args: [goal], taskQueue, workflowId })`
 * (or `[goal, { grantedScopes }]`): the catalog and policy are the worker's (docs/DESIGN.md, "Workflow code and the
 * worker"). The worker needs the RecoveryPlugin and the planner activities (`createPlannerActivities(planner)`).
 * @param goal what the user wants, 1 to 8,000 characters.
 * @param carried internal: set by continue-as-new only.
 * @returns AgentResult; it never throws for a routable tool failure or a planner failure.
 * @throws ApplicationFailure `invalid_input` (non-retryable, the run FAILS) when `goal` or `options` are malformed;
 *   the message names the field.
 */
export async function agentWorkflow(
  goal: string,
  options: AgentOptions = {},
  carried?: AgentCarry,
): Promise<AgentResult> {
  checkInput(goal, options, carried);
  const maxTurns = options.maxTurns ?? DEFAULT_MAX_TURNS;
  const maxInvalid = options.maxInvalidDecisions ?? DEFAULT_MAX_INVALID_DECISIONS;
  const {
    planner: plannerOptions,
    maxTurns: _m,
    maxInvalidDecisions: _i,
    continueAsNewAfterTurns,
    observationWindow: _w,
    ...routerOptions
  } = options;
  const router = buildToolRouter({
    ...routerOptions,
    stepBudgetsAcrossTurns: true,
    ...(carried ? { restore: carried.router } : {}),
  });
  const { planNextStep } = proxyActivities<PlannerActivities>(plannerActivityOptions(plannerOptions));
  const run = newRun(goal, carried);
  registerHandlers(run);
  const end = (result: Ending): AgentResult => endRun(run, router, result);

  let turnsThisRun = 0;
  for (;;) {
    if (run.turn >= maxTurns) {
      return end({
        status: AgentStatus.ESCALATED,
        reason: `The run used all ${maxTurns} planner turns it is allowed without submitting a result.`,
      });
    }
    if (workflowInfo().continueAsNewSuggested || (continueAsNewAfterTurns && turnsThisRun >= continueAsNewAfterTurns)) {
      return await continueOrEscalate(run, router, options, end);
    }

    run.turn += 1;
    turnsThisRun += 1;
    router.startTurn();
    for (const text of run.pendingUserMessages.splice(0)) run.observations.push({ kind: 'user_message', text });
    run.phase = 'planning';

    applyWindow(run, options.observationWindow);
    const input = plannerInput(goal, run.turn, router, run.observations, run.omittedObservations);
    const inputSize = JSON.stringify(input).length;
    if (inputSize > MAX_CARRIED_CHARS) {
      return end({
        status: AgentStatus.ESCALATED,
        reason: `The run's observations are too large for the planner (${inputSize} characters of JSON); a person must take over.`,
      });
    }
    // The activities are awaited here, not in helpers: no promise beyond their own (docs/DESIGN.md, "Performance").
    let planned: Planned;
    try {
      planned = plannedFrom(run, await planNextStep(input));
    } catch (err) {
      planned = plannerFailed(run, err, maxInvalid);
    }
    if (planned.kind === 'again') continue;
    if (planned.kind === 'end') return end(planned.ending);
    const decision = planned.decision;
    if (decision.kind === 'submit') return end({ status: AgentStatus.SUBMITTED, result: decision.result });
    if (decision.kind === 'stop') {
      return end({
        status: AgentStatus.NO_SUBMISSION,
        reason: `The planner stopped without submitting a result: ${bounded(decision.reason)}`,
      });
    }

    run.phase = 'calling_tools';
    for (const call of decision.calls) {
      const step = startCall(run, call);
      const ending = afterCall(run, call, step, await router.callTool(call.tool, call.args, step.options));
      if (ending) return end(ending);
    }
    run.currentCall = undefined;
  }
}

/**
 * The planner step's input: the permitted capabilities by name, which the planner activity expands from the worker's
 * catalog (`PlannerStepInput`); a run recorded before that change (no marker of the patch) keeps sending them whole,
 * so its history replays with the same input sizes and the same escalation decisions.
 */
function plannerInput(
  goal: string,
  turn: number,
  router: Pick<ToolRouterBase, 'capabilities'>,
  observations: PlannerInput['observations'],
  omitted: number,
): PlannerInput | PlannerStepInput {
  const capabilities = router.capabilities();
  const seen = omitted > 0 ? { observations, omittedObservations: omitted } : { observations };
  if (!patched(PLANNER_CAPABILITY_NAMES_PATCH)) return { goal, turn, capabilities, ...seen };
  return { goal, turn, capabilityNames: capabilities.map((c) => c.name), ...seen };
}

/** The planner activity's options: the run's `planner` options over the defaults. */
function plannerActivityOptions(planner: AgentOptions['planner']): ActivityOptions {
  return {
    startToCloseTimeout: planner?.startToCloseTimeoutMs ?? DEFAULT_PLANNER_TIMEOUT_MS,
    heartbeatTimeout: planner?.heartbeatTimeoutMs ?? 10_000,
    retry: { maximumAttempts: planner?.maximumAttempts ?? DEFAULT_PLANNER_ATTEMPTS, initialInterval: '1s' },
    ...(planner?.taskQueue ? { taskQueue: planner.taskQueue } : {}),
  };
}
