/**
 * An OpenAI Agents function tool as a router tool, Node side:
 *
 *   const sendEmail = fromAgentsTool({ name: 'send_email', description, parameters: z.object({...}), execute },
 *     { effect: 'write', idempotency: { carrier: 'field', name: 'dedupeKey', deduplicates: false }, lookup });
 *
 * Takes either what you pass to agents-core's `tool()` (`name`, `description`, `parameters` — a zod object or a
 * JSON Schema — `execute(input, runContext, details)`, `needsApproval`), or the `FunctionTool` that `tool()`
 * returns. Prefer the first: a `FunctionTool` made with the default `errorFunction` turns every failure into a
 * string result ("An error occurred while running the tool…"), which then looks like a success to the router; a
 * `FunctionTool` must be made with `errorFunction: null` so its failures are thrown and classified. Its
 * `parameters` are the JSON Schema agents-core derived (a zod `regex` is not in it); its own parser still runs
 * in `invoke`, and what it refuses (`InvalidToolInputError`) is `invalid_arguments` (→ repair).
 *
 * Taken: the name, description, input schema (zod as it is; JSON Schema through activities/mcp/json-schema.ts),
 * `execute` / `invoke` (with a fresh `RunContext`, and the router's call id as the call id) and `needsApproval`
 * (→ the router's approval, ./adopt.ts). Added by the caller: `effect` and what applies of idempotency, credential,
 * lookup, classify (`AdoptOptions`). The output is any value (agents-core has no output schema).
 * Source: OpenAI Agents JS docs, "Tools" (`tool({ name, description, parameters, execute, needsApproval,
 * errorFunction })`).
 */
import { RunContext, type FunctionTool } from '@openai/agents-core';
import { z } from 'zod';
import type { ToolClassifier } from '../../recovery/classify';
import { FailureClass } from '../../recovery/failure';
import { defineTool, ToolDefinitionError, type AnyTool } from '../define-tool';
import type { ToolContext } from '../tool-context';
import { zodFromInputSchema } from '../mcp/json-schema';
import { adoptedDefinition, type AdoptOptions, type NeedsApproval } from './adopt';

/** Any `FunctionTool`, whatever its context, parameters and result types. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyFunctionTool = FunctionTool<any, any, any>;

/** What `tool()` of agents-core takes, as far as it is read here. */
export interface AgentsToolOptions {
  name: string;
  description: string;
  /** A zod object or a JSON Schema object. */
  parameters: unknown;
  /** The tool's function, as agents-core calls it. */
  execute(input: never, runContext?: RunContext<unknown>, details?: unknown): unknown;
  /**
   * agents-core's approval rule: a boolean or a function of the input; true makes the tool's call wait for a
   * person (`approvalCanLift`).
   */
  needsApproval?: boolean | ((runContext: RunContext<unknown>, input: never, callId?: string) => Promise<boolean>);
}

type Adopted = {
  name: string;
  description: string;
  input: z.ZodType;
  run: (args: unknown, ctx: ToolContext) => Promise<unknown>;
  needsApproval: NeedsApproval | undefined;
  classify?: ToolClassifier;
};

/**
 * agents-core's `InvalidToolInputError` (a `FunctionTool`'s own parser refused the arguments, e.g. a zod
 * `regex` the JSON Schema does not carry) → `invalid_arguments`, so the model gets `repair` feedback.
 */
const invalidToolInput: ToolClassifier = (raw, ctx) =>
  raw.kind === 'thrown' && (raw.error as { name?: unknown } | null)?.name === 'InvalidToolInputError'
    ? {
        class: FailureClass.INVALID_ARGUMENTS,
        publicMessage: `${ctx.tool}: the arguments do not match the tool's parameters; fix them and call again.`,
      }
    : undefined;

function isFunctionTool(source: unknown): source is AnyFunctionTool {
  return (
    (source as AnyFunctionTool | null)?.type === 'function' && typeof (source as AnyFunctionTool).invoke === 'function'
  );
}

function inputOf(name: string, parameters: unknown): z.ZodType {
  if (parameters instanceof z.ZodType) return parameters;
  if (typeof parameters === 'object' && parameters !== null) return zodFromInputSchema(parameters);
  throw new ToolDefinitionError(name, 'fromAgentsTool: `parameters` must be a zod object or a JSON Schema object');
}

/** The call as agents-core's `details.toolCall` describes it. */
function toolCall(name: string, args: unknown, callId: string) {
  return { type: 'function_call' as const, callId, name, arguments: JSON.stringify(args) };
}

function fromFunctionTool(t: AnyFunctionTool): Adopted {
  return {
    name: t.name,
    description: t.description,
    input: inputOf(t.name, t.parameters),
    run: (args, ctx) =>
      t.invoke(new RunContext(undefined), JSON.stringify(args), {
        toolCall: toolCall(t.name, args, ctx.callId),
        signal: ctx.signal,
      }),
    needsApproval: (args, callId) => t.needsApproval(new RunContext(undefined), args as never, callId),
    classify: invalidToolInput,
  };
}

function fromToolOptions(o: AgentsToolOptions): Adopted {
  const name = typeof o.name === 'string' ? o.name : '(unnamed)';
  if (typeof o.execute !== 'function') {
    throw new ToolDefinitionError(name, 'fromAgentsTool: the tool options must have an `execute` function');
  }
  const flag = o.needsApproval;
  return {
    name,
    description: o.description,
    input: inputOf(name, o.parameters),
    run: async (args, ctx) =>
      await o.execute(args as never, new RunContext(undefined), {
        toolCall: toolCall(name, args, ctx.callId),
        signal: ctx.signal,
      }),
    needsApproval:
      typeof flag === 'function'
        ? (args, callId) => flag(new RunContext(undefined), args as never, callId)
        : flag === true
          ? () => true
          : undefined,
  };
}

/**
 * A router tool made from an OpenAI Agents function tool or its `tool()` options.
 * @throws ToolDefinitionError when the source has neither `invoke` (a `FunctionTool`) nor `execute`, its
 *   `parameters` are not a zod object or a JSON Schema object, `options.effect` is missing, or `defineTool`
 *   refuses the result.
 */
export function fromAgentsTool(source: AnyFunctionTool | AgentsToolOptions, options: AdoptOptions): AnyTool {
  if (typeof source !== 'object' || source === null) {
    throw new ToolDefinitionError('(not an object)', 'fromAgentsTool: pass a FunctionTool or the options of tool()');
  }
  const adopted = isFunctionTool(source) ? fromFunctionTool(source) : fromToolOptions(source as AgentsToolOptions);
  const base = { name: adopted.name, description: adopted.description, input: adopted.input, output: z.unknown() };
  return defineTool(
    adoptedDefinition('fromAgentsTool', base, options, adopted.run, adopted.needsApproval, adopted.classify),
  );
}
