/**
 * The plugin's own workflows in shared mode (README, "Several workers"): the reconciliation child and the entities
 * of the shared breaker and credential refresh, put in the bundle beside the user's workflows
 * (workflows/with-plugin.ts). Sandbox-safe.
 */
export { reconcileOperationWorkflow } from './reconcile';
export { breakerEntityWorkflow } from './breaker-entity';
export { credentialEntityWorkflow } from './credential-entity';
