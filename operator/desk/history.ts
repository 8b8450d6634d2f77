/**
 * The history page's rows: each decision a run recorded, with who took it and when. From an approval ledger
 * (`recovery.approvalLedger`: approved, used, denied, revoked; an expiry is a row with nobody) and a review case
 * (`recovery.reviewCase`: its last decision). Node side; pure.
 */
import type { ApprovalEntry, ReviewCase } from '../../workflows/definitions';

export interface HistoryItem {
  kind: 'approval' | 'review';
  workflowId: string;
  tool: string;
  /** The call id (approval) or the operation id (review). */
  subject: string;
  /**
   * approval: `approved` (held, not yet used), `used`, `denied`, `expired`, `revoked`; review: `mark_applied`,
   * `replay`, `abandon`; either: `unreadable` (no worker answered the run's query: its decisions cannot be listed,
   * `reason` says why, `tool` and `subject` are empty, `atMs` is the run's start), never a silent gap.
   */
  outcome: string;
  /** Who decided (or revoked); absent for an expiry. */
  by?: string;
  /** The client identity Temporal recorded for the decision, when the worker read it. */
  identity?: string;
  reason?: string;
  /** When, ms since the epoch (workflow time). */
  atMs: number;
}

/** One row per decided, expired or revoked request of the ledger. */
export function historyOfLedger(workflowId: string, entries: readonly ApprovalEntry[]): HistoryItem[] {
  const rows: HistoryItem[] = [];
  for (const e of entries) {
    const base = { kind: 'approval' as const, workflowId, tool: e.tool, subject: e.callId };
    if (e.state === 'expired') rows.push({ ...base, outcome: 'expired', atMs: e.expiresAtMs });
    const d = e.decision;
    if (d) {
      rows.push({
        ...base,
        outcome: d.approved ? (e.state === 'used' ? 'used' : 'approved') : 'denied',
        by: d.by,
        ...(d.identity ? { identity: d.identity } : {}),
        ...(d.reason ? { reason: d.reason } : {}),
        atMs: d.atMs,
      });
    }
    if (e.revoked) {
      const { by, reason, atMs } = e.revoked;
      rows.push({ ...base, outcome: 'revoked', by, ...(reason ? { reason } : {}), atMs });
    }
  }
  return rows;
}

/**
 * The row of a run whose decisions cannot be read now (its query unanswered): shown, not left out, so the page never
 * looks complete when it is not. `why` is the desk's line (views.ts, `blindLine`); `startedAtMs` in ms since the epoch.
 */
export function unreadableRun(workflowId: string, isReview: boolean, why: string, startedAtMs: number): HistoryItem {
  return {
    kind: isReview ? 'review' : 'approval',
    workflowId,
    tool: '',
    subject: '',
    outcome: 'unreadable',
    reason: why,
    atMs: startedAtMs,
  };
}

/** The case's last decision, if it has one. */
export function historyOfCase(workflowId: string, c: ReviewCase): HistoryItem[] {
  const d = c.decision;
  if (!d) return [];
  return [
    {
      kind: 'review',
      workflowId,
      tool: c.tool,
      subject: c.operationId,
      outcome: d.decision,
      by: d.by,
      reason: d.resultRef ? `${d.reason} (result ${d.resultRef})` : d.reason,
      atMs: d.atMs,
    },
  ];
}
