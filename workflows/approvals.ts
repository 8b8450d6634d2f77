/**
 * The approval desk of a workflow run: calls that a 403 stopped and that a human may approve wait here as approval
 * requests (docs/DESIGN.md, "Routes": a missing permission means "request approval or stop"; the lifecycle:
 * docs/approvals.md). The `recovery.pendingApprovals` query lists the open ones with the tool, a redacted preview of
 * the arguments, their digest and when they expire; `recovery.approvalLedger` lists every request of the run and
 * what became of it. While one is open, the run's RecoveryStatus search attribute is `AwaitingApproval`.
 *
 * A decision arrives by the `recovery.decideApproval` update (preferred), the `recovery.approval` signal, or for
 * several calls at once the `recovery.decideApprovals` update. It counts only when all of these hold, else it is
 * refused (update: rejected with the reason; signal: ignored, logged):
 * - it parses (workflows/messages.ts: strict, bounded);
 * - its call waits here undecided and not expired, and its `argsDigest` is the waiting call's (an approval binds to
 *   exactly those arguments; in a batch, each call to its own);
 * - the worker confirms it (`confirmApproval`, activities/approvals.ts): a valid signature when the worker has an
 *   approval key, and the approver's identity as Temporal recorded it.
 * The first confirmed decision on a call wins; a batch is taken for all its calls or for none. An approval is used
 * once: the call runs again with it after the hold (`approvalHoldMs`, default 0), during which
 * `recovery.revokeApproval` withdraws it. A request nobody decides expires after `approvalTimeoutMs`.
 * Handlers never throw on any input.
 */
import { condition, proxyActivities, upsertSearchAttributes } from '@temporalio/workflow';
import type { ApprovalConfirmation, ApprovalVerdict, createApprovalActivities } from '../activities/approvals';
import { registerApprovalHandlers } from './approval-handlers';
import { openRequest, openRequests, type ApprovalBook, type ApprovalRequest } from './approval-ledger';
import type { ApprovalGrant, PendingApproval } from './definitions';
import { RecoveryStatus, RecoveryTool } from './search-attributes';

/** A decision the desk accepted. */
export type AcceptedDecision = ApprovalGrant & { approved: boolean };

/** How an approval request ended for the waiting call. */
export type ApprovalOutcome =
  | { kind: 'approved'; grant: AcceptedDecision }
  | { kind: 'denied'; grant: AcceptedDecision }
  /** No decision within `afterMs` (ms). */
  | { kind: 'expired'; afterMs: number }
  /** Approved, then revoked during the hold. */
  | { kind: 'revoked' };

/** The call as the router opens its request. */
export type ApprovalCall = Omit<PendingApproval, 'sinceMs' | 'expiresAtMs' | 'state' | 'holdUntilMs'>;

export interface ApprovalDesk {
  /** Opens a request for `call` and waits until it is decided (and held, when approved) or expires. */
  wait(call: ApprovalCall): Promise<ApprovalOutcome>;
}

export interface ApprovalDeskOptions {
  /** How long a request waits for a decision before it expires, in ms. */
  timeoutMs: number;
  /** How long an approved call waits before it runs, in ms; it can be revoked meanwhile. 0: runs at once. */
  holdMs: number;
  searchAttributes: boolean;
}

type ApprovalActivities = ReturnType<typeof createApprovalActivities>;

/** One run's desk: its requests, the worker's check and the hold. */
export interface Desk {
  book: ApprovalBook;
  confirmApproval: (request: ApprovalConfirmation) => Promise<ApprovalVerdict>;
  holdMs: number;
}

/** Registers the signal, update and query handlers. Call once per run. */
export function createApprovalDesk(options: ApprovalDeskOptions): ApprovalDesk {
  const { confirmApproval } = proxyActivities<ApprovalActivities>({
    startToCloseTimeout: '10s',
    retry: { maximumAttempts: 3, initialInterval: '200ms' },
  });
  const desk: Desk = { book: new Map(), confirmApproval, holdMs: options.holdMs };
  registerApprovalHandlers(desk);
  return { wait: (call) => waitFor(desk, options, call) };
}

/** `ApprovalDesk.wait`: opens the request, waits for its decision and sets RecoveryStatus around the wait. */
async function waitFor(desk: Desk, options: ApprovalDeskOptions, call: ApprovalCall): Promise<ApprovalOutcome> {
  const request = openRequest(desk.book, call, Date.now(), options.timeoutMs);
  if (options.searchAttributes) {
    upsertSearchAttributes([
      { key: RecoveryStatus, value: 'AwaitingApproval' },
      { key: RecoveryTool, value: call.tool },
    ]);
  }
  // A decision accepted in the activation whose timer fired counts: the caller was told it was taken.
  const arrived = (await condition(() => request.accepted !== undefined, options.timeoutMs)) || !!request.accepted;
  if (arrived && request.entry.state === 'approved' && options.holdMs > 0) {
    await condition(() => request.entry.state === 'revoked', options.holdMs);
  }
  const outcome = arrived ? take(request) : expire(request, options.timeoutMs);
  // Another call of this run may still wait: the run stays listed as AwaitingApproval until none does.
  if (options.searchAttributes && openRequests(desk.book).length === 0) {
    upsertSearchAttributes([{ key: RecoveryStatus, value: arrived ? 'Resumed' : 'ApprovalTimedOut' }]);
  }
  return outcome;
}

/** The decided request's outcome; an approval not revoked is used now, once. */
function take(request: ApprovalRequest): ApprovalOutcome {
  const { entry } = request;
  const grant = request.accepted as AcceptedDecision;
  request.accepted = undefined;
  if (entry.state === 'revoked') return { kind: 'revoked' };
  if (!grant.approved) return { kind: 'denied', grant };
  entry.state = 'used';
  entry.usedAtMs = Date.now();
  return { kind: 'approved', grant };
}

function expire(request: ApprovalRequest, afterMs: number): ApprovalOutcome {
  request.entry.state = 'expired';
  return { kind: 'expired', afterMs };
}
