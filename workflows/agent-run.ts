/**
 * The pieces of `agentWorkflow`'s loop (workflows/agent.ts): the run's state and its handlers (signal
 * `agent.userMessage`, query `agent.state`), how a run ends, what a planner step's answer gives and
 * what each tool call's. Each piece issues the same commands in the same order as the loop it came from, so
 * histories replay.
 * Sandbox-safe: imports only `@temporalio/workflow`, the pure core and types.
 */
import { ActivityFailure, ApplicationFailure, isCancellation, log, setHandler } from '@temporalio/workflow';
import { publicText } from '../recovery/classify/text';
import { RecoveryAction } from '../recovery/routes';
import { MAX_PENDING_USER_MESSAGES } from './agent-input';
import { observationOf } from './agent-observations';
import { AgentStatus, type AgentCarry, type AgentResult } from './agent-types';
import { agentStateQuery, userMessageSignal, type AgentState, type UserMessage } from './definitions';
import { parseMessage, userMessageSchema } from './messages';
import {
  PLANNER_INVALID_DECISION,
  plannerDecisionSchema,
  type Observation,
  type PlannerDecision,
} from './planner-contract';
import { own, setOwn } from './router-helpers';
import { telemetry } from './telemetry-sinks';
import type { ToolOutcome, ToolRouter } from './tool-router';

/** Most characters of a planner failure's message quoted in a reason. */
const MAX_REASON_CHARS = 500;

/** How a run ends, before the counts and records are added. */
export type Ending = Omit<AgentResult, 'turns' | 'continuedAsNew' | 'records'>;

/** The state of one run: what the handlers read and the loop advances. */
export interface AgentRun {
  readonly goal: string;
  readonly observations: Observation[];
  /** Observations dropped from the window so far, oldest first (workflows/agent-window.ts). */
  omittedObservations: number;
  readonly pendingUserMessages: string[];
  readonly toolSuccesses: Record<string, number>;
  turn: number;
  invalidInARow: number;
  readonly continuedAsNew: number;
  phase: AgentState['phase'];
  currentCall: AgentState['currentCall'];
  status: AgentStatus | undefined;
}

/** A fresh run, or the one `carried` continues. */
export function newRun(goal: string, carried: AgentCarry | undefined): AgentRun {
  return {
    goal,
    observations: carried ? [...carried.observations] : [],
    omittedObservations: carried?.omittedObservations ?? 0,
    pendingUserMessages: carried ? [...carried.pendingUserMessages] : [],
    toolSuccesses: carried ? { ...carried.toolSuccesses } : {},
    turn: carried?.turn ?? 0,
    invalidInARow: carried?.invalidDecisionsInARow ?? 0,
    continuedAsNew: carried?.continuedAsNew ?? 0,
    phase: 'planning',
    currentCall: undefined,
    status: undefined,
  };
}

/** Signal `agent.userMessage` (queued for the planner's next step) and query `agent.state`. */
export function registerHandlers(run: AgentRun): void {
  setHandler(userMessageSignal, (raw: UserMessage) => {
    const parsed = parseMessage(userMessageSchema(), raw, 'agent.userMessage');
    if (!parsed.ok) {
      log.warn('user message ignored', { why: parsed.why });
      return;
    }
    const { text } = parsed.value;
    if (run.phase === 'done') {
      log.warn('user message ignored: the run has ended');
      return;
    }
    if (run.pendingUserMessages.length >= MAX_PENDING_USER_MESSAGES) {
      log.warn('user message dropped: too many are waiting for the planner', {
        waiting: run.pendingUserMessages.length,
      });
      return;
    }
    run.pendingUserMessages.push(text);
  });
  setHandler(agentStateQuery, () => ({
    goal: run.goal,
    phase: run.phase,
    turn: run.turn,
    ...(run.currentCall ? { currentCall: run.currentCall } : {}),
    observations: run.observations.length,
    pendingUserMessages: run.pendingUserMessages.length,
    continuedAsNew: run.continuedAsNew,
    ...(run.status ? { status: run.status } : {}),
  }));
}

/** Ends the run: marks it done, logs it, reports it to the telemetry sink, and adds the counts and records. */
export function endRun(run: AgentRun, router: ToolRouter, result: Ending): AgentResult {
  run.phase = 'done';
  run.status = result.status;
  run.currentCall = undefined;
  log.info('agent run ended', { status: result.status, turns: run.turn, reason: result.reason });
  telemetry.runEnded({ status: result.status, turns: run.turn });
  const { recordsOmitted } = router.state();
  return {
    ...result,
    turns: run.turn,
    continuedAsNew: run.continuedAsNew,
    records: [...router.records()],
    ...(recordsOmitted ? { recordsOmitted } : {}),
  };
}

/** What one planner step gives: a decision, an ending, or a rejected answer to show the planner (`again`). */
export type Planned =
  | { kind: 'decision'; decision: PlannerDecision }
  | { kind: 'end'; ending: Ending }
  | { kind: 'again' };

/**
 * What one planner step's answer gives: the decision, once it is checked. `agentWorkflow` awaits the planner activity
 * itself and hands its answer here, or what it threw to `plannerFailed` (the check's own failure included): no
 * promise beyond the activity's (docs/DESIGN.md, "Performance").
 * @throws ApplicationFailure `planner_invalid_decision` when `answer` is not a valid decision.
 */
export function plannedFrom(run: AgentRun, answer: unknown): Planned {
  // The activity checks its answer too; checked again here because a planner on another worker may return
  // anything, and a malformed value must not fail the workflow task (attack review C2–C4).
  const decision = checkedDecision(answer);
  run.invalidInARow = 0;
  return { kind: 'decision', decision };
}

/**
 * A failed planner step. An answer that is not a valid decision is shown to the planner as `decision_rejected` until
 * `maxInvalid` in a row stop the run; any other failure (the planner unavailable after its retries) escalates.
 * @throws the cancellation, when the run is cancelled.
 */
export function plannerFailed(run: AgentRun, err: unknown, maxInvalid: number): Planned {
  if (isCancellation(err)) throw err;
  const failure = plannerFailure(err);
  if (failure.type !== PLANNER_INVALID_DECISION) {
    return {
      kind: 'end',
      ending: { status: AgentStatus.ESCALATED, reason: `The planner is unavailable: ${failure.message}` },
    };
  }
  run.invalidInARow += 1;
  if (run.invalidInARow > maxInvalid) {
    const reason = `The planner's answers could not be used ${run.invalidInARow} times in a row: ${failure.message}`;
    return { kind: 'end', ending: { status: AgentStatus.STOPPED, reason } };
  }
  run.observations.push({ kind: 'decision_rejected', message: failure.message, turn: run.turn });
  return { kind: 'again' };
}

/** One tool call of a turn: its call id and step id as the router gets them, and the tool named in its step. */
export interface CallStep {
  options: { stepId: string; callId: string };
  stepTool: string;
}

/** Starts one of a turn's tool calls: it becomes the run's current call; answers what the router is given. */
export function startCall(run: AgentRun, call: ToolCall): CallStep {
  const callId = call.callId.slice(0, 128);
  run.currentCall = { callId, tool: typeof call.tool === 'string' ? call.tool.slice(0, 64) : '' };
  const stepTool = typeof call.tool === 'string' && call.tool !== '' ? call.tool.slice(0, 128) : '(no name)';
  return { options: { stepId: `${stepTool}#${own(run.toolSuccesses, stepTool)}`, callId }, stepTool };
}

/**
 * A tool call's answer, as an observation; the ending when it ends the run (a terminal failure, or a call that
 * makes no progress), else undefined. `agentWorkflow` awaits `callTool` itself, the turn's calls in order.
 */
export function afterCall(run: AgentRun, call: ToolCall, step: CallStep, outcome: ToolOutcome): Ending | undefined {
  const { callId } = step.options;
  run.observations.push(observationOf(call, outcome, run.turn));
  if (outcome.ok) {
    setOwn(run.toolSuccesses, step.stepTool, own(run.toolSuccesses, step.stepTool) + 1);
    if (!outcome.noProgress) return undefined;
    return {
      status: AgentStatus.STOPPED,
      reason: `The same call to ${outcome.tool} returned the same result again: the run makes no progress.`,
      endedBy: { tool: outcome.tool, callId, class: 'none', action: RecoveryAction.STOP },
    };
  }
  if (!outcome.terminal) return undefined;
  return {
    status: outcome.action === RecoveryAction.ESCALATE ? AgentStatus.ESCALATED : AgentStatus.STOPPED,
    reason: outcome.feedback.message,
    endedBy: {
      tool: outcome.failure.tool,
      callId,
      class: outcome.failure.class,
      action: outcome.action,
      ...(outcome.exhausted ? { exhausted: outcome.exhausted } : {}),
    },
  };
}

/** A tool call of a `tool_calls` decision. */
export type ToolCall = Extract<PlannerDecision, { kind: 'tool_calls' }>['calls'][number];

/**
 * `answer` as a decision, checked by `plannerDecisionSchema()`.
 * @throws ApplicationFailure `planner_invalid_decision` (non-retryable) naming the first issue's field.
 */
function checkedDecision(answer: unknown): PlannerDecision {
  const checked = plannerDecisionSchema().safeParse(answer);
  if (checked.success) return checked.data;
  const issue = checked.error.issues[0];
  throw ApplicationFailure.nonRetryable(
    `The planner's answer is not a valid decision: ${issue?.path.join('.') || '(decision)'}: ${issue?.message ?? 'invalid'}.`,
    PLANNER_INVALID_DECISION,
  );
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
export function bounded(text: string): string {
  return publicText(text, MAX_REASON_CHARS);
}
