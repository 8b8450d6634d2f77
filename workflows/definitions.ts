/**
 * Signal, update and query definitions of the plugin's workflows. Exported definitions, never loose strings
 * (Temporal's TypeScript docs: send a signal through its exported definition, not a string name); `client.ts` sends them.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { RecoveryRecord } from '../recovery/records';
import type { QueryArguments } from './approval-definitions';

export * from './approval-definitions';

/** Query `recovery.records`: one recovery record per routed call of the run. */
export const recoveryRecordsQuery = defineQuery<RecoveryRecord[]>('recovery.records');

/** A reviewer's decision on a write whose outcome stayed unknown. */
export interface ReviewDecision {
  /** The operation under review (guards against a decision sent to the wrong workflow). */
  operationId: string;
  /**
   * - `mark_applied`: the side effect happened; `resultRef` says where its result is. Nothing is replayed.
   * - `replay`: it did not happen; run it once more with the same idempotency key.
   * - `abandon`: leave it; nothing is replayed.
   */
  decision: 'mark_applied' | 'replay' | 'abandon';
  by: string;
  reason: string;
  /** Required with `mark_applied`: a reference to the result (e.g. the provider's id). */
  resultRef?: string;
  /**
   * Required `true` with `replay` when the case's receiver does not deduplicate (`ReviewCase.deduplicates` false):
   * the person confirms that a replay may apply the write twice. Without it the update's validator refuses the replay
   * (docs/DESIGN.md, "Reconcile").
   */
  confirmRisk?: boolean;
}

/** One lookup the reconcile workflow made. */
export interface LookupRecord {
  state: 'applied' | 'not_applied' | 'unknown';
  /** Workflow time of the answer, ms since the epoch. */
  atMs: number;
  detail?: string;
}

/** The facts of the failure that left a write's outcome unknown. */
export interface UnknownErrorFacts {
  class: string;
  reason: string;
  phase: string;
  /** The HTTP status, when there was one. */
  status?: number;
  /** The provider's structured error code, when there was one. */
  code?: string;
  /**
   * The error's own fingerprint when no fact spoke for it (`fp_` + 12 hex, recovery/classify/rules.ts); otherwise the
   * sha256 hex of the canonical `{ class, reason, status, code }` (recovery/canonical.ts `argsHash`). Equal
   * fingerprints, the same kind of failure.
   */
  fingerprint: string;
  /** For an error no fact spoke for: the `classify.rules` entry (temporal.config.json) that would route it. */
  suggestedRule?: string;
}

/** What the `recovery.reviewCase` query shows a reviewer. Nothing secret: the arguments are redacted. */
export interface ReviewCase {
  operationId: string;
  tool: string;
  callId: string;
  status: 'reconciling' | 'awaiting_review' | 'done';
  /** The failure's public message (why the outcome is unknown). */
  message: string;
  /**
   * The call's arguments, redacted and bounded on the Node side (activities/preview-arguments.ts); `null` until
   * that activity answers (the case awaits review only after it has), and in runs recorded before it existed.
   */
  argsSummary: unknown;
  /** With `{ arguments: true }`: the call's arguments in full, for a person's own view. */
  args?: unknown;
  /** The receiver deduplicates by the idempotency key: a replay cannot apply the write twice. */
  deduplicates: boolean;
  /** The tool has a lookup: `lookups` lists its answers (none without one). */
  canLookUp: boolean;
  /** The unknown error as facts (never its text), and their fingerprint. */
  failure: UnknownErrorFacts;
  /** Replays made under this reconciliation. */
  replays: number;
  /** The decisions the case takes now: `replay` only while the replay budget lasts. */
  allowed: Array<ReviewDecision['decision']>;
  lookups: LookupRecord[];
  /** Since when it waits for review, ms since the epoch; absent before. */
  awaitingSinceMs?: number;
  /** The last review decision the run accepted, with when it accepted it (ms since the epoch); absent before. */
  decision?: ReviewDecision & { atMs: number };
}

/**
 * Signal `recovery.reviewDecision`: a person's decision on a write awaiting review (prefer the update
 * `decideReviewUpdate`, which says why it refuses).
 */
export const reviewDecisionSignal = defineSignal<[ReviewDecision]>('recovery.reviewDecision');
/**
 * Update `recovery.decideReview` to `reconcile:<operationId>`: `mark_applied` (with a result reference),
 * `replay` (within the replay budget) or `abandon`; rejected with the reason when the case cannot take it.
 */
export const decideReviewUpdate = defineUpdate<ReviewCase, [ReviewDecision]>('recovery.decideReview');
/**
 * Signal `recovery.checkOwner` to `reconcile:<operationId>`: ask again whether the run that started it still owns the
 * write (a run that replaced it sends it before starting its own; workflows/reconcile-owner.ts).
 */
export const checkOwnerSignal = defineSignal('recovery.checkOwner');
/** Query `recovery.reviewCase` of `reconcile:<operationId>`: the case as a person sees it. */
export const reviewCaseQuery = defineQuery<ReviewCase, [QueryArguments?]>('recovery.reviewCase');

/** The workflow id of an operation's reconciliation: one operation, one reconciliation. */
export function reconcileWorkflowId(operationId: string): string {
  return `reconcile:${operationId}`;
}

/** A message from the user to a running agent; the planner sees it at its next step. */
export interface UserMessage {
  /** 1 to `MAX_USER_MESSAGE_CHARS` characters. */
  text: string;
  /** Who sent it (for the log). */
  by?: string;
}

/** Longest user message an agent accepts, in characters; a longer one is refused by the signal handler. */
export const MAX_USER_MESSAGE_CHARS = 8_000;

/**
 * `agentWorkflow`'s bounded options, each `[min, max]` of an integer (timeouts in ms): read by its schema
 * (workflows/agent-input.ts) and its plain check (workflows/plain-input.ts), so the two cannot drift apart.
 */
export const AGENT_OPTION_BOUNDS = {
  maxTurns: [1, 10_000],
  maxInvalidDecisions: [0, 100],
  plannerStartToCloseTimeoutMs: [1_000, 86_400_000],
  plannerMaximumAttempts: [1, 100],
  plannerHeartbeatTimeoutMs: [1_000, 3_600_000],
  observationWindowCount: [1, 10_000],
  observationWindowChars: [100_000, 1_000_000],
} as const;

/** Where an agent run stands, as the `agent.state` query shows it. */
export interface AgentState {
  goal: string;
  /**
   * - `planning`: the planner activity is deciding the next step;
   * - `calling_tools`: the router runs the planner's calls (an approval or a review may be awaited here);
   * - `done`: the run ended; `status` says how.
   */
  phase: 'planning' | 'calling_tools' | 'done';
  /** Planner turns so far (1-based; 0 before the first), across continue-as-new. */
  turn: number;
  /** The tool call running now, in `calling_tools`. */
  currentCall?: { callId: string; tool: string };
  /** Observations the planner has seen or will see next. */
  observations: number;
  /** User messages received and not yet shown to the planner. */
  pendingUserMessages: number;
  /** Continue-as-new runs before this one. */
  continuedAsNew: number;
  /** How the run ended, once `phase` is `done`. */
  status?: string;
}

/** Signal `agent.userMessage` `{ text, by? }`: shown to the planner at its next step (at most 50 wait). */
export const userMessageSignal = defineSignal<[UserMessage]>('agent.userMessage');
/** Query `agent.state`: the agent's goal, phase, turn, current call and counts. */
export const agentStateQuery = defineQuery<AgentState>('agent.state');
