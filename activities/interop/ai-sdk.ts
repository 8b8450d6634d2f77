/**
 * An AI SDK tool (`tool({ description, inputSchema, execute })` from `ai`) as a router tool, Node side:
 *
 *   const bookSlot = fromAiSdkTool('book_slot', bookSlotTool, { effect: 'write',
 *     idempotency: { carrier: 'header', name: 'Idempotency-Key', deduplicates: true } });
 *   new RecoveryPlugin({ tools: [bookSlot] });
 *
 * Taken from the AI SDK tool: the description, the input schema (a zod 4 schema as it is; a `jsonSchema(...)` /
 * `zodSchema(...)` schema through its JSON Schema, activities/mcp/json-schema.ts), the output schema when it is
 * zod (else any value), `execute` (called with the call id as `toolCallId`, the activity's abort signal, no
 * messages; a streaming `execute` yields, and its last value is the result, as in the AI SDK) and `needsApproval`
 * (→ the router's approval, ./adopt.ts). Added by the caller: `effect` and what applies of idempotency,
 * credential, lookup, classify (./adopt.ts `AdoptOptions`).
 *
 * `execute` throws on failure: an error that carries the HTTP answer (`status`/`statusCode`, `headers`, `body`;
 * or `response: { status, ... }`) is classified by its status and body, a client library's error by its dialect,
 * a network error by its code; a bare `Error` is a tool bug (escalate). Source: AI SDK docs, "Tool Calling"
 * (`tool`, `inputSchema`, `execute(input, { toolCallId, messages, abortSignal })`, `needsApproval`).
 */
import type { Tool } from 'ai';
import { z } from 'zod';
import { defineTool, ToolDefinitionError, type AnyTool } from '../define-tool';
import { zodFromInputSchema } from '../mcp/json-schema';
import { adoptedDefinition, type AdoptOptions, type NeedsApproval } from './adopt';

/** The parts of an AI SDK tool read here (any `Tool` of `ai` 7 has them). */
type AiSdkTool = Pick<Tool, 'description' | 'inputSchema' | 'execute' | 'needsApproval' | 'outputSchema'>;

/** The input schema: zod 4 as it is, or a schema object's JSON Schema (synchronous only) through the converter. */
function inputOf(name: string, schema: unknown): z.ZodType {
  if (schema instanceof z.ZodType) return schema;
  const json = (schema as { jsonSchema?: unknown } | null)?.jsonSchema;
  if (typeof json !== 'object' || json === null || typeof (json as PromiseLike<unknown>).then === 'function') {
    throw new ToolDefinitionError(
      name,
      'fromAiSdkTool: `inputSchema` must be a zod 4 schema or a `jsonSchema(...)` schema with a synchronous JSON Schema',
    );
  }
  return zodFromInputSchema(json);
}

/** The value of `execute`: awaited, or the last value a streaming `execute` yielded. */
async function settle(result: unknown): Promise<unknown> {
  if (typeof result === 'object' && result !== null && Symbol.asyncIterator in result) {
    let last: unknown;
    for await (const part of result as AsyncIterable<unknown>) last = part;
    return last;
  }
  return await result;
}

/**
 * A router tool made from an AI SDK tool.
 * @param name the tool's name (the key of the AI SDK `ToolSet`), 1-64 characters of [a-zA-Z0-9_.-].
 * @throws ToolDefinitionError when the tool has no `execute`, its description is a function, its input schema is
 *   neither zod 4 nor a synchronous JSON Schema, `options.effect` is missing, or `defineTool` refuses the result.
 */
export function fromAiSdkTool(name: string, aiTool: AiSdkTool, options: AdoptOptions): AnyTool {
  if (typeof aiTool !== 'object' || aiTool === null || typeof aiTool.execute !== 'function') {
    throw new ToolDefinitionError(String(name), 'fromAiSdkTool: the AI SDK tool must have an `execute` function');
  }
  if (aiTool.description !== undefined && typeof aiTool.description !== 'string') {
    throw new ToolDefinitionError(name, 'fromAiSdkTool: `description` must be a string (pass `options.description`)');
  }
  const execute = aiTool.execute.bind(aiTool) as (input: unknown, opts: unknown) => unknown;
  const flag = aiTool.needsApproval;
  const needsApproval: NeedsApproval | undefined =
    typeof flag === 'function'
      ? (args, callId) =>
          (flag as (input: unknown, o: unknown) => boolean | PromiseLike<boolean>)(args, {
            toolCallId: callId,
            messages: [], // no model messages reach the worker
            context: undefined,
          })
      : flag === true
        ? () => true
        : undefined;
  const base = {
    name,
    description: aiTool.description ?? options.description ?? name,
    input: inputOf(name, aiTool.inputSchema),
    output: aiTool.outputSchema instanceof z.ZodType ? aiTool.outputSchema : z.unknown(),
  };
  return defineTool(
    adoptedDefinition(
      'fromAiSdkTool',
      base,
      options,
      (args, ctx) =>
        settle(execute(args, { toolCallId: ctx.callId, messages: [], abortSignal: ctx.signal, context: undefined })),
      needsApproval,
    ),
  );
}
