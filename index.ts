/**
 * The Node-side entry point (`recovery-router`): the plugin, tool declarations, planners, configuration, the
 * embedded dev server, the operator's functions and replay checks. Workflow code imports `recovery-router/workflow`
 * instead; the OpenAI planner, the MCP adapter and the Prometheus metrics are `recovery-router/openai`, `/mcp` and
 * `/metrics`, so this entry loads none of their libraries.
 */
export {
  RecoveryPlugin,
  RecoveryPluginOptionsError,
  RECOVERY_PRELOAD_MODULES,
  SearchAttributesError,
} from './plugin/recovery-plugin';
export type { RecoveryPluginOptions } from './plugin/recovery-plugin';
export { NO_TELEMETRY } from './plugin/telemetry';
export type { RecoveryTelemetry } from './plugin/telemetry';

export { defineTool, toolCatalog, ToolDefinitionError } from './activities/define-tool';
export type {
  AnyTool,
  DefinedTool,
  LookupResult,
  RuleViolation,
  ToolDefinition,
  VerifyResult,
} from './activities/define-tool';
export { ALREADY_PHRASES } from './recovery/postcondition';
export type { PostconditionVerdict } from './recovery/postcondition';
export type { ToolContext } from './activities/tool-context';
export { HttpOutcomeError } from './activities/http';
export type { ToolHttp, ToolHttpRequest, ToolHttpResponse } from './activities/http';
export type { ToolClassifier, ToolClassifierAnswer } from './recovery/classify/override';
export type { Idempotency, ToolSpec } from './recovery/tool-spec';
export { CredentialBroker, CredentialRefreshFailed, UnknownCredential } from './activities/credentials';
export type { CredentialProvider } from './activities/credentials';
export type { BreakerOptions, Breakers } from './activities/breaker';
export { SharedBreaker, type SharedBreakerOptions } from './activities/shared-breaker';
export type { SharedCredentialOptions } from './activities/shared-credentials';
export {
  breakerEntityId,
  breakerStateQuery,
  credentialEntityId,
  credentialStateQuery,
  type BreakerEntityState,
  type CredentialEntityState,
} from './workflows/entity-definitions';

export { createPlannerActivities, PlannerOutputError } from './activities/planners/planner';
export type { Planner, PlannerActivityOptions } from './activities/planners/planner';
export {
  createScriptedPlanner,
  loadScriptedPolicy,
  parseScriptedPolicy,
  ScriptedPolicyError,
  ScriptedPolicyErrorCode,
} from './activities/planners/scripted';
export type { ScriptedPolicy } from './activities/planners/scripted';
export type { Observation, PlannerDecision, PlannerInput } from './workflows/planner-contract';

export { ConfigError, loadConfig } from './config/load';
export type { RecoveryConfig, RecoveryConfigInput } from './config/schema';
export { resolveConnection } from './config/connection';
export type { ConnectionTarget } from './config/connection';
export { ensureEmbeddedServer } from './server/dev-server';
export type { EmbeddedServer } from './server/dev-server';
export { findTemporalCli, TemporalCliNotFoundError } from './server/temporal-cli';

export {
  ApprovalError,
  approvalLedger,
  connectClient,
  decideApproval,
  decideApprovals,
  decideReview,
  listApprovals,
  listReviews,
  pendingApprovals,
  ReviewError,
  ReviewErrorCode,
  revokeApproval,
  showReview,
  startDesk,
  hashPassword,
} from './operator';
export type {
  ApprovalListing,
  ApprovalRequest,
  BatchRequest,
  DeskOptions,
  ReviewListing,
  RunningDesk,
} from './operator';
export { signApproval } from './activities/approval-signature';
export type { ApprovalSigningFields } from './activities/approval-signature';
export type { ApprovalActivityOptions } from './activities/approvals';
export { fetchHistoryJSON, replayHistoryFiles, replayWorkflowsFromServer } from './plugin/replay';
export type { ReplayOutcome } from './plugin/replay';

export { RECOVERY_ERROR_BRAND, RecoveryError, isRecoveryError } from './recovery/recovery-error';
export type { CodeOf } from './recovery/recovery-error';
export { FailureClass, FailureReason, Phase } from './recovery/failure';
export { APPLICATION_FAILURE_TYPES, ApplicationFailureType } from './recovery/failure-types';
export type { FieldIssue, ToolFailure } from './recovery/failure';
export type { ModelFeedback } from './recovery/feedback';
export { RecoveryAction } from './recovery/routes';
export { TerminalState } from './recovery/records';
export type { RecoveryRecord } from './recovery/records';
export type { BackoffPolicy } from './recovery/backoff';
export type { BudgetPolicy } from './recovery/budgets';
