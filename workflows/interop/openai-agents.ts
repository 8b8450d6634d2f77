/**
 * Router tools as OpenAI Agents function tools, for an agent run under `@temporalio/openai-agents`'s
 * `TemporalOpenAIRunner` in workflow code (model calls run as its activities, tools in the workflow):
 *
 *   const router = createToolRouter(defaults);
 *   const routed = agentsTools(router);
 *   const agent = new Agent({ name: 'booker', instructions, tools: routed.tools });
 *   const result = await new TemporalOpenAIRunner().run(agent, prompt, { runConfig: routed.runConfig });
 *
 * Each tool's `invoke` is `router.callTool(name, input, { callId })` (the model's call id): the call runs as the
 * router's `invokeTool` activity, with its budgets and the Change-before-Retry gate, and the tool output the
 * model reads is the value, or the router's feedback for a routed failure, as JSON (./tool-result.ts). `invoke`
 * never throws for a routable failure, so no tool failure becomes the run's `AgentsWorkflowError`.
 *
 * - `parameters` are the router's JSON Schemas with `strict: false`: the arguments are checked by the tool's zod
 *   schema in the activity (invalid arguments → `repair` feedback with field issues; the gate refuses the same bad
 *   arguments again). Arguments that are not JSON reach the router as the raw string (→ `repair`).
 * - `runConfig` carries `toolNotFoundBehavior: 'return_error_to_model'` (agents-core's own switch; by default a
 *   name the model invents ends the run with `ModelBehaviorError`) and a `toolErrorFormatter` that sends such a
 *   call to the router: the model gets `capability_missing` feedback with the permitted capabilities, and turns in
 *   a row naming unknown tools escalate. Pass it as `runConfig` (merge your own fields into it).
 * - Approval: `needsApproval` answers false. A call the router must have approved (a 403 from a tool declared
 *   `approvalCanLift`) waits inside `invoke` for `recovery.decideApproval`, bound to the tool and the argument
 *   digest (workflows/approvals.ts); agents-core's `RunState.approve(interruption)` names a call id, not the
 *   arguments.
 *
 * Sandbox-safe: types only from `@openai/agents-core`; builds the tools per call of `agentsTools`.
 */
import type { FunctionTool, RunConfig, ToolErrorFormatterArgs } from '@openai/agents-core';
import type { ToolRouterBase } from '../tool-router-types';
import { exposedCapabilities, routedCall, type RoutedToolsOptions } from './tool-result';

/** The tools and the run config fields that route them. */
export interface AgentsTools {
  tools: FunctionTool[];
  /** Spread into `TemporalOpenAIRunner.run(..., { runConfig })` (or `Runner`'s config). */
  runConfig: Pick<RunConfig, 'toolNotFoundBehavior' | 'toolErrorFormatter'>;
}

/** A tool result as agents-core sends it to the model: strings as they are, anything else as JSON. */
function asOutput(result: unknown): string {
  return typeof result === 'string' ? result : (JSON.stringify(result) ?? '');
}

/** The arguments the model sent: its JSON, or the raw text when it is not JSON (the router's schema refuses it). */
function parseArguments(input: string): unknown {
  try {
    return input.trim() === '' ? {} : JSON.parse(input);
  } catch {
    return input;
  }
}

/**
 * The router's tools as OpenAI Agents function tools, and the run config that routes unknown tool names.
 * @throws ApplicationFailure `invalid_input` when `include` names a tool the run may not use.
 */
export function agentsTools(router: ToolRouterBase, options: RoutedToolsOptions = {}): AgentsTools {
  const tools = exposedCapabilities(router, options.include).map(
    (c): FunctionTool => ({
      type: 'function',
      name: c.name,
      description: c.description,
      parameters: c.inputSchema as FunctionTool['parameters'],
      strict: false,
      invoke: async (_runContext, input, details) =>
        asOutput(await routedCall(router, c.name, parseArguments(input), details?.toolCall?.callId, options.onOutcome)),
      needsApproval: async () => false,
      isEnabled: async () => true,
    }),
  );
  const toolErrorFormatter = async (args: ToolErrorFormatterArgs): Promise<string | undefined> => {
    if (args.kind !== 'tool_not_found') return undefined;
    return asOutput(await routedCall(router, args.toolName, {}, args.callId, options.onOutcome));
  };
  return { tools, runConfig: { toolNotFoundBehavior: 'return_error_to_model', toolErrorFormatter } };
}
