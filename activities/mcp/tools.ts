/**
 * `mcpTools`: every tool a connected MCP server offers, as tool activities (`defineTool` declarations).
 *
 * Per tool: the name (optionally prefixed), the description, the input schema from the MCP `inputSchema`
 * (json-schema.ts), the effect from the MCP annotations (`readOnlyHint: true` → `read`; anything else, or no
 * annotation, → `write`, the conservative side: an unknown tool may change the world), no idempotency key (MCP
 * `tools/call` has no idempotency carrier), and `execute` = `client.callTool(...)` with the activity's
 * cancellation signal. A result with `isError: true` and anything the SDK throws become an `McpCallError`, which
 * the tool's `classify` hook (`mcpClassifier`, error-map.ts) maps to a failure class. A successful result is the
 * tool's output `{ content, structuredContent? }`, validated by the output schema (`structuredContent` against
 * the tool's `outputSchema` when it declares one), so a malformed result is `invalid_result` (route: reject).
 *
 * Source: MCP spec 2025-11-25, "Tools" (`tools/list` with pagination, `tools/call`, `isError`, `outputSchema`:
 * "Servers MUST provide structured results that conform to this schema") and "Tool annotations"
 * (`readOnlyHint`: "If true, the tool does not modify its environment"; clients "MUST consider tool annotations
 * to be untrusted unless they come from trusted servers", hence `trustAnnotations`).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { defineTool, ToolDefinitionError, type AnyTool } from '../define-tool';
import { McpCallError } from './call-error';
import { mcpClassifier } from './error-map';
import { McpAdapterError, McpAdapterErrorCode } from './errors';
import { zodFromInputSchema, zodFromJsonSchema } from './json-schema';

/** At most this many `tools/list` pages are read (a server whose cursor never ends cannot hang the worker). */
export const MAX_TOOL_LIST_PAGES = 100;

export interface McpToolsOptions {
  /** Put before every tool name, e.g. `fs_` → `fs_read_text_file`. Names must stay 1-64 of [a-zA-Z0-9_.-]. @default '' */
  prefix?: string;
  /** Adopt only these tools (server names, without the prefix), in this order. @default every tool, server order */
  include?: readonly string[];
  /**
   * Read `readOnlyHint` from the server's annotations. False for a server you do not trust: every tool is then a
   * `write` (never retried after a request that may have reached it). @default true
   */
  trustAnnotations?: boolean;
  /** Circuit-breaker key shared by all of this server's tools. @default `mcp:<server name from initialize>` */
  downstream?: string;
  /**
   * Activity timeouts of every tool, in ms; `startToCloseMs` is also the MCP request timeout.
   * @default { startToCloseMs: 30_000 } (defineTool's default; the SDK's own request timeout is 60 s)
   */
  timeouts?: { startToCloseMs?: number; heartbeatMs?: number };
  /** Permission a caller needs for every tool of this server (see ToolDefinition.scope). */
  scope?: string;
}

/** What a successful MCP tool call returns to the workflow. */
export interface McpToolOutput {
  content: { type: string; [field: string]: unknown }[];
  /** The tool's `structuredContent`; present when the tool declares an `outputSchema`. */
  structuredContent?: unknown;
}

/** A content block: `type` plus its fields (`text`, `data` + `mimeType`, `resource`, …), kept as the server sent. */
const ContentBlockSchema = z.looseObject({ type: z.string() });

/**
 * Lists the server's tools and declares each one.
 *
 * @param client a connected SDK client (`connectMcp`).
 * @returns one `AnyTool` per adopted MCP tool, ready for `RecoveryPlugin({ tools })`.
 * @throws McpAdapterError `invalid_options` (a bad option, naming it); `list_failed` when the server does not
 *   declare the `tools` capability or `tools/list` fails (the SDK's error is the `cause`); `unknown_tool` when a
 *   name in `include` is not offered; `invalid_tool` when a prefixed name breaks the tool-name rule or two tools
 *   end with the same name.
 */
export async function mcpTools(client: Client, options: McpToolsOptions = {}): Promise<AnyTool[]> {
  checkOptions(client, options);
  const listed = await listAllTools(client);
  const byName = new Map(listed.map((t) => [t.name, t]));
  const chosen = options.include
    ? options.include.map((name) => {
        const tool = byName.get(name);
        if (!tool) {
          throw new McpAdapterError(
            McpAdapterErrorCode.UNKNOWN_TOOL,
            `mcpTools: include names "${name}", which the server does not offer (it offers: ${[...byName.keys()].join(', ')})`,
          );
        }
        return tool;
      })
    : listed;
  const downstream = options.downstream ?? `mcp:${client.getServerVersion()?.name ?? 'server'}`;
  const seen = new Set<string>();
  return chosen.map((tool) => {
    const name = `${options.prefix ?? ''}${tool.name}`;
    if (seen.has(name)) {
      throw new McpAdapterError(McpAdapterErrorCode.INVALID_TOOL, `mcpTools: two tools are named "${name}"`);
    }
    seen.add(name);
    try {
      return declare(client, tool, name, downstream, options);
    } catch (err) {
      if (!(err instanceof ToolDefinitionError)) throw err;
      throw new McpAdapterError(
        McpAdapterErrorCode.INVALID_TOOL,
        `mcpTools: the MCP tool "${tool.name}" cannot be declared: ${err.message}`,
        { cause: err },
      );
    }
  });
}

/** The read/write effect of an MCP tool (see the module docs). */
export function mcpEffect(tool: Pick<Tool, 'annotations'>, trustAnnotations = true): 'read' | 'write' {
  return trustAnnotations && tool.annotations?.readOnlyHint === true ? 'read' : 'write';
}

function declare(client: Client, tool: Tool, name: string, downstream: string, options: McpToolsOptions): AnyTool {
  const structured = tool.outputSchema ? zodFromJsonSchema(tool.outputSchema) : undefined;
  const output = z.object({
    content: z.array(ContentBlockSchema),
    structuredContent: structured ?? z.record(z.string(), z.unknown()).optional(),
  });
  const requestTimeoutMs = options.timeouts?.startToCloseMs;
  return defineTool({
    name,
    description: tool.description?.trim() || tool.title?.trim() || `The MCP tool ${tool.name}.`,
    input: zodFromInputSchema(tool.inputSchema),
    output,
    effect: mcpEffect(tool, options.trustAnnotations ?? true),
    idempotency: { carrier: 'none' },
    classify: mcpClassifier,
    downstream,
    ...(options.timeouts ? { timeouts: options.timeouts } : {}),
    ...(options.scope ? { scope: options.scope } : {}),
    async execute(args, ctx) {
      let result: Awaited<ReturnType<Client['callTool']>>;
      try {
        result = await client.callTool({ name: tool.name, arguments: args }, undefined, {
          signal: ctx.signal,
          onprogress: (progress) => ctx.heartbeat(progress),
          ...(requestTimeoutMs ? { timeout: requestTimeoutMs } : {}),
        });
      } catch (err) {
        throw McpCallError.fromThrown(tool.name, err);
      }
      if (result.isError === true) throw McpCallError.fromResult(tool.name, result);
      // Passed on as received: the activity's postcheck validates it against `output` (invalid_result if not).
      const { content, structuredContent } = result as { content?: unknown; structuredContent?: unknown };
      const value = structuredContent === undefined ? { content } : { content, structuredContent };
      return value as unknown as z.input<typeof output>;
    },
  });
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

function checkOptions(client: Client, o: McpToolsOptions): void {
  const bad = (field: string, rule: string) =>
    new McpAdapterError(McpAdapterErrorCode.INVALID_OPTIONS, `mcpTools: \`${field}\` ${rule}`);
  if (typeof client?.callTool !== 'function' || typeof client.listTools !== 'function') {
    throw bad('client', 'must be a connected @modelcontextprotocol/sdk Client (see connectMcp)');
  }
  if (typeof o !== 'object' || o === null) throw bad('options', 'must be an object');
  if (o.prefix !== undefined && (typeof o.prefix !== 'string' || !/^[a-zA-Z0-9_.-]{0,32}$/.test(o.prefix))) {
    throw bad('prefix', 'must be at most 32 characters of [a-zA-Z0-9_.-]');
  }
  if (o.include !== undefined && (!Array.isArray(o.include) || o.include.some((n) => typeof n !== 'string'))) {
    throw bad('include', 'must be an array of tool names');
  }
  if (o.trustAnnotations !== undefined && typeof o.trustAnnotations !== 'boolean') {
    throw bad('trustAnnotations', 'must be a boolean');
  }
  if (o.downstream !== undefined && (typeof o.downstream !== 'string' || o.downstream === '')) {
    throw bad('downstream', 'must be a non-empty string');
  }
}
