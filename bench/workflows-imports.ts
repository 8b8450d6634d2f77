/**
 * The "bare + imports" arm: the baseline's one-activity workflow in a bundle that also imports the router's
 * sandbox entry (workflow.ts), not preloaded. It runs nothing of the router; what it costs over bare is what
 * evaluating the router's modules (and zod) costs per workflow run when they are not preloaded. Sandbox-safe.
 */
import { createToolRouter } from '../workflow';

export { bareActivityWorkflow } from './workflows';

/** Keeps the import: a bundler may not drop a module whose export is used. */
export const routerLoaded = typeof createToolRouter === 'function';
