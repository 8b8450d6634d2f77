/**
 * The MCP adapter: a real MCP server's tools as tool activities. `connectMcp` connects over stdio or HTTP
 * (connect.ts, connection.ts), `mcpTools` declares its tools (tools.ts), error-map.ts maps MCP failures to failure
 * classes (one table, error-rules.ts), annotations.ts decides effect and replay safety (one table).
 */
export { connectMcp, type McpServerCommand, type McpServerTarget, type McpServerUrl } from './connect';
export {
  isSessionGone,
  McpConnection,
  McpReconnectError,
  type McpCredential,
  type McpTransportKind,
} from './connection';
export { callMcpTool, type McpSession } from './call';
export { CallScope, type McpHttpAnswer } from './call-scope';
export { mcpFetch, type McpFetchOptions } from './http-fetch';
export {
  mcpTools,
  mcpToolEffect,
  MAX_TOOL_LIST_PAGES,
  type McpToolOutput,
  type McpToolOverride,
  type McpToolsOptions,
} from './tools';
export { ANNOTATION_RULES, decideAnnotations, mcpEffect, type AnnotationDecision } from './annotations';
export { mcpLookup, type McpLookup } from './lookup';
export { McpCallError, McpFailureSource, isMcpCallError, type McpFailureFacts } from './call-error';
export { readResultSignals, RETRY_HINTS, STATUS_IN_TEXT, type ResultSignals } from './result-signals';
export {
  answerFor,
  JsonRpcCode,
  matchMcpRule,
  mcpClassifier,
  mcpClassifierFor,
  MCP_ERROR_RULES,
  mcpErrorRulesMarkdown,
  type McpClassifyHook,
  type McpErrorRule,
  type McpRuleAnswer,
  type McpSendState,
  type McpServerCodes,
} from './error-map';
export { McpAdapterError, McpAdapterErrorCode } from './errors';
export { MAX_SCHEMA_DEPTH, zodFromInputSchema, zodFromJsonSchema } from './json-schema';
