/**
 * Types only (`recovery-router/types`): the shapes a client, an operator tool or a test reads and workflow code does
 * not name — a query's answer (approval and review state, the agent's state), a message's payload, the ledgers of
 * `ToolRouterState`, `Reconciled`, `ToolRouterBase` (what the interop adapters take). Loads nothing at run time.
 */
export type { AgentState, UserMessage, LookupRecord, ReviewCase, ReviewDecision } from './workflows/definitions';
export type { ApprovalDecision, ApprovalEntry, ApprovalGrant, ApprovalState } from './workflows/definitions';
export type { BatchApprovalDecision, BatchCall, PendingApproval, RevokeApproval } from './workflows/definitions';
export type { CodeOf } from './recovery/recovery-error';
export type { BudgetLedger } from './recovery/budgets';
export type { CallLedger } from './recovery/call-ledger';
export type { Reconciled, ToolRouterBase } from './workflows/tool-router';
