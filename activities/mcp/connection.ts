/**
 * `McpConnection`: one MCP server as the worker holds it, across the server's restarts. It owns the current SDK
 * `Client` and opens a new one (a new process for stdio, a new session for HTTP: `initialize` again) before the
 * next request once the old one is gone:
 * - stdio: the server process exited (the transport closed);
 * - HTTP: the server answered 404 to a request carrying the session id (MCP spec 2025-11-25, "Transports →
 *   Streamable HTTP → Session Management": the client "MUST start a new session"), or 400 naming the session as
 *   `@modelcontextprotocol/server-everything` does; a request whose connection failed or whose response stream
 *   broke (the server may have restarted).
 * The reconnect is single-flight and happens inside the next call, never in a loop: a server still down fails
 * that call as not sent (error-map.ts, row `reconnect_failed`), and Temporal's retry policy decides when to try
 * again.
 *
 * Node side only.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CredentialBroker } from '../credentials';
import { CallScope, type McpHttpAnswer } from './call-scope';
import { MCP_RECONNECT_FAILED, McpAdapterError, McpAdapterErrorCode } from './errors';
import { RecoveryError } from '../../recovery/recovery-error';

/** How the connection talks to its server. */
export type McpTransportKind = 'stdio' | 'streamable-http' | 'sse';

/** Opens a new client within `scope` (its token, its HTTP facts). */
export type McpOpen = (scope: CallScope) => Promise<{ client: Client; transport: McpTransportKind }>;

/** The broker's credential a connection presents as its bearer token. */
export interface McpCredential {
  broker: CredentialBroker;
  /** The credential id registered with the broker (and declared by every tool of this server). */
  id: string;
}

/** Opening a new client for a server that went away failed: the call waiting on it was never sent. */
export class McpReconnectError extends RecoveryError<typeof MCP_RECONNECT_FAILED> {
  override readonly name = 'McpReconnectError';
  static override readonly codes: readonly string[] = [MCP_RECONNECT_FAILED];
  /**
   * The HTTP answer to the new `initialize`, when it was not a 2xx. Not named `outcome`: only a 401/403 of it
   * decides the call's class (call-error.ts); any other failure to reconnect leaves the call not sent.
   */
  readonly http: McpHttpAnswer | undefined;
  constructor(cause: unknown, http: McpHttpAnswer | undefined) {
    super(
      MCP_RECONNECT_FAILED,
      `could not reconnect to the MCP server: ${(cause as Error)?.message ?? String(cause)}`,
      {
        cause,
      },
    );
    this.http = http;
  }
}

/**
 * A connection to one MCP server (from `connectMcp`): calls its tools and opens a new client once before the
 * next call when the server went away. docs/mcp.md.
 */
export class McpConnection {
  private current: Client;
  private kind: McpTransportKind;
  private stale = false;
  private closed = false;
  private reopening: Promise<Client> | undefined;
  /** How many times a new client was opened after the first. */
  reconnects = 0;

  constructor(
    first: { client: Client; transport: McpTransportKind },
    private readonly open: McpOpen,
    /** Reopen after the server went away. */
    readonly reconnect: boolean,
    /** The broker's credential the connection presents (HTTP only). */
    readonly credential: McpCredential | undefined,
  ) {
    this.current = first.client;
    this.kind = first.transport;
    this.watch(first.client);
  }

  /** The SDK client of now (a new one after each reconnect). */
  get client(): Client {
    return this.current;
  }

  /** The transport in use (`auto` settles on `streamable-http` or `sse` at connect). */
  get transport(): McpTransportKind {
    return this.kind;
  }

  /** The server's name from `initialize` (`serverInfo.name`). */
  get serverName(): string {
    return this.current.getServerVersion()?.name ?? 'server';
  }

  /** The server went away: open a new client before the next request (no-op without `reconnect`). */
  markStale(): void {
    if (this.reconnect && !this.closed) this.stale = true;
  }

  /** A non-2xx answer: a session the server no longer knows makes the connection stale. */
  noteHttpFailure(answer: McpHttpAnswer): void {
    if (isSessionGone(answer)) this.markStale();
  }

  /**
   * The client to send with: the current one, or a new one when the server went away (single-flight).
   * @param token the calling request's bearer token (the new `initialize` presents it).
   * @throws McpAdapterError `closed` after `close()`; McpReconnectError when a new client cannot be opened.
   */
  async ready(token?: string): Promise<Client> {
    if (this.closed) throw new McpAdapterError(McpAdapterErrorCode.CLOSED, 'the MCP connection was closed');
    if (!this.stale) return this.current;
    this.reopening ??= this.reopen(token).finally(() => {
      this.reopening = undefined;
    });
    return this.reopening;
  }

  /** Closes the client (stdio: stops the server process). Later calls fail with `closed`. */
  async close(): Promise<void> {
    this.closed = true;
    this.stale = false;
    await this.current.close().catch(() => undefined);
  }

  private async reopen(token: string | undefined): Promise<Client> {
    const old = this.current;
    old.onclose = undefined;
    await old.close().catch(() => undefined);
    const scope = new CallScope(token);
    let opened: { client: Client; transport: McpTransportKind };
    try {
      opened = await scope.run(() => this.open(scope));
    } catch (err) {
      throw new McpReconnectError(err, scope.http);
    }
    if (this.closed) {
      await opened.client.close().catch(() => undefined);
      throw new McpAdapterError(McpAdapterErrorCode.CLOSED, 'the MCP connection was closed');
    }
    this.current = opened.client;
    this.kind = opened.transport;
    this.stale = false;
    this.reconnects += 1;
    this.watch(opened.client);
    return opened.client;
  }

  /** A client that closes by itself (a stdio server that exited) makes the connection stale. */
  private watch(client: Client): void {
    client.onclose = () => {
      if (client === this.current) this.markStale();
    };
  }
}

/**
 * The server no longer knows the session the request carried: 404 (MCP spec 2025-11-25, "Session Management",
 * item 3), or 400 with a JSON-RPC error about the session, as `@modelcontextprotocol/server-everything` (2026.8)
 * answers an unknown `Mcp-Session-Id` ("Bad Request: No valid session ID provided") and the SDK's server transport
 * a session id sent to a process that has none ("Bad Request: Server not initialized").
 */
export function isSessionGone(answer: McpHttpAnswer): boolean {
  if (answer.sessionId === undefined) return false;
  if (answer.status === 404) return true;
  return answer.status === 400 && /\bsession\b|\bnot initialized\b/i.test(jsonRpcErrorMessage(answer.body) ?? '');
}

function jsonRpcErrorMessage(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } };
    return typeof parsed?.error?.message === 'string' ? parsed.error.message : undefined;
  } catch {
    return undefined;
  }
}
