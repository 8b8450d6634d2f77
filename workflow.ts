/**
 * The sandbox-safe entry point (`recovery-router/workflow`), as Temporal's contrib packages have one
 * (contrib/openai-agents/src/workflow.ts: each workflow-safe function with its options): what a workflow written
 * with the router imports, in at most 40 names (test/unit/entry-points.test.ts) — the router and its types, the
 * options it takes, the failure vocabulary an outcome is branched on, and the message definitions a workflow or
 * client sends. Elsewhere: the plugin's workflows and their input and result types in `recovery-router/workflows`;
 * what only a client, operator tool or test reads (ledgers, approval and review state, message payloads) in
 * `recovery-router/types`; search attributes and `reconcileWorkflowId` in `recovery-router/operator`. A worker with
 * the plugin adds the plugin's own workflows to its bundle and supplies the catalog and policy: no re-export, no tools
 * in the workflow's input (docs/DESIGN.md, "Workflow code and the worker").
 */
export { createToolRouter, isEmptyResult } from './workflows/tool-router';
export type { ToolRouter, ToolRouterOptions, ToolRouterState } from './workflows/tool-router';
export type { CallToolOptions, ToolInput, ToolName, ToolOutcome, ToolOutput } from './workflows/tool-router';
// What a workflow's inferred return type may name (an outcome's omitted value, `router.records()`): declarations of
// workflow code compile only when these are reachable from the module it imports (TypeScript's TS2742).
export type { OmittedValue } from './recovery/bounds';
export type { RecoveryRecord } from './recovery/records';
export type { Capability, ToolSpec } from './recovery/tool-spec';
export type { BackoffPolicy } from './recovery/backoff';
export { ExhaustedBudget, type BudgetPolicy } from './recovery/budgets';
export type { ReconcileOptions } from './workflows/reconcile-call';
export { RecoveryError, isRecoveryError } from './recovery/recovery-error';
export { FailureClass, FailureReason, Phase, type FieldIssue, type ToolFailure } from './recovery/failure';
export { ApplicationFailureType } from './recovery/failure-types';
export { RecoveryAction } from './recovery/routes';
export type { ModelFeedback } from './recovery/feedback';
// Signals, queries and updates: the definitions a workflow's handlers and a client's handle both use.
export { approvalSignal, reviewDecisionSignal, userMessageSignal } from './workflows/definitions';
export { agentStateQuery, approvalLedgerQuery, pendingApprovalsQuery, reviewCaseQuery } from './workflows/definitions';
export { recoveryRecordsQuery, revokeApprovalUpdate } from './workflows/definitions';
export { decideApprovalsUpdate, decideApprovalUpdate, decideReviewUpdate } from './workflows/definitions';
