/**
 * The plugin's workflows (`recovery-router/workflows`): the worker's workflows when it has no `workflowsPath`; with
 * one, re-export those you run (`export { agentWorkflow } from 'recovery-router/workflows'`). The plugin adds the
 * reconcile child, and the entities in shared mode, by itself. Beside them, their input and result types (and
 * `AgentStatus`), for clients: `client.workflow.start<typeof agentWorkflow>`. Sandbox-safe.
 */
export { toolPlanWorkflow } from './tool-plan';
export { reconcileOperationWorkflow } from './reconcile';
export { agentWorkflow } from './agent';
export { AgentStatus } from './agent-types';
export type { AgentCarry, AgentOptions, AgentResult } from './agent-types';
export type { PlannedCall, ToolPlanInput, ToolPlanResult } from './tool-plan';
export type { Observation, PlannerDecision, PlannerInput } from './planner-contract';
export type { ReconcileInput, ReconcileResult } from './reconcile';
export { breakerEntityWorkflow } from './breaker-entity';
export { credentialEntityWorkflow } from './credential-entity';
