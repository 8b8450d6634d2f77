/**
 * The plugin's workflows (`recovery-router/workflows`): the worker's workflows when it has no `workflowsPath`; with
 * one, re-export those you run (`export { agentWorkflow } from 'recovery-router/workflows'`). The plugin adds the
 * reconcile child, and the entities in shared mode, by itself. Sandbox-safe.
 */
export { toolPlanWorkflow } from './tool-plan';
export { reconcileOperationWorkflow } from './reconcile';
export { agentWorkflow } from './agent';
export { breakerEntityWorkflow } from './breaker-entity';
export { credentialEntityWorkflow } from './credential-entity';
