/**
 * The sandbox-safe entry point (`recovery-router/workflow`), as Temporal's contrib packages have one: import it
 * from workflow code. It pulls only the router, the reconcile child it starts, the message definitions and the pure
 * core they use into a workflow bundle; the plugin's other workflows (`agentWorkflow`, `toolPlanWorkflow`, the
 * shared-mode entities) are in `recovery-router/workflows` (workflows/index.ts), and only their types are here, for
 * clients (`client.workflow.start<typeof agentWorkflow>`). Node-side parts (plugin, activities, client functions)
 * are in the package's main entry.
 *
 * A worker with the plugin adds the plugin's own workflows (the reconcile child, and the shared-mode entities) to its
 * bundle beside a `workflowsPath` of its own, and supplies the catalog and policy: no re-export, no tools in the
 * workflow's input (docs/DESIGN.md, "Workflow code and the worker").
 */
export { createToolRouter, isEmptyResult } from './workflows/tool-router';
export type {
  CallToolOptions,
  Reconciled,
  ToolInput,
  ToolName,
  ToolOutcome,
  ToolOutput,
  ToolRouter,
  ToolRouterBase,
  ToolRouterOptions,
  ToolRouterState,
} from './workflows/tool-router';
// A write's success whose value could not be carried has this marker as its value (ToolOutcome's `value_omitted`).
export type { OmittedValue } from './recovery/bounds';
export { reconcileOperationWorkflow } from './workflows/reconcile';
export type { ReconcileInput, ReconcileResult } from './workflows/reconcile';
// Types only: the workflows themselves are in `recovery-router/workflows`, so a router's bundle has none of them.
export type { agentWorkflow } from './workflows/agent';
export { AgentStatus } from './workflows/agent-types';
export type { AgentCarry, AgentOptions, AgentResult } from './workflows/agent-types';
export type { toolPlanWorkflow, PlannedCall, ToolPlanInput, ToolPlanResult } from './workflows/tool-plan';
export type { Observation, PlannerDecision, PlannerInput } from './workflows/planner-contract';
export {
  agentStateQuery,
  approvalLedgerQuery,
  approvalSignal,
  decideApprovalsUpdate,
  decideApprovalUpdate,
  MAX_BATCH_CALLS,
  decideReviewUpdate,
  pendingApprovalsQuery,
  reconcileWorkflowId,
  revokeApprovalUpdate,
  recoveryRecordsQuery,
  reviewCaseQuery,
  reviewDecisionSignal,
  userMessageSignal,
} from './workflows/definitions';
export type {
  AgentState,
  ApprovalDecision,
  ApprovalEntry,
  ApprovalGrant,
  ApprovalState,
  BatchApprovalDecision,
  BatchCall,
  LookupRecord,
  PendingApproval,
  ReviewCase,
  ReviewDecision,
  RevokeApproval,
  UserMessage,
} from './workflows/definitions';
export { RecoveryOperationId, RecoveryStatus, RecoveryTool, SEARCH_ATTRIBUTES } from './workflows/search-attributes';
export { RECOVERY_ERROR_BRAND, RecoveryError, isRecoveryError } from './recovery/recovery-error';
export type { CodeOf } from './recovery/recovery-error';
export { FailureClass, FailureReason, Phase } from './recovery/failure';
export { APPLICATION_FAILURE_TYPES, ApplicationFailureType } from './recovery/failure-types';
export type { FieldIssue, ToolFailure } from './recovery/failure';
export { RecoveryAction } from './recovery/routes';
export { TerminalState } from './recovery/records';
export type { RecoveryRecord } from './recovery/records';
export type { Capability, ToolSpec } from './recovery/tool-spec';
export type { ModelFeedback } from './recovery/feedback';
export type { BackoffPolicy } from './recovery/backoff';
export { ExhaustedBudget } from './recovery/budgets';
export type { BudgetLedger, BudgetPolicy } from './recovery/budgets';
export type { CallLedger } from './recovery/call-ledger';
export type { ReconcileOptions } from './workflows/reconcile-call';
