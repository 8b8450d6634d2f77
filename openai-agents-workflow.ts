/**
 * `recovery-router/openai-agents/workflow` (sandbox-safe): the router's tools as OpenAI Agents function tools for
 * an agent run under `@temporalio/openai-agents`'s `TemporalOpenAIRunner`, and the run config that routes tool
 * names the model invents. Types only from `@openai/agents-core` (an optional peer dependency).
 *
 *   import { agentsTools } from 'recovery-router/openai-agents/workflow';
 *   const routed = agentsTools(createToolRouter(defaults));
 *   await new TemporalOpenAIRunner().run(new Agent({ ..., tools: routed.tools }), prompt, { runConfig: routed.runConfig });
 */
export { agentsTools } from './workflows/interop/openai-agents';
export type { AgentsTools } from './workflows/interop/openai-agents';
export { toolResultFor } from './workflows/interop/tool-result';
export type { OutcomeListener, RoutedToolsOptions } from './workflows/interop/tool-result';
