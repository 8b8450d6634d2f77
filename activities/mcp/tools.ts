/**
 * `mcpTools`: every tool a connected MCP server offers, as tool activities (`defineTool` declarations).
 *
 * Per tool: the name (optionally prefixed), the description, the input schema from the MCP `inputSchema`
 * (json-schema.ts), the effect and replay safety from the annotations when the server is trusted (annotations.ts;
 * a per-tool override wins), the idempotency key argument and the lookup tool when the user names them, the
 * broker credential of the connection, and `execute` = `tools/call` in the call's own scope (call.ts). A result
 * with `isError: true` and anything thrown become an `McpCallError`, which the tool's `classify` hook
 * (`mcpClassifierFor`, error-map.ts, with the server's codes and hook) maps to a failure class. A successful
 * result is the tool's output `{ content, structuredContent? }` (output.ts).
 *
 * Source: MCP spec 2025-11-25, "Tools" (`tools/list` with pagination, `tools/call`, `isError`, `outputSchema`)
 * and "Tool annotations" (clients "MUST consider tool annotations to be untrusted unless they come from trusted
 * servers", hence `trustAnnotations`, false by default).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { Idempotency } from '../../recovery/tool-spec';
import { defineTool, ToolDefinitionError, type AnyTool, type LookupResult } from '../define-tool';
import type { ToolContext } from '../tool-context';
import { decideAnnotations } from './annotations';
import { callMcpTool, fixedSession, type McpSession } from './call';
import { McpCallError } from './call-error';
import { McpConnection } from './connection';
import { mcpClassifierFor } from './error-map';
import { McpAdapterError, McpAdapterErrorCode, notOffered } from './errors';
import { zodFromInputSchema } from './json-schema';
import { mcpLookup } from './lookup';
import { outputSchemaOf } from './output';
import { checkAgainstServer, checkOptions, type McpToolOverride, type McpToolsOptions } from './tools-options';

export type { McpToolOverride, McpToolsOptions } from './tools-options';
export type { McpToolOutput } from './output';

/** At most this many `tools/list` pages are read (a server whose cursor never ends cannot hang the worker). */
export const MAX_TOOL_LIST_PAGES = 100;

/**
 * Lists the server's tools and declares each one.
 *
 * @param connection an `McpConnection` (`connectMcp`), or a connected SDK `Client` (no reconnect, no credential).
 * @returns one `AnyTool` per adopted MCP tool, ready for `RecoveryPlugin({ tools })`.
 * @throws McpAdapterError `invalid_options` (a bad option, naming it; `credential` without an HTTP connection
 *   that can present it); `list_failed` when the server does not declare the `tools` capability or `tools/list`
 *   fails (the SDK's error is the `cause`); `unknown_tool` when `include`, `tools` or a lookup names a tool the
 *   server does not offer; `invalid_tool` when a prefixed name breaks the tool-name rule, two tools end with the
 *   same name, or an `idempotencyKey` is not an argument of its tool.
 */
export async function mcpTools(connection: McpConnection | Client, options: McpToolsOptions = {}): Promise<AnyTool[]> {
  const session = sessionOf(connection);
  checkOptions(options);
  const credential = options.credential ?? session.credential?.id;
  if (options.credential !== undefined && session.credential === undefined) {
    throw new McpAdapterError(
      McpAdapterErrorCode.INVALID_OPTIONS,
      'mcpTools: `credential` needs an HTTP McpConnection whose `credential` presents the token (connectMcp({ url, credential })); a stdio server takes its environment at start',
    );
  }
  const listed = await listAllTools(session.client);
  const byName = new Map(listed.map((t) => [t.name, t]));
  checkAgainstServer(options, byName);
  const chosen = options.include ? options.include.map((name) => included(byName, name)) : listed;
  const downstream = options.downstream ?? `mcp:${session.serverName}`;
  const seen = new Set<string>();
  return chosen.map((tool) => {
    const name = `${options.prefix ?? ''}${tool.name}`;
    if (seen.has(name)) {
      throw new McpAdapterError(McpAdapterErrorCode.INVALID_TOOL, `mcpTools: two tools are named "${name}"`);
    }
    seen.add(name);
    try {
      return declare(session, tool, { name, downstream, credential }, options);
    } catch (err) {
      if (!ToolDefinitionError.is(err)) throw err;
      throw new McpAdapterError(
        McpAdapterErrorCode.INVALID_TOOL,
        `mcpTools: the MCP tool "${tool.name}" cannot be declared: ${err.message}`,
        { cause: err },
      );
    }
  });
}

function sessionOf(connection: McpConnection | Client): McpSession {
  if (connection instanceof McpConnection) return connection;
  if (connection instanceof Client || typeof (connection as Partial<Client>)?.callTool === 'function') {
    return fixedSession(connection as Client);
  }
  throw new McpAdapterError(
    McpAdapterErrorCode.INVALID_OPTIONS,
    'mcpTools: `connection` must be an McpConnection (connectMcp) or a connected @modelcontextprotocol/sdk Client',
  );
}

function included(byName: ReadonlyMap<string, Tool>, name: string): Tool {
  const tool = byName.get(name);
  if (tool) return tool;
  throw notOffered(byName, `include names "${name}"`);
}

/** Effect and idempotency of one tool: the override, else the (trusted) annotations. */
export function mcpToolEffect(
  tool: Pick<Tool, 'annotations'>,
  trusted: boolean,
  override: McpToolOverride = {},
): { effect: 'read' | 'write'; idempotency: Idempotency } {
  const decided = decideAnnotations(tool, trusted);
  const effect = override.effect ?? decided.effect;
  if (effect === 'read') return { effect, idempotency: { carrier: 'none' } };
  const idempotent = override.idempotent ?? (decided.effect === 'write' && decided.idempotent);
  if (override.idempotencyKey !== undefined) {
    const deduplicates = override.deduplicates ?? idempotent;
    return { effect, idempotency: { carrier: 'field', name: override.idempotencyKey, deduplicates } };
  }
  return { effect, idempotency: idempotent ? { carrier: 'arguments', deduplicates: true } : { carrier: 'none' } };
}

type Naming = { name: string; downstream: string; credential: string | undefined };
type Lookup = (
  operationId: string,
  ctx: ToolContext,
) => Promise<LookupResult<z.output<ReturnType<typeof outputSchemaOf>>>>;

function declare(session: McpSession, tool: Tool, naming: Naming, options: McpToolsOptions): AnyTool {
  const override = options.tools?.[tool.name] ?? {};
  const { effect, idempotency } = mcpToolEffect(tool, options.trustAnnotations ?? false, override);
  const output = outputSchemaOf(tool);
  const timeoutMs = options.timeouts?.startToCloseMs;
  const codes = { authCodes: options.errors?.authCodes ?? [], transientCodes: options.errors?.transientCodes ?? [] };
  const lookupKey = override.lookup?.key ?? override.idempotencyKey;
  const scope = override.scope ?? options.scope;
  return defineTool({
    name: naming.name,
    description: tool.description?.trim() || tool.title?.trim() || `The MCP tool ${tool.name}.`,
    input: zodFromInputSchema(withoutArgument(tool.inputSchema, override.idempotencyKey)),
    output,
    effect,
    idempotency,
    classify: mcpClassifierFor(codes, options.errors?.classify),
    downstream: naming.downstream,
    ...(naming.credential ? { credential: naming.credential } : {}),
    ...(options.timeouts ? { timeouts: options.timeouts } : {}),
    ...(scope ? { scope } : {}),
    ...(override.approvalCanLift ? { approvalCanLift: true } : {}),
    ...(override.commit ? { commit: override.commit } : {}),
    ...(override.lookup ? { lookup: mcpLookup(session, override.lookup, lookupKey, codes, timeoutMs) as Lookup } : {}),
    async execute(args, ctx) {
      const result = await callMcpTool(session, tool.name, args, ctx, timeoutMs);
      if (result.isError === true) throw McpCallError.fromResult(tool.name, result);
      // Passed on as received: the activity's postcheck validates it against `output` (invalid_result if not).
      const { content, structuredContent } = result as { content?: unknown; structuredContent?: unknown };
      const value = structuredContent === undefined ? { content } : { content, structuredContent };
      return value as unknown as z.input<typeof output>;
    },
  });
}

/** The input schema without the idempotency key argument: the activity fills it, the model never does. */
function withoutArgument(schema: Tool['inputSchema'], key: string | undefined): unknown {
  if (key === undefined) return schema;
  const { [key]: _dropped, ...properties } = (schema.properties ?? {}) as Record<string, unknown>;
  const required = Array.isArray(schema.required) ? schema.required.filter((r) => r !== key) : undefined;
  return { ...schema, properties, ...(required ? { required } : {}) };
}

async function listAllTools(client: Client): Promise<Tool[]> {
  if (!client.getServerCapabilities()?.tools) {
    throw new McpAdapterError(
      McpAdapterErrorCode.LIST_FAILED,
      'mcpTools: the server does not declare the `tools` capability (is the client connected?)',
    );
  }
  const tools: Tool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_TOOL_LIST_PAGES; page++) {
    let res: Awaited<ReturnType<Client['listTools']>>;
    try {
      res = await client.listTools(cursor === undefined ? undefined : { cursor });
    } catch (err) {
      throw new McpAdapterError(
        McpAdapterErrorCode.LIST_FAILED,
        `mcpTools: tools/list failed: ${(err as Error)?.message ?? String(err)}`,
        { cause: err },
      );
    }
    tools.push(...res.tools);
    cursor = res.nextCursor;
    if (cursor === undefined) return tools;
  }
  throw new McpAdapterError(
    McpAdapterErrorCode.LIST_FAILED,
    `mcpTools: tools/list still had pages after ${MAX_TOOL_LIST_PAGES}`,
  );
}
