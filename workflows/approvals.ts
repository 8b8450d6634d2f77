/**
 * The approval desk of a workflow run: calls that a 403 stopped and that a human may approve wait here for the
 * `recovery.approval` signal (seed 000: "缺少操作权限 → 请求审批或停止"). The `recovery.pendingApprovals` query lists
 * them; while one waits, the run's RecoveryStatus search attribute is `AwaitingApproval`.
 */
import { condition, log, setHandler, upsertSearchAttributes } from '@temporalio/workflow';
import { approvalSignal, pendingApprovalsQuery, type ApprovalDecision, type PendingApproval } from './definitions';
import { RecoveryStatus, RecoveryTool } from './search-attributes';

export interface ApprovalDesk {
  /**
   * Waits for a decision on `call`, at most `timeoutMs` (ms). Resolves with the decision, or `undefined` when
   * none arrived in time.
   */
  wait(call: Omit<PendingApproval, 'sinceMs'>): Promise<ApprovalDecision | undefined>;
}

/** Registers the signal and query handlers. Call once per run. */
export function createApprovalDesk(options: { timeoutMs: number; searchAttributes: boolean }): ApprovalDesk {
  const pending = new Map<string, PendingApproval>();
  const decisions = new Map<string, ApprovalDecision>();
  setHandler(approvalSignal, (d) => {
    // Only a well-formed decision counts, and only `approved: true` approves ("false", 1 or "yes" do not).
    const wellFormed =
      d &&
      typeof d.callId === 'string' &&
      typeof d.approved === 'boolean' &&
      typeof d.by === 'string' &&
      d.by.trim() !== '';
    if (wellFormed && pending.has(d.callId))
      decisions.set(d.callId, {
        callId: d.callId,
        approved: d.approved,
        by: d.by,
        ...(typeof d.reason === 'string' ? { reason: d.reason } : {}),
      });
    else log.warn('approval decision ignored: malformed, or no such call waits', { callId: String(d?.callId) });
  });
  setHandler(pendingApprovalsQuery, () => [...pending.values()]);

  return {
    async wait(call) {
      pending.set(call.callId, { ...call, sinceMs: Date.now() });
      if (options.searchAttributes) {
        upsertSearchAttributes([
          { key: RecoveryStatus, value: 'AwaitingApproval' },
          { key: RecoveryTool, value: call.tool },
        ]);
      }
      const arrived = await condition(() => decisions.has(call.callId), options.timeoutMs);
      pending.delete(call.callId);
      // Another call of this run may still wait: the run stays listed as AwaitingApproval until none does.
      if (options.searchAttributes && pending.size === 0) {
        upsertSearchAttributes([{ key: RecoveryStatus, value: arrived ? 'Resumed' : 'ApprovalTimedOut' }]);
      }
      const decision = decisions.get(call.callId);
      decisions.delete(call.callId);
      return arrived ? decision : undefined;
    },
  };
}
