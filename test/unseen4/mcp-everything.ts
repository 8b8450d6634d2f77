/**
 * Issue 38's two MCP cases against the real `@modelcontextprotocol/server-everything` (the MCP reference server,
 * over stdio as test/fixtures/everything-server.ts starts it), its tools declared by `mcpTools` and called through
 * the real activity with their own schema, effect and classifier (no worker: test/unseen/route.ts):
 * - invalid params: the SDK's `McpServer` validates a call's arguments with the tool's zod schema and answers a
 *   failure as JSON-RPC `-32602` InvalidParams, "Input validation error: Invalid arguments for tool …"; since SDK
 *   1.2x it folds that error into an `isError` result whose text is the error's message ("MCP error -32602: …").
 *   The local schema here is looser than the server's (a tool declared by hand over the server's tool, as a user
 *   whose own schema lags the server's would), so the call leaves and the server refuses it;
 * - request timeout: `trigger-long-running-operation` runs `duration` seconds; `mcpTools({ timeouts })` makes
 *   `startToCloseMs` the MCP request timeout too (docs/mcp.md, "Reference"), so the SDK's client gives up first
 *   with `McpError` -32001 RequestTimeout ("Request timed out"), the request sent and the server still running it.
 */
import { z } from 'zod';
import { defineTool, type AnyTool } from '../../activities/define-tool';
import { connectMcp, mcpTools } from '../../mcp';
import { everythingStdio } from '../fixtures/everything-server';
import type { Effect, UnseenCase, UnseenLibrary } from '../unseen/cases';

/** The MCP request timeout (ms) of the timeout cases: far below the operation's 5 s. */
const REQUEST_TIMEOUT_MS = 1_000;

/** `tool` with a local input schema that takes any object: only the server's own validation stands. */
function loosened(tool: AnyTool): AnyTool {
  return defineTool({ ...tool, input: z.looseObject({}) });
}

export const mcpEverythingLibrary: UnseenLibrary = {
  name: '@modelcontextprotocol/server-everything',
  kind: 'MCP server (JSON-RPC 2.0 over stdio)',
  server: 'the MCP reference server over stdio, its tools declared by mcpTools (trusted or untrusted annotations)',
  async start() {
    const connection = await connectMcp(everythingStdio());
    const include = ['get-sum', 'echo', 'trigger-long-running-operation'];
    const timeouts = { startToCloseMs: REQUEST_TIMEOUT_MS };
    // Trusted: get-sum, echo and the long operation say readOnlyHint (reads). Untrusted: every tool is a write.
    const [reads, writes] = await Promise.all([
      mcpTools(connection, { trustAnnotations: true, include, timeouts }),
      mcpTools(connection, { include, timeouts }),
    ]);
    const named = (tools: AnyTool[], name: string) => {
      const t = tools.find((x) => x.name === name);
      if (!t) throw new Error(`server-everything lists no ${name}`);
      return t;
    };
    const one = (name: string, effect: Effect, tool: AnyTool, args: Record<string, unknown>): UnseenCase => ({
      id: `mcp-everything.${name}.${effect}`,
      effect,
      run: () => Promise.reject(new Error('an MCP case runs its tool')),
      tool: { tool, args },
    });
    const cases: UnseenCase[] = [
      one('invalid-params-32602', 'read', loosened(named(reads, 'get-sum')), { a: 'two', b: 3 }),
      one('invalid-params-32602', 'write', loosened(named(writes, 'echo')), { message: 42 }),
      one('request-timeout-32001', 'read', named(reads, 'trigger-long-running-operation'), { duration: 5, steps: 5 }),
      one('request-timeout-32001', 'write', named(writes, 'trigger-long-running-operation'), {
        duration: 5,
        steps: 5,
      }),
    ];
    return { cases, stop: () => connection.close() };
  },
};
