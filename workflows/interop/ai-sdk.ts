/**
 * Router tools as an AI SDK tool set, for `generateText` / `streamText` in workflow code (with
 * `@temporalio/ai-sdk`'s provider, whose model calls run as activities):
 *
 *   const router = createToolRouter(defaults);
 *   const { text } = await generateText({ model: temporalProvider.languageModel('m'), tools: aiSdkTools(router),
 *     prompt, stopWhen: stepCountIs(8) });
 *
 * Each tool's `execute` is `router.callTool(name, input, { callId: toolCallId })`: the call runs as the router's
 * `invokeTool` activity with its budgets and the Change-before-Retry gate, and the tool result the model reads is
 * the value, or the router's feedback for a routed failure (./tool-result.ts). `execute` never throws for a
 * routable failure, so the AI SDK never turns one into a `tool-error`.
 *
 * - Input schemas are the router's JSON Schemas (`jsonSchema(spec.inputSchema)`, no AI SDK-side validation): the
 *   arguments are checked by the tool's zod schema in the activity, so invalid arguments come back as `repair`
 *   feedback with field issues, and the repair budget and the gate (the same bad arguments are refused) apply.
 * - A name the model invents reaches the router too (`routeUnknownTools`, default on): the set answers any name
 *   with a routed tool, which returns `capability_missing` feedback listing the permitted capabilities, and turns
 *   in a row naming unknown tools escalate. The AI SDK looks tools up with `Object.hasOwn`; only the exposed tools
 *   are enumerable, so only they are sent to the model.
 * - Approval: the AI SDK's `needsApproval` is left unset. A call the router must have approved (a 403 from a tool
 *   declared `approvalCanLift`) waits inside `execute` for `recovery.decideApproval`, bound to the tool and the
 *   argument digest (workflows/approvals.ts); the AI SDK's approval responses name an approval id, not the
 *   arguments, and live in messages the workflow passes back.
 *
 * Sandbox-safe: imports `jsonSchema` from `ai` (a peer the workflow already uses) and types; builds the set per
 * call of `aiSdkTools`, nothing at module load.
 */
import { jsonSchema, type Tool, type ToolExecutionOptions, type ToolSet } from 'ai';
import type { ToolRouterBase } from '../tool-router-types';
import { exposedCapabilities, routedCall, type RoutedToolsOptions } from './tool-result';

export interface AiSdkToolsOptions extends RoutedToolsOptions {
  /** Route tool names that are not in the set to the router (→ `capability_missing`). @default true */
  routeUnknownTools?: boolean;
}

/** One router tool as an AI SDK tool: description, JSON Schema, and an `execute` that calls the router. */
function routedTool(
  router: ToolRouterBase,
  name: string,
  description: string,
  schema: Record<string, unknown>,
  options: AiSdkToolsOptions,
): Tool {
  return {
    description,
    inputSchema: jsonSchema(schema),
    execute: (input: unknown, call: ToolExecutionOptions<unknown>) =>
      routedCall(router, name, input, call.toolCallId, options.onOutcome),
  };
}

/**
 * The router's tools as an AI SDK `ToolSet`.
 * @throws ApplicationFailure `invalid_input` when `include` names a tool the run may not use.
 */
export function aiSdkTools(router: ToolRouterBase, options: AiSdkToolsOptions = {}): ToolSet {
  const tools: ToolSet = {};
  for (const c of exposedCapabilities(router, options.include)) {
    tools[c.name] = routedTool(router, c.name, c.description, c.inputSchema, options);
  }
  if (options.routeUnknownTools === false) return tools;
  const unknown = new Map<string, Tool>();
  const fallback = (name: string): Tool => {
    let t = unknown.get(name);
    if (!t) {
      t = routedTool(router, name, 'not a tool of this run', { type: 'object' }, options);
      unknown.set(name, t);
    }
    return t;
  };
  return new Proxy(tools, {
    get: (target, key, receiver) =>
      typeof key !== 'string' || Object.hasOwn(target, key) || key in Object.prototype
        ? Reflect.get(target, key, receiver)
        : fallback(key),
    getOwnPropertyDescriptor: (target, key) =>
      typeof key !== 'string' || Object.hasOwn(target, key) || key in Object.prototype
        ? Reflect.getOwnPropertyDescriptor(target, key)
        : { value: fallback(key), writable: false, enumerable: false, configurable: true },
  });
}
