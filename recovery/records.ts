/**
 * Recovery records: one per failure and per recovery step, with the class, the action, the change evidence, the
 * attempts and the terminal state (docs/DESIGN.md, "Telemetry"). Kept in workflow state (query), and the source of
 * the telemetry that shows replan rate, retry budget use and escalations.
 */
import type { EvidenceKind } from './gate';
import type { FailureClass, FailureReason, Phase } from './failure';
import type { RecoveryAction } from './routes';

/** How a call ended, as far as the router is concerned. */
export const TerminalState = {
  SUCCEEDED: 'succeeded',
  /** Returned to the model as a failed observation it can act on (repair, replan, reject). */
  FED_BACK: 'fed_back',
  /** Refused by the Change-before-Retry gate without dispatch. */
  REFUSED: 'refused',
  /** Waiting on a person (approval or review) ended without a grant. */
  STOPPED: 'stopped',
  ESCALATED: 'escalated',
  /** Handed to reconciliation (the write's outcome is unknown). */
  RECONCILING: 'reconciling',
} as const;
export type TerminalState = (typeof TerminalState)[keyof typeof TerminalState];

/**
 * One record per routed call (docs/DESIGN.md, "Telemetry"): tool, class, reason, phase, action, change
 * evidence, attempts, budgets left, terminal state, duration in ms.
 */
export interface RecoveryRecord {
  callId: string;
  tool: string;
  /** The turn the call belongs to (1-based; 0 before the first turn). */
  turn: number;
  class?: FailureClass;
  reason?: FailureReason;
  phase?: Phase;
  action?: RecoveryAction;
  /** The change evidence that let this attempt run, if it was a re-execution. */
  evidence?: EvidenceKind;
  /** Activity attempts used by this call (server-side retries included). */
  attempts: number;
  /** Activities the router scheduled for this call (re-executions included). */
  activities: number;
  budgetsLeft: { retries: number; replans: number; repairs: number; runAttempts: number };
  terminal: TerminalState;
  /** Workflow time from the call's start to this record, in ms. */
  durationMs: number;
  /**
   * Set on the first call after a failure routed to `replan` (or `reject`): workflow time from that failure's record
   * to this call's start, in ms — the time the planner took to choose another way (time to replan, docs/DESIGN.md,
   * "Telemetry").
   */
  replanLatencyMs?: number;
  /** The failure class that asked for the replan, with `replanLatencyMs`. */
  replanAfter?: FailureClass;
  /**
   * How a refused or unknown write was settled, on its success record (workflows/tool-router-types.ts `Reconciled`):
   * e.g. `already_satisfied` when its postcondition held.
   */
  reconciled?: 'lookup' | 'replay' | 'review_replay' | 'marked_applied' | 'already_satisfied';
  /**
   * The fingerprint of an error no fact spoke for (`fp_` + 12 hex: recovery/classify/rules.ts): the rule an operator
   * adds to `classify.rules` in temporal.config.json matches it (`{ match: { fingerprint } }`).
   */
  fingerprint?: string;
}
