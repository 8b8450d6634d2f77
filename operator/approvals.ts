/**
 * Tool calls that wait for a human approval after a 403 an approval can lift: list them, and send a decision
 * (the `recovery.approval` signal, workflows/definitions.ts).
 */
import type { Client } from '@temporalio/client';
import {
  approvalSignal,
  pendingApprovalsQuery,
  type ApprovalDecision,
  type PendingApproval,
} from '../workflows/definitions';
import { RecoveryTool } from '../workflows/search-attributes';
import { listWaiting } from './waiting';

/** A workflow with a call that waits for approval, as visibility shows it. */
export interface ApprovalListing {
  workflowId: string;
  /** `RecoveryTool`: the tool of the call that began to wait last ('' if unset). */
  tool: string;
  /** When the workflow started, ms since the epoch (each call's own `sinceMs`: `pendingApprovals`). */
  startedAtMs: number;
}

/**
 * Workflows, across the namespace, with a call waiting for approval: the visibility query
 * `RecoveryStatus = "AwaitingApproval" AND ExecutionStatus = "Running"` (Temporal docs: "Visibility"). Their calls
 * and call ids: `pendingApprovals(client, workflowId)`.
 *
 * Visibility is eventually consistent: a workflow that began to wait a moment ago may not be listed yet, and one
 * just decided may still be.
 * @throws the client's `ServiceError` when the server rejects the query (e.g. `RecoveryStatus` not registered).
 */
export async function listApprovals(client: Client): Promise<ApprovalListing[]> {
  return (await listWaiting(client, 'AwaitingApproval')).map((info) => ({
    workflowId: info.workflowId,
    tool: info.typedSearchAttributes.get(RecoveryTool) ?? '',
    startedAtMs: info.startTime.getTime(),
  }));
}

/** The calls of a workflow that wait for approval. */
export function pendingApprovals(client: Client, workflowId: string): Promise<PendingApproval[]> {
  return client.workflow.getHandle(workflowId).query(pendingApprovalsQuery);
}

/** A decision that cannot be sent. */
export class ApprovalError extends Error {
  override readonly name = 'ApprovalError';
}

/**
 * Sends a decision on a waiting call.
 * @throws ApprovalError when `by` is empty or the call is not waiting (checked with the query first, so a
 *   mistyped call id is reported instead of silently ignored by the workflow).
 */
export async function decideApproval(client: Client, workflowId: string, decision: ApprovalDecision): Promise<void> {
  if (!decision.by?.trim()) throw new ApprovalError('an approval decision needs `by`: who decided');
  const pending = await pendingApprovals(client, workflowId);
  if (!pending.some((p) => p.callId === decision.callId)) {
    const waiting = pending.map((p) => p.callId).join(', ') || 'none';
    throw new ApprovalError(
      `call ${decision.callId} of ${workflowId} is not waiting for approval (waiting: ${waiting})`,
    );
  }
  await client.workflow.getHandle(workflowId).signal(approvalSignal, decision);
}
