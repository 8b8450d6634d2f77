/**
 * The Node-side entry point (`recovery-router`): the plugin, tool declarations, activities, the credential broker,
 * the breaker, client helpers and configuration. Workflow code imports `recovery-router/workflow` instead.
 */
export { RecoveryPlugin, RecoveryPluginOptionsError, RECOVERY_WORKFLOWS_PATH } from './plugin/recovery-plugin';
export type { RecoveryPluginOptions } from './plugin/recovery-plugin';
export { RecoveryMetrics, RecoveryMetricsOptionsError } from './plugin/metrics';
export type { MetricsServer, RecoveryMetricsOptions } from './plugin/metrics';
export { defineTool, toolCatalog, ToolDefinitionError } from './activities/define-tool';
export type { AnyTool, DefinedTool, LookupResult, RuleViolation, ToolDefinition } from './activities/define-tool';
export type { ToolContext } from './activities/tool-context';
export { HttpOutcomeError } from './activities/http';
export type { ToolHttp, ToolHttpRequest, ToolHttpResponse } from './activities/http';
export { createToolActivities } from './activities/invoke-tool';
export type { ToolActivityDeps, ToolInvocation, ToolInvocationResult } from './activities/invoke-tool';
export { CredentialBroker, CredentialRefreshFailed, UnknownCredential } from './activities/credentials';
export type { CredentialProvider } from './activities/credentials';
export { BreakerRegistry, CircuitOpen } from './activities/breaker';
export type { BreakerOptions } from './activities/breaker';
export { ConfigError, loadConfig, parseConfig } from './config/load';
export { RecoveryConfigSchema } from './config/schema';
export type { RecoveryConfig } from './config/schema';
export { resolveConnection } from './config/connection';
export { ensureEmbeddedServer } from './server/dev-server';
export {
  ApprovalError,
  connectClient,
  decideApproval,
  decideReview,
  listApprovals,
  listReviews,
  pendingApprovals,
  ReviewError,
  ReviewErrorCode,
  showReview,
} from './client';
export { createRecoveryWorker } from './worker';
export { fetchHistoryJSON, replayHistoryFiles, replayWorkflowsFromServer } from './plugin/replay';
export type { ReplayOutcome } from './plugin/replay';
export * from './activities/mcp';
export * from './recovery';
export {
  createPlannerActivities,
  PlannerOutputError,
  PLANNER_INVALID_DECISION,
  PLANNER_INVALID_INPUT,
} from './activities/planners/planner';
export type { Planner, PlannerActivityOptions } from './activities/planners/planner';
export {
  createScriptedPlanner,
  loadScriptedPolicy,
  parseScriptedPolicy,
  ScriptedPolicyError,
  ScriptedPolicySchema,
} from './activities/planners/scripted';
export type { ScriptedPolicy } from './activities/planners/scripted';
export { createOpenAIPlanner, PlannerConfigError, SUBMIT_TOOL } from './activities/planners/openai';
export type { OpenAIPlannerOptions } from './activities/planners/openai';
