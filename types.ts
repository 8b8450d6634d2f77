/**
 * Types only (`recovery-router/types`): the shapes a client, an operator tool or a test reads and workflow code does
 * not name — a query's answer (recovery records, approval and review state, the agent's state), a message's payload,
 * the ledgers of `ToolRouterState`, the parts of a `ToolOutcome`. Loads nothing: every export is a type.
 */
export type { AgentState, UserMessage, LookupRecord, ReviewCase, ReviewDecision } from './workflows/definitions';
export type { ApprovalDecision, ApprovalEntry, ApprovalGrant, ApprovalState } from './workflows/definitions';
export type { BatchApprovalDecision, BatchCall, PendingApproval, RevokeApproval } from './workflows/definitions';
export type { RecoveryRecord } from './recovery/records';
export type { CodeOf } from './recovery/recovery-error';
export type { BudgetLedger } from './recovery/budgets';
export type { CallLedger } from './recovery/call-ledger';
export type { Reconciled } from './workflows/tool-router';
export type { OmittedValue } from './recovery/bounds';
