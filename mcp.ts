/**
 * `recovery-router/mcp`: a real MCP server's tools as tool activities, on `@modelcontextprotocol/sdk` (an optional
 * peer dependency: `npm install @modelcontextprotocol/sdk`). `connectMcp` starts the server over stdio, `mcpTools`
 * declares its tools for `RecoveryPlugin`; MCP failures map to failure classes by one table (`MCP_ERROR_RULES`).
 */
export { connectMcp } from './activities/mcp/connect';
export type { McpServerCommand } from './activities/mcp/connect';
export { mcpTools } from './activities/mcp/tools';
export type { McpToolOutput, McpToolsOptions } from './activities/mcp/tools';
export { McpCallError } from './activities/mcp/call-error';
export { MCP_ERROR_RULES } from './activities/mcp/error-map';
export type { McpErrorRule } from './activities/mcp/error-map';
export { McpAdapterError, McpAdapterErrorCode } from './activities/mcp/errors';
