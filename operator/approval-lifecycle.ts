/**
 * The rest of an approval's lifecycle from code (docs/approvals.md, "Lifecycle"): decide several waiting calls of a
 * run at once (`recovery.decideApprovals`, each call bound to its own digest, all or none), revoke an approval held
 * before use (`recovery.revokeApproval`), and read a run's approval ledger (`recovery.approvalLedger`). Node side.
 */
import type { Client } from '@temporalio/client';
import { signApproval } from '../activities/approval-signature';
import {
  approvalLedgerQuery,
  decideApprovalsUpdate,
  revokeApprovalUpdate,
  type ApprovalEntry,
  type ApprovalGrant,
  type BatchApprovalDecision,
  type BatchCall,
  type PendingApproval,
  type RevokeApproval,
} from '../workflows/definitions';
import { batchDecisionSchema, parseMessage, revokeApprovalSchema } from '../workflows/messages';
import { ApprovalError, notWaiting, pendingApprovals, sending, signingKeyOf } from './approvals';

/** A batch as `decideApprovals` takes it: each call's signature is computed when a signing key is given. */
export type BatchRequest = Omit<BatchApprovalDecision, 'calls'> & { calls: Array<Omit<BatchCall, 'signature'>> };

/**
 * Sends one decision on several waiting calls of `workflowId` with the `recovery.decideApprovals` UPDATE: it covers
 * exactly the listed calls, each bound to its own `argsDigest`, and is taken for all of them or for none.
 * @param options.signingKey the approval key (≥ 32 bytes) when the workers require signed approvals: each call gets
 *   its own signature over workflow, call, tool, digest and decision.
 * @param options.pending the run's waiting calls as the caller just queried them (else queried here).
 * @returns the grants as the run recorded them, in the batch's order.
 * @throws ApprovalError before sending when the batch is malformed (no calls, a call twice, more than 100, a digest
 *   that is not 64 hex characters, an empty `by`) or the key is short; when a listed call is not waiting (checked
 *   with the query first); when the workflow is missing or refuses the batch (the message is its reason).
 */
export async function decideApprovals(
  client: Client,
  workflowId: string,
  batch: BatchRequest,
  options: { signingKey?: string | Uint8Array; pending?: readonly PendingApproval[] } = {},
): Promise<Array<ApprovalGrant & { callId: string; approved: boolean }>> {
  const parsed = parseMessage(batchDecisionSchema(), batch, 'batch decision');
  if (!parsed.ok) throw new ApprovalError(parsed.why);
  const key = signingKeyOf(options);
  return sending(workflowId, async () => {
    const pending = options.pending ?? (await pendingApprovals(client, workflowId));
    const missing = parsed.value.calls.find((c) => !pending.some((p) => p.callId === c.callId));
    if (missing) throw new ApprovalError(await notWaiting(client, workflowId, missing.callId, pending));
    const calls: BatchApprovalDecision['calls'] = parsed.value.calls.map((c) => {
      const tool = pending.find((p) => p.callId === c.callId)!.tool;
      if (key === undefined) return { callId: c.callId, argsDigest: c.argsDigest };
      const fields = { workflowId, callId: c.callId, tool, argsDigest: c.argsDigest, approved: batch.approved };
      return { ...c, signature: signApproval(key, fields) };
    });
    const decision: BatchApprovalDecision = { ...parsed.value, calls };
    return client.workflow.getHandle(workflowId).executeUpdate(decideApprovalsUpdate, { args: [decision] });
  });
}

/**
 * Revokes an approval that is held before use (the run's `approvalHoldMs`) with the `recovery.revokeApproval`
 * UPDATE: the call then stops ("The approval was revoked before it was used").
 * @returns the request's ledger entry, `state: 'revoked'`.
 * @throws ApprovalError before sending when `callId` or `by` is empty; when the workflow is missing; when the run
 *   refuses (the call is not approved, its approval was already used, it expired …: the message says which).
 */
export async function revokeApproval(
  client: Client,
  workflowId: string,
  revoke: RevokeApproval,
): Promise<ApprovalEntry> {
  const parsed = parseMessage(revokeApprovalSchema(), revoke, 'revocation');
  if (!parsed.ok) throw new ApprovalError(parsed.why);
  return sending(workflowId, () =>
    client.workflow.getHandle(workflowId).executeUpdate(revokeApprovalUpdate, { args: [parsed.value] }),
  );
}

/**
 * A run's approval requests and what became of them (waiting, approved, used, denied, expired, revoked), oldest
 * first. Works on a closed run too, while a worker can answer the query.
 * @throws ApprovalError when the workflow does not exist.
 */
export function approvalLedger(client: Client, workflowId: string): Promise<ApprovalEntry[]> {
  return sending(workflowId, () => client.workflow.getHandle(workflowId).query(approvalLedgerQuery));
}
