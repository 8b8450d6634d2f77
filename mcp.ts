/**
 * `recovery-router/mcp`: a real MCP server's tools as tool activities, on `@modelcontextprotocol/sdk` (an optional
 * peer dependency: `npm install @modelcontextprotocol/sdk`). `connectMcp` connects over stdio or streamable HTTP
 * (SSE for older servers), with reconnect and the broker's credential as bearer token; `mcpTools` declares the
 * server's tools for `RecoveryPlugin`; MCP failures map to failure classes by one table (`MCP_ERROR_RULES`), and
 * annotations to effect and replay safety by another (`ANNOTATION_RULES`).
 */
export { connectMcp } from './activities/mcp/connect';
export type { McpServerCommand, McpServerTarget, McpServerUrl } from './activities/mcp/connect';
export { McpConnection, McpReconnectError } from './activities/mcp/connection';
export type { McpCredential, McpTransportKind } from './activities/mcp/connection';
export { mcpTools } from './activities/mcp/tools';
export type { McpToolOutput, McpToolOverride, McpToolsOptions } from './activities/mcp/tools';
export type { McpLookup } from './activities/mcp/lookup';
export { McpCallError, McpFailureSource } from './activities/mcp/call-error';
export type { McpFailureFacts } from './activities/mcp/call-error';
export type { McpHttpAnswer } from './activities/mcp/call-scope';
export type { ResultSignals } from './activities/mcp/result-signals';
export { ANNOTATION_RULES } from './activities/mcp/annotations';
export { MCP_ERROR_RULES } from './activities/mcp/error-rules';
export type { McpErrorRule } from './activities/mcp/error-rules';
export type { McpClassifyHook, McpServerCodes } from './activities/mcp/error-map';
export { McpAdapterError, McpAdapterErrorCode } from './activities/mcp/errors';
