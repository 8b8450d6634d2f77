/**
 * The Node-side entry point (`recovery-router`): what a worker needs, in 40 names — the plugin, tool declarations,
 * credentials, the planner activity, configuration, and the types of the plugin's options.
 *
 * Elsewhere:
 * - `recovery-router/workflow`: workflow code (the router and its options, signals, queries, updates, and the failure
 *   vocabulary: `ToolFailure`, `FailureClass`, `RecoveryAction`, `RecoveryError`, …);
 * - `recovery-router/workflows`: the plugin's workflows and their input and result types (`PlannerInput`, …);
 * - `recovery-router/types`: types a client or operator tool reads (`RecoveryRecord`, approval and review state);
 * - `recovery-router/operator`: approvals, reviews, the desk, shadow mode and its report, shared-mode entity state,
 *   trace attribute names, search attributes;
 * - `recovery-router/testing`: history replay, the scripted planner, the classifier's vocabulary;
 * - `recovery-router/server`: the embedded dev server, the Temporal CLI, the connection target;
 * - `recovery-router/openai`, `/mcp`, `/metrics`, `/ai-sdk`, `/openai-agents`: integrations with optional peers,
 *   which this entry never loads.
 *
 * @packageDocumentation
 */
export {
  RecoveryPlugin,
  RecoveryPluginOptionsError,
  RECOVERY_PRELOAD_MODULES,
  SearchAttributesError,
} from './plugin/recovery-plugin';
export type { RecoveryPluginOptions } from './plugin/recovery-plugin';
export type { RecoveryTelemetry } from './plugin/telemetry';
export type { TracingOptions } from './activities/tracing/tracing';

export { defineTool, ToolDefinitionError } from './activities/define-tool';
export type {
  AnyTool,
  DefinedTool,
  LookupResult,
  RuleViolation,
  ToolDefinition,
  VerifyResult,
} from './activities/define-tool';
export type { PostconditionVerdict } from './recovery/postcondition';
export type { ToolContext } from './activities/tool-context';
export { HttpOutcomeError, ToolHttpRequestError } from './activities/http';
export type { ToolHttp, ToolHttpRequest, ToolHttpResponse } from './activities/http';
export type { ToolClassifier, ToolClassifierAnswer } from './recovery/classify/override';
export type { Idempotency } from './recovery/tool-spec';

export { CredentialBroker } from './activities/credentials';
export type { CredentialProvider } from './activities/credentials';
export type { BreakerOptions } from './activities/breaker';
export type { SharedBreakerOptions } from './activities/shared-breaker';
export type { SharedCredentialOptions } from './activities/shared-credentials';
export type { ApprovalActivityOptions } from './activities/approvals';

export { createPlannerActivities, PlannerOutputError } from './activities/planners/planner';
export type { Planner, PlannerActivityOptions } from './activities/planners/planner';

export { ConfigError, loadConfig } from './config/load';
export type { RecoveryConfig, RecoveryConfigInput } from './config/schema';
