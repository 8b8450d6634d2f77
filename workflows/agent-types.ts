/**
 * The types of `agentWorkflow` (workflows/agent.ts): how a run ends, its options, its result and what one run hands
 * the next on continue-as-new. Sandbox-safe: types and constants only.
 */
import type { createPlannerActivities } from '../activities/planners/planner';
import type { RecoveryRecord } from '../recovery/records';
import type { ObservationWindow } from './agent-window';
import type { Observation } from './planner-contract';
import type { ToolRouterOptions, ToolRouterState } from './tool-router';

/** The planner activity as the workflow proxies it. */
export type PlannerActivities = ReturnType<typeof createPlannerActivities>;

/** How an agent run ended; see workflows/agent.ts. */
export const AgentStatus = {
  SUBMITTED: 'submitted',
  NO_SUBMISSION: 'no_submission',
  STOPPED: 'stopped',
  ESCALATED: 'escalated',
} as const;
export type AgentStatus = (typeof AgentStatus)[keyof typeof AgentStatus];

/**
 * Options of `agentWorkflow(goal, options)`: the router's, plus the turn limits and the planner activity's
 * timeouts in ms (docs/agents.md).
 */
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
  /**
   * The newest observations the planner sees and continue-as-new carries; older ones are dropped and counted
   * (`PlannerInput.omittedObservations`), so a long run's planner input and carried state stay bounded.
   * `maxObservations` 1 to 10,000 (default 200), `maxChars` 100,000 to 1,000,000 characters of JSON (default
   * 400,000). docs/agents.md, "Long-lived agents".
   */
  observationWindow?: ObservationWindow;
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
  /**
   * The run's recovery records across continue-as-new: every record of its last run, after the newest 200 that
   * each continue-as-new carries (workflows/router/compact.ts).
   */
  records: RecoveryRecord[];
  /** Older records not carried across continue-as-new (their runs' histories and log lines keep them). */
  recordsOmitted?: number;
}

/** What one run hands the next one on continue-as-new. Plain JSON. */
export interface AgentCarry {
  router: ToolRouterState;
  observations: Observation[];
  /** Observations dropped from the window so far (workflows/agent-window.ts); absent = 0. */
  omittedObservations?: number;
  turn: number;
  invalidDecisionsInARow: number;
  pendingUserMessages: string[];
  /** tool → successful calls so far: the step ids (`<tool>#<n>`) go on where they stopped. */
  toolSuccesses: Record<string, number>;
  continuedAsNew: number;
}

/**
 * Largest planner input, and largest continue-as-new state, in characters of JSON. Temporal refuses payloads over
 * 2 MB (a workflow task that tries fails again and again, attack review G1–G4): the run escalates before that.
 */
export const MAX_CARRIED_CHARS = 1_500_000;
