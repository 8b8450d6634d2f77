/**
 * The workflows module of a Worker with the plugin and a `workflowsPath` of its own: the user's workflows and the
 * plugin's (workflows/own-workflows.ts, or own-workflows-shared.ts in shared mode), so that no user module has to
 * re-export them (docs/DESIGN.md, "Workflow code and the worker"). The plugin's bundler options resolve the two
 * names below (plugin/workflow-code.ts); a bundle built without them fails to build, naming them. The user's
 * exports win over the plugin's of the same name. Sandbox-safe.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- names the bundler resolves, see above */
const own = require('__recovery_router_own_workflows__') as Record<string, unknown>;
const user = require('__recovery_router_user_workflows__') as Record<string, unknown>;

module.exports = { ...own, ...user };
