/**
 * The MCP adapter: a real MCP server's tools as tool activities. `connectMcp` starts the server over stdio,
 * `mcpTools` declares its tools, error-map.ts maps MCP failures to failure classes (one table).
 */
export { connectMcp, type McpServerCommand } from './connect';
export { mcpTools, mcpEffect, MAX_TOOL_LIST_PAGES, type McpToolOutput, type McpToolsOptions } from './tools';
export { McpCallError, McpFailureSource, isMcpCallError, type McpFailureFacts } from './call-error';
export {
  answerFor,
  JsonRpcCode,
  matchMcpRule,
  mcpClassifier,
  MCP_ERROR_RULES,
  type McpErrorRule,
  type McpRuleAnswer,
} from './error-map';
export { McpAdapterError, McpAdapterErrorCode } from './errors';
export { MAX_SCHEMA_DEPTH, zodFromInputSchema, zodFromJsonSchema } from './json-schema';
