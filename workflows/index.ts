/** The plugin's workflows (the worker's `workflowsPath`). Sandbox-safe. */
export { toolPlanWorkflow } from './tool-plan';
export { reconcileOperationWorkflow } from './reconcile';
export { agentWorkflow } from './agent';
export { breakerEntityWorkflow } from './breaker-entity';
export { credentialEntityWorkflow } from './credential-entity';
