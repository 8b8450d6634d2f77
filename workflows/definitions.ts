/**
 * Signal, update and query definitions of the plugin's workflows. Exported definitions, never loose strings
 * (Temporal's TypeScript docs: send a signal through its exported definition, not a string name); `client.ts` sends them.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { RecoveryRecord } from '../recovery/records';

/**
 * A human's decision on a tool call that waits for approval (a 403 the tool says approval can lift). Sent with the
 * `recovery.decideApproval` update (preferred: a refused decision is refused at once, and the approver's identity
 * is the one Temporal recorded for the update) or the `recovery.approval` signal. Parsed by
 * `approvalDecisionSchema` (workflows/messages.ts): strict, bounded; a malformed one is refused.
 */
export interface ApprovalDecision {
  /** The waiting call's id (`PendingApproval.callId`). 1 to 128 characters. */
  callId: string;
  /**
   * The `argsDigest` that `pendingApprovals` shows for the call: the decision binds to exactly those arguments and
   * is refused if the waiting call's digest differs. 64 lowercase hex characters.
   */
  argsDigest: string;
  approved: boolean;
  /** Who decided, as they declare it (1 to 200 characters). The identity Temporal recorded is kept beside it. */
  by: string;
  /** Why, at most 2,000 characters. */
  reason?: string;
  /**
   * HMAC-SHA256 (hex) over `approvalSigningText(...)` with the approval key; required when the worker has one
   * (`RecoveryPlugin({ approvals: { signingKey } })`), verified in the worker, never in history.
   */
  signature?: string;
}

/** A call waiting for approval, as the `pendingApprovals` query shows it. */
export interface PendingApproval {
  callId: string;
  tool: string;
  operationId: string;
  /** The failure's public message. */
  message: string;
  /** sha256 hex of the canonical arguments the tool will see (recovery/canonical.ts `argsHash`). */
  argsDigest: string;
  /** The arguments, redacted and bounded (recovery/observed-state.ts): what a person approves. */
  argsPreview: unknown;
  /** Since when it waits, ms since the epoch (workflow time). */
  sinceMs: number;
}

/** Who approved a call, as the run recorded it (the tool sees it as `ctx.approval`). */
export interface ApprovalGrant {
  /** Self-declared by the approver. */
  by: string;
  /**
   * The client identity Temporal recorded on the signal or update (`Client` option `identity`, by default
   * `<pid>@<hostname>`); absent when the worker could not read it from the history.
   */
  identity?: string;
  reason?: string;
  /** True when the decision carried a valid signature from the approval key. */
  signed: boolean;
  /** How the decision arrived. */
  via: 'update' | 'signal';
}

export const approvalSignal = defineSignal<[ApprovalDecision]>('recovery.approval');
/** The update form of `approvalSignal`: returns the grant as recorded, or is rejected with the reason. */
export const decideApprovalUpdate = defineUpdate<
  ApprovalGrant & { callId: string; approved: boolean },
  [ApprovalDecision]
>('recovery.decideApproval');
export const pendingApprovalsQuery = defineQuery<PendingApproval[]>('recovery.pendingApprovals');
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
}

/** One lookup the reconcile workflow made. */
export interface LookupRecord {
  state: 'applied' | 'not_applied' | 'unknown';
  /** Workflow time of the answer, ms since the epoch. */
  atMs: number;
  detail?: string;
}

/** What the `recovery.reviewCase` query shows a reviewer. Nothing secret: the arguments are redacted. */
export interface ReviewCase {
  operationId: string;
  tool: string;
  callId: string;
  status: 'reconciling' | 'awaiting_review' | 'done';
  /** The failure's public message (why the outcome is unknown). */
  message: string;
  /** The call's arguments, redacted and bounded (recovery/observed-state.ts). */
  argsSummary: unknown;
  /** Replays made under this reconciliation. */
  replays: number;
  lookups: LookupRecord[];
  /** Since when it waits for review, ms since the epoch; absent before. */
  awaitingSinceMs?: number;
}

export const reviewDecisionSignal = defineSignal<[ReviewDecision]>('recovery.reviewDecision');
export const decideReviewUpdate = defineUpdate<ReviewCase, [ReviewDecision]>('recovery.decideReview');
export const reviewCaseQuery = defineQuery<ReviewCase>('recovery.reviewCase');

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

export const userMessageSignal = defineSignal<[UserMessage]>('agent.userMessage');
export const agentStateQuery = defineQuery<AgentState>('agent.state');
