/**
 * `recovery-router/openai-agents/workflow` (sandbox-safe): the router's tools as OpenAI Agents function tools for
 * an agent run under `@temporalio/openai-agents`'s `TemporalOpenAIRunner`, and the run config that routes tool
 * names the model invents. Types only from `@openai/agents-core` (an optional peer dependency).
 *
 *   import { agentsTools, UNTRUSTED_TEXT_NOTE } from 'recovery-router/openai-agents/workflow';
 *   const routed = agentsTools(createToolRouter(defaults));
 *   const agent = new Agent({ ..., instructions: `${yours} ${UNTRUSTED_TEXT_NOTE}`, tools: routed.tools });
 *   await new TemporalOpenAIRunner().run(agent, prompt, { runConfig: routed.runConfig });
 */
export { agentsTools } from './workflows/interop/openai-agents';
export type { AgentsTools } from './workflows/interop/openai-agents';
export { toolResultFor } from './workflows/interop/tool-result';
export { UNTRUSTED_TEXT_NOTE } from './recovery/untrusted';
export type { OutcomeListener, RoutedToolsOptions } from './workflows/interop/tool-result';
