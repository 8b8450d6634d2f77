/**
 * Signal, update and query definitions of the plugin's workflows. Exported definitions, never loose strings
 * (STYLE.md: "signal handles are the exported definitions, not 'approve'"); `client.ts` sends them.
 */
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { RecoveryRecord } from '../recovery/records';

/** A human's decision on a tool call that waits for approval (a 403 the tool says approval can lift). */
export interface ApprovalDecision {
  /** The waiting call's id (`PendingApproval.callId`). */
  callId: string;
  approved: boolean;
  /** Who decided (for the record). */
  by: string;
  reason?: string;
}

/** A call waiting for approval, as the `pendingApprovals` query shows it. */
export interface PendingApproval {
  callId: string;
  tool: string;
  operationId: string;
  /** The failure's public message. */
  message: string;
  /** Since when it waits, ms since the epoch (workflow time). */
  sinceMs: number;
}

export const approvalSignal = defineSignal<[ApprovalDecision]>('recovery.approval');
export const pendingApprovalsQuery = defineQuery<PendingApproval[]>('recovery.pendingApprovals');
export const recoveryRecordsQuery = defineQuery<RecoveryRecord[]>('recovery.records');
