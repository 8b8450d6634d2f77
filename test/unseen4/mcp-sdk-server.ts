/**
 * The JSON-RPC form of MCP's invalid params (issue 38, "MCP"): a server on the MCP TypeScript SDK's low-level
 * `Server` (as servers that validate by hand are written; Python's low-level server answers the same way) over stdio,
 * whose `tools/call` handler throws `McpError(ErrorCode.InvalidParams)`. The SDK answers that as a JSON-RPC error
 * response, `{ "error": { "code": -32602, "message": … } }` (JSON-RPC 2.0 §5.1; MCP spec 2025-11-25, "Tools → Error
 * Handling": protocol errors for "Invalid arguments"), and the client's `callTool` rejects with `McpError` -32602,
 * where server-everything (./mcp-everything.ts, `McpServer`) folds the same refusal into an `isError` result. The
 * server's rule is stricter than its input schema says (an order id's form, a quantity's range), so the call leaves.
 * Its tools are declared by `mcpTools` with trusted annotations: `get_order` a read, `place_order` a write.
 */
import type { AnyTool } from '../../activities/define-tool';
import { connectMcp, mcpTools } from '../../mcp';
import type { Effect, UnseenCase, UnseenLibrary } from '../unseen/cases';

/** The server's source, run by `node -e`, with the SDK's modules by absolute path (its cwd may be anywhere). */
function serverSource(): string {
  const sdk = (path: string) => JSON.stringify(require.resolve(`@modelcontextprotocol/sdk/${path}`));
  return `
const { Server } = require(${sdk('server/index.js')});
const { StdioServerTransport } = require(${sdk('server/stdio.js')});
const { CallToolRequestSchema, ListToolsRequestSchema, McpError, ErrorCode } = require(${sdk('types.js')});
const server = new Server({ name: 'orders', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    { name: 'get_order', description: 'Reads an order.', annotations: { readOnlyHint: true },
      inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } },
    { name: 'place_order', description: 'Places an order.', annotations: { readOnlyHint: false },
      inputSchema: { type: 'object', properties: { sku: { type: 'string' }, quantity: { type: 'integer' } },
        required: ['sku', 'quantity'] } },
  ],
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const args = request.params.arguments ?? {};
  if (request.params.name === 'get_order' && !/^ord_[0-9]+$/.test(String(args.id)))
    throw new McpError(ErrorCode.InvalidParams, 'Invalid params: id must look like ord_123');
  if (request.params.name === 'place_order' && !(args.quantity >= 1 && args.quantity <= 100))
    throw new McpError(ErrorCode.InvalidParams, 'Invalid params: quantity must be between 1 and 100');
  return { content: [{ type: 'text', text: 'ok' }] };
});
void server.connect(new StdioServerTransport());
`;
}

export const mcpSdkServerLibrary: UnseenLibrary = {
  name: '@modelcontextprotocol/sdk',
  kind: 'MCP server (JSON-RPC 2.0 over stdio), low-level Server',
  server: 'an SDK low-level Server over stdio answering invalid arguments with a JSON-RPC -32602 error',
  async start() {
    const connection = await connectMcp({ command: process.execPath, args: ['-e', serverSource()] });
    const tools = await mcpTools(connection, { trustAnnotations: true });
    const named = (name: string): AnyTool => {
      const t = tools.find((x) => x.name === name);
      if (!t) throw new Error(`the SDK server lists no ${name}`);
      return t;
    };
    const one = (name: string, effect: Effect, tool: AnyTool, args: Record<string, unknown>): UnseenCase => ({
      id: `mcp-sdk.${name}.${effect}`,
      effect,
      run: () => Promise.reject(new Error('an MCP case runs its tool')),
      tool: { tool, args },
    });
    const cases: UnseenCase[] = [
      one('jsonrpc-invalid-params-32602', 'read', named('get_order'), { id: '42' }),
      one('jsonrpc-invalid-params-32602', 'write', named('place_order'), { sku: 'desk-1', quantity: 500 }),
    ];
    return { cases, stop: () => connection.close() };
  },
};
