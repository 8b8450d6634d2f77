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
import {
  ActivityFailure,
  ApplicationFailure,
  allHandlersFinished,
  condition,
  continueAsNew,
  isCancellation,
  log,
  proxyActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { createPlannerActivities } from '../activities/planners/planner';
import type { RecoveryRecord } from '../recovery/records';
import { RecoveryAction } from '../recovery/routes';
import { publicText } from '../recovery/classify/text';
import { agentStateQuery, userMessageSignal, type AgentState, type UserMessage } from './definitions';
import { checkInput, MAX_PENDING_USER_MESSAGES } from './agent-input';
import { observationOf } from './agent-observations';
import { parseMessage, userMessageSchema } from './messages';
import {
  PLANNER_INVALID_DECISION,
  plannerDecisionSchema,
  type Observation,
  type PlannerDecision,
} from './planner-contract';
import { own } from './router-helpers';
import { telemetry } from './telemetry-sinks';
import { createToolRouter, type ToolRouterOptions, type ToolRouterState } from './tool-router';

export { MAX_PENDING_USER_MESSAGES } from './agent-input';
export { MAX_OBSERVED_ARGS_CHARS, MAX_OBSERVED_VALUE_CHARS } from './agent-observations';

type PlannerActivities = ReturnType<typeof createPlannerActivities>;

/** How an agent run ended; see the module docstring. */
export const AgentStatus = {
  SUBMITTED: 'submitted',
  NO_SUBMISSION: 'no_submission',
  STOPPED: 'stopped',
  ESCALATED: 'escalated',
} as const;
export type AgentStatus = (typeof AgentStatus)[keyof typeof AgentStatus];

export interface AgentOptions extends Omit<ToolRouterOptions, 'restore'> {
  /** Most planner turns in the whole run (continue-as-new included); reaching it escalates. @default 20 */
  maxTurns?: number;
  /**
   * Planner answers that are not a valid decision (e.g. a `submit` without `result`) in a row before the run stops.
   * Each one is shown to the planner as a `decision_rejected` observation. @default 2
   */
  maxInvalidDecisions?: number;
  /** The planner activity. */
  planner?: {
    /** StartToClose timeout of one planner step, in ms. Keep it above the model client's own timeout. @default 150_000 */
    startToCloseTimeoutMs?: number;
    /** Attempts of one planner step (transient model-endpoint failures: 429, 503, timeouts). @default 4 */
    maximumAttempts?: number;
    /** Task queue of the planner activity. @default the workflow's */
    taskQueue?: string;
    /**
     * Heartbeat timeout of a planner step, in ms: the activity heartbeats while the model thinks, so a cancelled
     * run aborts the model request within about 0.8 × this (Temporal throttles heartbeats to that). @default 10_000
     */
    heartbeatTimeoutMs?: number;
  };
  /** Continue-as-new after this many turns in one run, whether or not Temporal suggests it. @default none */
  continueAsNewAfterTurns?: number;
}

/** What a run returns. */
export interface AgentResult {
  status: AgentStatus;
  /** The submitted value (status `submitted`). */
  result?: unknown;
  /** Why the run ended without a submission: public text for the user. */
  reason?: string;
  /** The tool outcome that ended the run, when one did; `callId` is the planner's id of the call. */
  endedBy?: { tool: string; callId: string; class: string; action: string; exhausted?: string };
  /** Planner turns used, across continue-as-new. */
  turns: number;
  /** Continue-as-new runs before the final one. */
  continuedAsNew: number;
  /** Every recovery record of the run, across continue-as-new. */
  records: RecoveryRecord[];
}

/** What one run hands the next one on continue-as-new. Plain JSON. */
export interface AgentCarry {
  router: ToolRouterState;
  observations: Observation[];
  turn: number;
  invalidDecisionsInARow: number;
  pendingUserMessages: string[];
  /** tool → successful calls so far: the step ids (`<tool>#<n>`) go on where they stopped. */
  toolSuccesses: Record<string, number>;
  continuedAsNew: number;
}

const DEFAULT_MAX_TURNS = 20;
const DEFAULT_MAX_INVALID_DECISIONS = 2;
const DEFAULT_PLANNER_TIMEOUT_MS = 150_000;
const DEFAULT_PLANNER_ATTEMPTS = 4;
/** Most characters of a planner failure's message quoted in a reason. */
const MAX_REASON_CHARS = 500;
/**
 * Largest planner input, and largest continue-as-new state, in characters of JSON. Temporal refuses payloads over
 * 2 MB (a workflow task that tries fails again and again, attack review G1–G4): the run escalates before that.
 */
export const MAX_CARRIED_CHARS = 1_500_000;

/**
 * The agent workflow. Start it with `client.workflow.start(agentWorkflow, { args: [goal, { ...plugin.workflowDefaults()
 * }], taskQueue, workflowId })`; the worker needs the RecoveryPlugin and the planner activities
 * (`createPlannerActivities(planner)`).
 * @param goal what the user wants, 1 to 8,000 characters.
 * @param carried internal: set by continue-as-new only.
 * @returns AgentResult; it never throws for a routable tool failure or a planner failure.
 * @throws ApplicationFailure `invalid_input` (non-retryable, the run FAILS) when `goal` or `options` are malformed;
 *   the message names the field.
 */
export async function agentWorkflow(goal: string, options: AgentOptions, carried?: AgentCarry): Promise<AgentResult> {
  checkInput(goal, options, carried);
  const maxTurns = options.maxTurns ?? DEFAULT_MAX_TURNS;
  const maxInvalid = options.maxInvalidDecisions ?? DEFAULT_MAX_INVALID_DECISIONS;
  const {
    planner: plannerOptions,
    maxTurns: _m,
    maxInvalidDecisions: _i,
    continueAsNewAfterTurns,
    ...routerOptions
  } = options;
  const router = createToolRouter({
    ...routerOptions,
    stepBudgetsAcrossTurns: true,
    ...(carried ? { restore: carried.router } : {}),
  });
  const { planNextStep } = proxyActivities<PlannerActivities>({
    startToCloseTimeout: plannerOptions?.startToCloseTimeoutMs ?? DEFAULT_PLANNER_TIMEOUT_MS,
    heartbeatTimeout: plannerOptions?.heartbeatTimeoutMs ?? 10_000,
    retry: { maximumAttempts: plannerOptions?.maximumAttempts ?? DEFAULT_PLANNER_ATTEMPTS, initialInterval: '1s' },
    ...(plannerOptions?.taskQueue ? { taskQueue: plannerOptions.taskQueue } : {}),
  });

  const observations: Observation[] = carried ? [...carried.observations] : [];
  const pendingUserMessages: string[] = carried ? [...carried.pendingUserMessages] : [];
  const toolSuccesses: Record<string, number> = carried ? { ...carried.toolSuccesses } : {};
  let turn = carried?.turn ?? 0;
  let invalidInARow = carried?.invalidDecisionsInARow ?? 0;
  const continuedAsNew = carried?.continuedAsNew ?? 0;
  let phase: AgentState['phase'] = 'planning';
  let currentCall: AgentState['currentCall'];
  let status: AgentStatus | undefined;

  setHandler(userMessageSignal, (raw: UserMessage) => {
    const parsed = parseMessage(userMessageSchema(), raw, 'agent.userMessage');
    if (!parsed.ok) {
      log.warn('user message ignored', { why: parsed.why });
      return;
    }
    const { text } = parsed.value;
    if (phase === 'done') {
      log.warn('user message ignored: the run has ended');
      return;
    }
    if (pendingUserMessages.length >= MAX_PENDING_USER_MESSAGES) {
      log.warn('user message dropped: too many are waiting for the planner', { waiting: pendingUserMessages.length });
      return;
    }
    pendingUserMessages.push(text);
  });
  setHandler(agentStateQuery, () => ({
    goal,
    phase,
    turn,
    ...(currentCall ? { currentCall } : {}),
    observations: observations.length,
    pendingUserMessages: pendingUserMessages.length,
    continuedAsNew,
    ...(status ? { status } : {}),
  }));

  const end = (result: Omit<AgentResult, 'turns' | 'continuedAsNew' | 'records'>): AgentResult => {
    phase = 'done';
    status = result.status;
    currentCall = undefined;
    log.info('agent run ended', { status: result.status, turns: turn, reason: result.reason });
    telemetry.runEnded({ status: result.status, turns: turn });
    return { ...result, turns: turn, continuedAsNew, records: [...router.records()] };
  };

  let turnsThisRun = 0;
  for (;;) {
    if (turn >= maxTurns) {
      return end({
        status: AgentStatus.ESCALATED,
        reason: `The run used all ${maxTurns} planner turns it is allowed without submitting a result.`,
      });
    }
    if (workflowInfo().continueAsNewSuggested || (continueAsNewAfterTurns && turnsThisRun >= continueAsNewAfterTurns)) {
      await condition(allHandlersFinished);
      const carry: AgentCarry = {
        router: router.state(),
        observations,
        turn,
        invalidDecisionsInARow: invalidInARow,
        pendingUserMessages,
        toolSuccesses,
        continuedAsNew: continuedAsNew + 1,
      };
      const size = JSON.stringify(carry).length;
      if (size > MAX_CARRIED_CHARS) {
        return end({
          status: AgentStatus.ESCALATED,
          reason: `The run's state is too large to continue (${size} characters of JSON); a person must take over.`,
        });
      }
      return await continueAsNew<typeof agentWorkflow>(goal, options, carry);
    }

    turn += 1;
    turnsThisRun += 1;
    router.startTurn();
    for (const text of pendingUserMessages.splice(0)) observations.push({ kind: 'user_message', text });
    phase = 'planning';

    const input = { goal, turn, capabilities: router.capabilities(), observations };
    const inputSize = JSON.stringify(input).length;
    if (inputSize > MAX_CARRIED_CHARS) {
      return end({
        status: AgentStatus.ESCALATED,
        reason: `The run's observations are too large for the planner (${inputSize} characters of JSON); a person must take over.`,
      });
    }
    let decision: PlannerDecision;
    try {
      // The activity checks its answer too; checked again here because a planner on another worker may return
      // anything, and a malformed value must not fail the workflow task (attack review C2–C4).
      const answer: unknown = await planNextStep(input);
      const checked = plannerDecisionSchema().safeParse(answer);
      if (!checked.success) {
        const issue = checked.error.issues[0];
        throw ApplicationFailure.nonRetryable(
          `The planner's answer is not a valid decision: ${issue?.path.join('.') || '(decision)'}: ${issue?.message ?? 'invalid'}.`,
          PLANNER_INVALID_DECISION,
        );
      }
      decision = checked.data;
    } catch (err) {
      if (isCancellation(err)) throw err;
      const failure = plannerFailure(err);
      if (failure.type === PLANNER_INVALID_DECISION) {
        invalidInARow += 1;
        if (invalidInARow > maxInvalid) {
          return end({
            status: AgentStatus.STOPPED,
            reason: `The planner's answers could not be used ${invalidInARow} times in a row: ${failure.message}`,
          });
        }
        observations.push({ kind: 'decision_rejected', message: failure.message, turn });
        continue;
      }
      return end({ status: AgentStatus.ESCALATED, reason: `The planner is unavailable: ${failure.message}` });
    }
    invalidInARow = 0;

    if (decision.kind === 'submit') return end({ status: AgentStatus.SUBMITTED, result: decision.result });
    if (decision.kind === 'stop') {
      return end({
        status: AgentStatus.NO_SUBMISSION,
        reason: `The planner stopped without submitting a result: ${bounded(decision.reason)}`,
      });
    }

    phase = 'calling_tools';
    for (const call of decision.calls) {
      const callId = call.callId.slice(0, 128);
      currentCall = { callId, tool: typeof call.tool === 'string' ? call.tool.slice(0, 64) : '' };
      const stepTool = typeof call.tool === 'string' && call.tool !== '' ? call.tool.slice(0, 128) : '(no name)';
      const stepId = `${stepTool}#${own(toolSuccesses, stepTool)}`;
      const outcome = await router.callTool(call.tool, call.args, { stepId, callId });
      observations.push(observationOf(call, outcome, turn));
      if (outcome.ok) {
        toolSuccesses[stepTool] = own(toolSuccesses, stepTool) + 1;
        if (outcome.noProgress) {
          return end({
            status: AgentStatus.STOPPED,
            reason: `The same call to ${outcome.tool} returned the same result again: the run makes no progress.`,
            endedBy: { tool: outcome.tool, callId, class: 'none', action: RecoveryAction.STOP },
          });
        }
        continue;
      }
      if (outcome.terminal) {
        return end({
          status: outcome.action === RecoveryAction.ESCALATE ? AgentStatus.ESCALATED : AgentStatus.STOPPED,
          reason: outcome.feedback.message,
          endedBy: {
            tool: outcome.failure.tool,
            callId,
            class: outcome.failure.class,
            action: outcome.action,
            ...(outcome.exhausted ? { exhausted: outcome.exhausted } : {}),
          },
        });
      }
    }
    currentCall = undefined;
  }
}

/** The type and public message of a failed planner step (the activity's messages are public by construction). */
function plannerFailure(err: unknown): { type: string; message: string } {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure) {
    return { type: cause.type ?? 'unknown', message: bounded(cause.message) };
  }
  // A timeout or a server-side failure: Temporal's own message, which names no secret; redacted all the same.
  return { type: 'unknown', message: bounded(cause instanceof Error ? cause.message : 'the planner step failed') };
}

/** Redacted, on one line, at most MAX_REASON_CHARS. */
function bounded(text: string): string {
  return publicText(text, MAX_REASON_CHARS);
}
