/**
 * `recovery-router/openai-agents` (Node side): OpenAI Agents function tools (agents-core's `tool()`, or its
 * options) as router tools for `RecoveryPlugin`. Needs `@openai/agents-core` (an optional peer dependency). The
 * other way, router tools as an agent's tool list inside a workflow, is `recovery-router/openai-agents/workflow`.
 *
 *   import { fromAgentsTool } from 'recovery-router/openai-agents';
 *   const plugin = new RecoveryPlugin({ tools: [fromAgentsTool(sendEmailOptions, { effect: 'write', lookup })] });
 */
export { fromAgentsTool } from './activities/interop/openai-agents';
export type { AgentsToolOptions, AnyFunctionTool } from './activities/interop/openai-agents';
export { ApprovalNeededError } from './activities/interop/adopt';
export type { AdoptOptions } from './activities/interop/adopt';
