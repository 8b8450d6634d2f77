/**
 * The plugin's own workflow that every Worker with the plugin runs (docs/DESIGN.md, "Workflow code and the worker"):
 * the reconciliation child of a write whose outcome is unknown. The plugin puts it in the bundle beside the user's
 * workflows (workflows/with-plugin.ts). Sandbox-safe.
 */
export { reconcileOperationWorkflow } from './reconcile';
