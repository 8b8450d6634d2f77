/**
 * Real tools nobody on this team wrote: `@modelcontextprotocol/server-filesystem`, started over stdio on the
 * folders it may touch, and its tools declared through the MCP adapter (activities/mcp). The demo and the tests
 * use it: a missing file → semantic_rejection/not_found → replan; a path outside the allowed folders →
 * authorization/forbidden → stop.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { AnyTool } from '../activities/define-tool';
import { connectMcp, mcpTools, type McpConnection, type McpServerCommand, type McpToolsOptions } from '../mcp';

const PACKAGE = '@modelcontextprotocol/server-filesystem';

/**
 * The command that starts the filesystem server with this Node binary (no `npx`, no download): the package's
 * `bin` entry, resolved from its package.json.
 * @param allowedDirs the folders the server may read and write (absolute; at least one).
 * @throws Error when `allowedDirs` is empty or the package is not installed.
 */
export function filesystemServer(
  allowedDirs: readonly string[],
  stderr: 'inherit' | 'ignore' = 'inherit',
): McpServerCommand {
  if (allowedDirs.length === 0) throw new Error('filesystemServer: give at least one allowed folder');
  const pkgPath = require.resolve(`${PACKAGE}/package.json`);
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { bin?: string | Record<string, string> };
  const bin = typeof pkg.bin === 'string' ? pkg.bin : Object.values(pkg.bin ?? {})[0];
  if (!bin) throw new Error(`filesystemServer: ${PACKAGE} declares no bin entry`);
  return { command: process.execPath, args: [join(dirname(pkgPath), bin), ...allowedDirs], stderr };
}

/** A running filesystem server and its tools. `close()` stops the server process. */
export interface FilesystemTools {
  connection: McpConnection;
  /** The connection's SDK client of now. */
  readonly client: Client;
  tools: AnyTool[];
  close(): Promise<void>;
}

/**
 * Starts the filesystem server on `allowedDirs` and declares its tools (names prefixed `fs_` unless told). The
 * reference server's annotations are trusted (`readOnlyHint` makes its reads reads) unless told otherwise.
 * @throws McpAdapterError when the server cannot be started or listed (the server is stopped first).
 */
export async function filesystemTools(
  allowedDirs: readonly string[],
  options: McpToolsOptions & { stderr?: 'inherit' | 'ignore'; reconnect?: boolean } = {},
): Promise<FilesystemTools> {
  const { stderr, reconnect, ...toolOptions } = options;
  const connection = await connectMcp({
    ...filesystemServer(allowedDirs, stderr),
    ...(reconnect === undefined ? {} : { reconnect }),
  });
  try {
    const tools = await mcpTools(connection, { prefix: 'fs_', trustAnnotations: true, ...toolOptions });
    return {
      connection,
      get client() {
        return connection.client;
      },
      tools,
      close: () => connection.close(),
    };
  } catch (err) {
    await connection.close();
    throw err;
  }
}
