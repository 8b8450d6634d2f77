/**
 * The Temporal server side of a development machine (`recovery-router/server`): the embedded dev server of
 * `temporal.config.json` (started on demand, with the plugin's search attributes), finding the Temporal CLI, and
 * the connection target Temporal's environment configuration names. Node side.
 *
 * @packageDocumentation
 */
export { ensureEmbeddedServer } from './dev-server';
export type { EmbeddedServer } from './dev-server';
export { findTemporalCli, TemporalCliNotFoundError } from './temporal-cli';
export { resolveConnection } from '../config/connection';
export type { ConnectionTarget } from '../config/connection';
