/**
 * The sandbox-safe entry point (`recovery-router/workflow`), as Temporal's contrib packages have one: import it
 * from workflow code. Node-side parts (plugin, activities, client helpers) are in `index.ts`.
 */
export { createToolRouter, isEmptyResult } from './workflows/tool-router';
export type {
  CallToolOptions,
  ToolOutcome,
  ToolRouter,
  ToolRouterOptions,
  ToolRouterState,
} from './workflows/tool-router';
export { agentWorkflow, AgentStatus } from './workflows/agent';
export type { AgentCarry, AgentOptions, AgentResult } from './workflows/agent';
export { OBSERVATION_KINDS, PlannerDecisionSchema } from './workflows/planner-contract';
export type { Observation, PlannerDecision, PlannerInput } from './workflows/planner-contract';
export { toolPlanWorkflow } from './workflows/tool-plan';
export type { PlannedCall, ToolPlanInput, ToolPlanResult } from './workflows/tool-plan';
export * from './workflows/definitions';
export * from './workflows/search-attributes';
export * from './recovery';
