/**
 * The approval lifecycle's messages (workflows/approvals.ts): a call stopped by a 403 a person can lift waits as an
 * approval request; a decision approves or denies it; an approval is used once, when the call runs again with it;
 * it can be revoked while it is held before use; a request nobody decides expires. Exported definitions, never
 * loose strings (Temporal's TypeScript docs, "Workflow message passing"). Sandbox-safe.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';

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
  /** With `{ arguments: true }`: what `argsDigest` covers, in full, from the run's memory (operator/desk/human-view.ts). */
  args?: unknown;
  /** Since when it waits, ms since the epoch (workflow time). */
  sinceMs: number;
  /**
   * When the request expires without a decision, ms since the epoch: `sinceMs` + the router's `approvalTimeoutMs`.
   * Then the call stops ("The approval request expired …") and a later decision is refused.
   */
  expiresAtMs: number;
  /** The router's turn of the call (1-based): the calls of one turn can be approved together (`decideApprovals`). */
  turn: number;
  /**
   * `waiting` for a decision; `approved` and held until `holdUntilMs` before the call runs with it (the router's
   * `approvalHoldMs`): until then it can be revoked (`recovery.revokeApproval`).
   */
  state: 'waiting' | 'approved';
  /** With `state: 'approved'`: when the call runs with the approval, ms since the epoch. */
  holdUntilMs?: number;
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

/**
 * Signal `recovery.approval`: a decision on a call waiting for approval; ignored, with a worker log line, when
 * it cannot count (prefer `decideApprovalUpdate`).
 */
export const approvalSignal = defineSignal<[ApprovalDecision]>('recovery.approval');
/** The update form of `approvalSignal`: returns the grant as recorded, or is rejected with the reason. */
export const decideApprovalUpdate = defineUpdate<
  ApprovalGrant & { callId: string; approved: boolean },
  [ApprovalDecision]
>('recovery.decideApproval');
/** A query option: `{ arguments: true }` adds the call's arguments in full (`args`), for a person's view. */
export type QueryArguments = { arguments?: boolean };
/** True when a query's raw option asks for the arguments; never throws. */
export const wantsArguments = (o: unknown) =>
  typeof o === 'object' && o !== null && 'arguments' in o && o.arguments === true;

/**
 * Query `recovery.pendingApprovals`: the run's calls waiting for approval, with their argument digests and
 * redacted previews (and, with `{ arguments: true }`, the arguments).
 */
export const pendingApprovalsQuery = defineQuery<PendingApproval[], [QueryArguments?]>('recovery.pendingApprovals');

/**
 * Where an approval request stands:
 * - `waiting`: no decision yet;
 * - `approved`: approved, held before use (`approvalHoldMs`); revocable;
 * - `used`: the call ran again with the approval (once: a second decision is refused);
 * - `denied`: a person declined; the call stopped;
 * - `expired`: no decision before `expiresAtMs`; the call stopped;
 * - `revoked`: approved, then revoked before use; the call stopped.
 */
export type ApprovalState = 'waiting' | 'approved' | 'used' | 'denied' | 'expired' | 'revoked';

/** One approval request of a run and what became of it, as the `recovery.approvalLedger` query shows it. */
export interface ApprovalEntry {
  callId: string;
  tool: string;
  operationId: string;
  /** sha256 hex of the canonical arguments the request was for. */
  argsDigest: string;
  turn: number;
  state: ApprovalState;
  /** When the request began to wait, ms since the epoch (workflow time). */
  sinceMs: number;
  /** When it expires (or expired) without a decision, ms since the epoch. */
  expiresAtMs: number;
  /** The decision taken (approve or deny), with when the run accepted it (ms since the epoch). */
  decision?: ApprovalGrant & { approved: boolean; atMs: number };
  /** With `used`: when the call ran again with the approval, ms since the epoch. */
  usedAtMs?: number;
  /** With `revoked`: who revoked it, why, and when (ms since the epoch). */
  revoked?: { by: string; reason?: string; atMs: number };
}

/** One call of a batch decision: its id and the digest of the arguments it is approved (or denied) for. */
export interface BatchCall {
  callId: string;
  /** The call's `PendingApproval.argsDigest`; each call binds to its own digest. 64 lowercase hex characters. */
  argsDigest: string;
  /** HMAC-SHA256 (hex) of this call's decision, as for `ApprovalDecision.signature`, with an approval key. */
  signature?: string;
}

/**
 * One decision on several waiting calls of a run (e.g. every call of one turn): it covers exactly the listed calls,
 * each bound to its own digest, and is taken for all of them or for none (a call not waiting, decided already, or
 * whose digest differs refuses the whole batch). Parsed by `batchDecisionSchema` (workflows/messages.ts).
 */
export interface BatchApprovalDecision {
  /** 1 to `MAX_BATCH_CALLS` distinct calls. */
  calls: BatchCall[];
  approved: boolean;
  /** Who decided, 1 to 200 characters. */
  by: string;
  /** Why, at most 2,000 characters. */
  reason?: string;
}

/** Most calls one batch decision may name. */
export const MAX_BATCH_CALLS = 100;

/** Revokes an approval that is held and not yet used. */
export interface RevokeApproval {
  callId: string;
  /** Who revokes, 1 to 200 characters. */
  by: string;
  /** Why, at most 2,000 characters. */
  reason?: string;
}

/** The calls of a batch as the run recorded them, in the batch's order. */
export const decideApprovalsUpdate = defineUpdate<
  Array<ApprovalGrant & { callId: string; approved: boolean }>,
  [BatchApprovalDecision]
>('recovery.decideApprovals');
/** Returns the revoked entry, or is rejected with the reason (not approved, already used, expired, …). */
export const revokeApprovalUpdate = defineUpdate<ApprovalEntry, [RevokeApproval]>('recovery.revokeApproval');
/** The run's approval requests, oldest first: the waiting ones and the last `APPROVAL_LEDGER_SIZE` closed ones. */
export const approvalLedgerQuery = defineQuery<ApprovalEntry[]>('recovery.approvalLedger');
