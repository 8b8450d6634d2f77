/**
 * The entity workflows alone (docs/DESIGN.md, "Circuit breaker": shared mode): the `workflowsPath` of the Worker the
 * plugin runs on the entities' own task queue (plugin/entity-worker.ts). Sandbox-safe.
 */
export { breakerEntityWorkflow } from './breaker-entity';
export { credentialEntityWorkflow } from './credential-entity';
