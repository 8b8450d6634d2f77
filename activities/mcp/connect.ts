/**
 * `connectMcp`: connects to an MCP server, over stdio (the worker starts the server as a child process) or over
 * HTTP (a remote server: streamable HTTP, with the SSE transport as the fallback for older servers), and returns
 * an `McpConnection` that reconnects after the server went away (connection.ts). Node side only (activities,
 * worker): the connection lives as long as the worker that calls the server's tools.
 *
 * Sources: MCP spec 2025-11-25, "Transports → stdio" (the client launches the server as a subprocess; JSON-RPC on
 * stdin/stdout; stderr is for logs), "Transports → Streamable HTTP" (POST per message, SSE or JSON answers,
 * `Mcp-Session-Id`), its "Backwards Compatibility" (POST `initialize` first; "if it fails with an HTTP 4xx status
 * code (e.g., 405 Method Not Allowed or 404 Not Found)", open the old HTTP+SSE transport's GET stream), and
 * "Authorization" (a bearer token in the `Authorization` header of every request, RFC 6750 §2.1).
 * `@modelcontextprotocol/sdk` 1.32: `Client`, `StdioClientTransport`, `StreamableHTTPClientTransport`,
 * `SSEClientTransport`, `OAuthClientProvider`.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike, Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallScope, type McpHttpAnswer } from './call-scope';
import {
  checkTarget,
  describe,
  type McpServerCommand,
  type McpServerTarget,
  type McpServerUrl,
  type McpTargetCommon,
} from './connect-target';
import { McpConnection, type McpCredential, type McpOpen, type McpTransportKind } from './connection';
import { McpAdapterError, McpAdapterErrorCode } from './errors';
import { mcpFetch } from './http-fetch';

export type { McpServerCommand, McpServerTarget, McpServerUrl } from './connect-target';

const DEFAULT_CLIENT_INFO = { name: 'recovery-router', version: '0.1.0' };
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
/** The SDK's resumption of broken GET streams: the SDK's defaults (1 s, ×1.5, at most 30 s, 2 tries). */
const RECONNECTION = {
  initialReconnectionDelay: 1_000,
  reconnectionDelayGrowFactor: 1.5,
  maxReconnectionDelay: 30_000,
  maxRetries: 2,
};

/**
 * Connects and completes the MCP handshake.
 *
 * @returns an `McpConnection` (`connection.client` is the SDK `Client`). `close()` ends it (stdio: closes the
 *   server's stdin and stops the process, SIGTERM then SIGKILL after 2 s each, by the SDK).
 * @throws McpAdapterError `invalid_options` naming the field (a `command` that is not a non-empty string, a `url`
 *   that is not http(s), `credential` without a `CredentialBroker` and an id, both `credential` and
 *   `authProvider`, …); `connect_failed` when the process cannot be started, the server cannot be reached, or
 *   the handshake fails, also after one refresh of a credential answered 401 (the SDK's error is the `cause`).
 */
export async function connectMcp(target: McpServerTarget): Promise<McpConnection> {
  checkTarget(target);
  const reconnect = target.reconnect ?? true;
  if ('command' in target) {
    const open = stdioOpener(target);
    return new McpConnection(await openFirst(open, undefined, describe(target)), open, reconnect, undefined);
  }
  const made: { connection?: McpConnection } = {}; // the fetch reports to the connection it serves
  const credential = target.credential;
  const fetchFn = mcpFetch({
    ...(target.headers ? { headers: target.headers } : {}),
    ...(credential ? { bearer: async () => (await credential.broker.current(credential.id)).token } : {}),
    ...(target.fetch ? { fetch: target.fetch } : {}),
    onHttpFailure: (answer) => made.connection?.noteHttpFailure(answer),
  });
  const open = httpOpener(target, fetchFn);
  made.connection = new McpConnection(await openFirst(open, credential, describe(target)), open, reconnect, credential);
  return made.connection;
}

type Opened = { client: Client; transport: McpTransportKind };

/** The first connect; a 401 to the broker's token refreshes it once and connects again. */
async function openFirst(open: McpOpen, credential: McpCredential | undefined, shown: string): Promise<Opened> {
  const fail = (err: unknown): never => {
    throw new McpAdapterError(
      McpAdapterErrorCode.CONNECT_FAILED,
      `connectMcp: could not ${shown.startsWith('"') ? 'start' : 'connect to'} the MCP server ${shown}: ${(err as Error)?.message ?? String(err)}`,
      { cause: err },
    );
  };
  const attempt = async (token: string | undefined): Promise<Opened | { error: unknown; http?: McpHttpAnswer }> => {
    const scope = new CallScope(token);
    try {
      return await scope.run(() => open(scope));
    } catch (error) {
      return { error, ...(scope.http ? { http: scope.http } : {}) };
    }
  };
  try {
    const first = credential ? await credential.broker.current(credential.id) : undefined;
    let result = await attempt(first?.token);
    if ('error' in result && credential && first && result.http?.status === 401) {
      await credential.broker.refresh(credential.id, first.version);
      result = await attempt((await credential.broker.current(credential.id)).token);
    }
    return 'error' in result ? fail(result.error) : result;
  } catch (err) {
    return McpAdapterError.is(err) ? Promise.reject(err) : fail(err);
  }
}

function newClient(info: McpTargetCommon['clientInfo']): Client {
  return new Client(info ?? DEFAULT_CLIENT_INFO);
}

/** `client.connect` (the `initialize` handshake, at most `timeoutMs`), closing both ends when it fails. */
async function handshake(client: Client, transport: Transport, timeoutMs: number): Promise<void> {
  try {
    await client.connect(transport, { timeout: timeoutMs });
  } catch (err) {
    await client.close().catch(() => undefined);
    await transport.close().catch(() => undefined);
    throw err;
  }
}

function stdioOpener(target: McpServerCommand): McpOpen {
  const timeout = target.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  return async () => {
    const transport = new StdioClientTransport({
      command: target.command,
      args: [...(target.args ?? [])],
      ...(target.env ? { env: { ...target.env } } : {}),
      ...(target.cwd ? { cwd: target.cwd } : {}),
      stderr: target.stderr ?? 'inherit',
    });
    const client = newClient(target.clientInfo);
    await handshake(client, transport, timeout);
    return { client, transport: 'stdio' };
  };
}

function httpOpener(target: McpServerUrl, fetchFn: FetchLike): McpOpen {
  const url = new URL(target.url);
  const mode = target.transport ?? 'auto';
  const timeout = target.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const auth = target.authProvider ? { authProvider: target.authProvider } : {};
  const sse = async (): Promise<Opened> => {
    const client = newClient(target.clientInfo);
    await handshake(client, new SSEClientTransport(url, { fetch: fetchFn, ...auth }), timeout);
    return { client, transport: 'sse' };
  };
  return async (scope) => {
    if (mode === 'sse') return sse();
    const client = newClient(target.clientInfo);
    const transport = new StreamableHTTPClientTransport(url, {
      fetch: fetchFn,
      reconnectionOptions: RECONNECTION,
      ...auth,
    });
    try {
      await handshake(client, transport, timeout);
      return { client, transport: 'streamable-http' };
    } catch (err) {
      const answer = scope.http;
      if (mode === 'streamable-http' || !isOldServerAnswer(answer)) throw err;
      // Not an old server either: the streamable HTTP answer is the one that says what is wrong.
      return sse().catch(() => {
        scope.http = answer;
        throw err;
      });
    }
  };
}

/** A 4xx but 401/403 to the first POST: a server of the old HTTP+SSE transport (MCP "Backwards Compatibility"). */
function isOldServerAnswer(http: McpHttpAnswer | undefined): boolean {
  return http !== undefined && http.status >= 400 && http.status <= 499 && http.status !== 401 && http.status !== 403;
}
