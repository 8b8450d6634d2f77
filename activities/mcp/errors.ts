/** Errors of the MCP adapter's own entry points (bad options, a server that cannot be started, reached or listed). */
import { RecoveryError, type CodeOf } from '../../recovery/recovery-error';

/** What went wrong. A const object plus a type of the same name. */
export const McpAdapterErrorCode = {
  /** An option is missing or has the wrong type or value. */
  INVALID_OPTIONS: 'invalid_options',
  /** The server process could not be started, or did not complete the MCP `initialize` handshake. */
  CONNECT_FAILED: 'connect_failed',
  /** `tools/list` failed, or the server does not declare the `tools` capability. */
  LIST_FAILED: 'list_failed',
  /** A name in `include` is not offered by the server. */
  UNKNOWN_TOOL: 'unknown_tool',
  /** A tool cannot be declared (its prefixed name breaks the tool-name rule, or two tools share a name). */
  INVALID_TOOL: 'invalid_tool',
  /** The connection was closed (`McpConnection.close()`); it opens no new client. */
  CLOSED: 'closed',
} as const;
export type McpAdapterErrorCode = CodeOf<typeof McpAdapterErrorCode>;

/** A call of `connectMcp` or `mcpTools` that cannot be carried out; the message names the field or the tool. */
export class McpAdapterError extends RecoveryError<McpAdapterErrorCode> {
  override readonly name = 'McpAdapterError';
  static override readonly codes: readonly string[] = Object.values(McpAdapterErrorCode);
}

/** `what` (`include names "x"`, …) names a tool the server does not offer: `unknown_tool`, listing what it offers. */
export function notOffered(byName: ReadonlyMap<string, unknown>, what: string): McpAdapterError {
  const message = `mcpTools: ${what}, which the server does not offer (it offers: ${[...byName.keys()].join(', ')})`;
  return new McpAdapterError(McpAdapterErrorCode.UNKNOWN_TOOL, message);
}

/** The `code` of `McpReconnectError` (connection.ts), here so call-error.ts can check it without importing it. */
export const MCP_RECONNECT_FAILED = 'mcp_reconnect_failed';
