/**
 * `connectMcp`: starts an MCP server as a child process and connects an SDK client to it over stdio.
 * Node side only (activities, worker): the client lives as long as the worker that calls the server's tools.
 *
 * Source: MCP spec 2025-11-25, "Transports → stdio" (the client launches the server as a subprocess; JSON-RPC
 * messages on stdin/stdout, one per line; stderr is for logs) and "Lifecycle" (`initialize` first; closing stdin
 * ends the session). `@modelcontextprotocol/sdk` 1.32: `Client`, `StdioClientTransport`.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpAdapterError, McpAdapterErrorCode } from './errors';

/** How to start an MCP server over stdio. */
export interface McpServerCommand {
  /** The executable, e.g. `process.execPath` (node) or `npx`. */
  command: string;
  /** Its arguments. @default [] */
  args?: readonly string[];
  /**
   * Variables set for the server, on top of the SDK's short safe list (`HOME`, `LOGNAME`, `PATH`, `SHELL`, `TERM`,
   * `USER` on POSIX): the worker's own environment, with its secrets, is not passed on. @default {}
   */
  env?: Record<string, string>;
  /** Working directory of the server. @default the worker's */
  cwd?: string;
  /**
   * The server's stderr (its logs): `inherit` prints them with the worker's, `ignore` drops them.
   * @default 'inherit'
   */
  stderr?: 'inherit' | 'ignore';
  /** The client's name and version sent in `initialize`. @default { name: 'recovery-router', version: '0.1.0' } */
  clientInfo?: { name: string; version: string };
}

/**
 * Starts the server and completes the MCP handshake.
 *
 * @returns a connected SDK `Client`. `client.close()` closes the server's stdin and stops the process (SIGTERM,
 *   then SIGKILL, after 2 s each, by the SDK). If the process exits later, calls fail with "Not connected"
 *   (error-map.ts: transient, not sent); nothing restarts it.
 * @throws McpAdapterError `invalid_options` when `command` is not a non-empty string, `args` not strings, `env`
 *   not a record of strings; `connect_failed` when the process cannot be started or the handshake fails (the
 *   process is stopped; the SDK's error is the `cause`).
 */
export async function connectMcp(server: McpServerCommand): Promise<Client> {
  checkCommand(server);
  const transport = new StdioClientTransport({
    command: server.command,
    args: [...(server.args ?? [])],
    ...(server.env ? { env: { ...server.env } } : {}),
    ...(server.cwd ? { cwd: server.cwd } : {}),
    stderr: server.stderr ?? 'inherit',
  });
  const client = new Client(server.clientInfo ?? { name: 'recovery-router', version: '0.1.0' });
  try {
    await client.connect(transport);
  } catch (err) {
    await client.close().catch(() => undefined);
    await transport.close().catch(() => undefined);
    const shown = [server.command, ...(server.args ?? [])].join(' ');
    throw new McpAdapterError(
      McpAdapterErrorCode.CONNECT_FAILED,
      `connectMcp: could not start the MCP server "${shown}": ${(err as Error)?.message ?? String(err)}`,
      { cause: err },
    );
  }
  return client;
}

function checkCommand(server: McpServerCommand): void {
  const bad = (field: string, rule: string) =>
    new McpAdapterError(McpAdapterErrorCode.INVALID_OPTIONS, `connectMcp: \`${field}\` ${rule}`);
  if (typeof server !== 'object' || server === null) throw bad('server', 'must be an object { command, args? }');
  if (typeof server.command !== 'string' || server.command.trim() === '') {
    throw bad('command', 'must be a non-empty string (the executable to start)');
  }
  if (server.args !== undefined && (!Array.isArray(server.args) || server.args.some((a) => typeof a !== 'string'))) {
    throw bad('args', 'must be an array of strings');
  }
  if (
    server.env !== undefined &&
    (typeof server.env !== 'object' ||
      server.env === null ||
      Object.values(server.env).some((v) => typeof v !== 'string'))
  ) {
    throw bad('env', 'must be a record of strings');
  }
  if (server.cwd !== undefined && (typeof server.cwd !== 'string' || server.cwd === '')) {
    throw bad('cwd', 'must be a non-empty string');
  }
  if (server.stderr !== undefined && server.stderr !== 'inherit' && server.stderr !== 'ignore') {
    throw bad('stderr', "must be 'inherit' or 'ignore'");
  }
}
