/**
 * The approval requests of one run and their lifecycle (docs/approvals.md, "Lifecycle"): each request is
 * `waiting`, then `approved` (held, revocable) and `used`, or `denied`, `expired` or `revoked`. This module holds
 * the state and the rules that refuse a decision; workflows/approvals.ts registers the handlers and waits.
 * Refusal reasons are public: they name the call id and a state, never a value of the decision but the call id.
 * Sandbox-safe: no clock of its own (times come in as `nowMs`, workflow time).
 */
import type { AcceptedDecision } from './approvals';
import type { ApprovalEntry, PendingApproval } from './definitions';

/** Closed requests kept per run for the ledger query and for refusals that say why ("used", "expired"). */
export const APPROVAL_LEDGER_SIZE = 200;

/** One request: what the desk shows, what the ledger records, and the accepted decision not yet taken. */
export interface ApprovalRequest {
  view: PendingApproval;
  /** The arguments the digest covers: shown only to a query that asks for them (`{ arguments: true }`). */
  args: unknown;
  entry: ApprovalEntry;
  /** Set when a decision is accepted; the waiting call takes it. */
  accepted?: AcceptedDecision;
}

/** The requests of one run by call id, in the order they began to wait. */
export type ApprovalBook = Map<string, ApprovalRequest>;

/** The call ids and digests a decision names. */
export interface Named {
  callId: string;
  argsDigest: string;
}

const quoted = (callId: string) => JSON.stringify(callId);
/** A time in ms since the epoch as ISO 8601 (UTC), as the ledger's reasons and the operator's commands say it. */
export const iso = (ms: number) => new Date(ms).toISOString();

/** Why a request in `entry`'s state can no longer be decided, or undefined while it waits. */
export function closedReason(entry: ApprovalEntry): string | undefined {
  const call = `call ${quoted(entry.callId)}`;
  switch (entry.state) {
    case 'waiting':
      return undefined;
    case 'approved':
      return `${call} is already decided (approved by ${entry.decision?.by ?? 'someone'}; not yet used)`;
    case 'used':
      return `${call} was approved and the approval was used at ${iso(entry.usedAtMs ?? 0)}: an approval is used once`;
    case 'denied':
      return `${call} is already decided (denied by ${entry.decision?.by ?? 'someone'})`;
    case 'expired':
      return `the approval request of ${call} expired at ${iso(entry.expiresAtMs)}; it can no longer be decided`;
    case 'revoked':
      return `the approval of ${call} was revoked by ${entry.revoked?.by ?? 'someone'}; it can no longer be decided`;
  }
}

/** Why a decision on `d` cannot count now, or undefined. */
export function refusal(book: ApprovalBook, d: Named): string | undefined {
  const request = book.get(d.callId);
  if (!request) return `call ${quoted(d.callId)} is not waiting for approval`;
  const closed = closedReason(request.entry);
  if (closed) return closed;
  if (request.accepted) return `call ${quoted(d.callId)} is already decided`;
  if (request.entry.argsDigest !== d.argsDigest)
    return 'argsDigest is not the digest of the waiting call: approve what it shows';
  return undefined;
}

/** Why `callId`'s approval cannot be revoked now, or undefined (only an approval held before use can be). */
export function revokeRefusal(book: ApprovalBook, callId: string): string | undefined {
  const entry = book.get(callId)?.entry;
  const call = `call ${quoted(callId)}`;
  if (!entry) return `${call} has no approval request`;
  switch (entry.state) {
    case 'approved':
      return undefined;
    case 'waiting':
      return `${call} is not approved yet: deny it instead`;
    case 'used':
      return `the approval of ${call} was already used at ${iso(entry.usedAtMs ?? 0)}: it cannot be revoked`;
    default:
      return `${call} is ${entry.state}: there is no approval to revoke`;
  }
}

/** Opens a request for `call` (a call id waiting again replaces its closed entry) and returns it. */
export function openRequest(
  book: ApprovalBook,
  call: Omit<PendingApproval, 'sinceMs' | 'expiresAtMs' | 'state'>,
  nowMs: number,
  timeoutMs: number,
): ApprovalRequest {
  const expiresAtMs = nowMs + timeoutMs;
  const { args, ...shown } = call;
  const view: PendingApproval = { ...shown, sinceMs: nowMs, expiresAtMs, state: 'waiting' };
  const entry: ApprovalEntry = {
    callId: call.callId,
    tool: call.tool,
    operationId: call.operationId,
    argsDigest: call.argsDigest,
    turn: call.turn,
    state: 'waiting',
    sinceMs: nowMs,
    expiresAtMs,
  };
  book.delete(call.callId);
  const request: ApprovalRequest = { view, args, entry };
  book.set(call.callId, request);
  prune(book);
  return request;
}

/** Records an accepted decision: `approved` (held until `holdUntilMs`) or `denied`. */
export function accept(request: ApprovalRequest, decision: AcceptedDecision, nowMs: number, holdMs: number): void {
  request.accepted = decision;
  request.entry.decision = { ...decision, atMs: nowMs };
  request.entry.state = decision.approved ? 'approved' : 'denied';
  if (decision.approved) {
    request.view.state = 'approved';
    request.view.holdUntilMs = nowMs + holdMs;
  }
}

/** The requests a person can still act on: waiting, or approved and held; with their arguments when asked. */
export function openRequests(book: ApprovalBook, withArgs = false): PendingApproval[] {
  return [...book.values()]
    .filter((r) => r.entry.state === 'waiting' || r.entry.state === 'approved')
    .map((r) => (withArgs ? { ...r.view, args: r.args } : { ...r.view }));
}

/** The ledger, oldest first (copies). */
export function ledger(book: ApprovalBook): ApprovalEntry[] {
  return [...book.values()].map((r) => ({ ...r.entry }));
}

/** Drops the oldest closed requests beyond `APPROVAL_LEDGER_SIZE`; open ones are never dropped. */
function prune(book: ApprovalBook): void {
  let excess = book.size - APPROVAL_LEDGER_SIZE;
  for (const [callId, r] of book) {
    if (excess <= 0) return;
    if (r.entry.state === 'waiting' || r.entry.state === 'approved') continue;
    book.delete(callId);
    excess -= 1;
  }
}
