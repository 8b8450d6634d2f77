/**
 * One `tools/call` on an MCP connection, as a tool's `execute` and `lookup` make it: in its own `CallScope` (the
 * token the activity got from the broker, the HTTP facts), on the connection's current client (reconnecting
 * first when the server went away), with the activity's cancellation signal, progress as heartbeats, and the
 * request timeout. Whatever fails becomes an `McpCallError` (error-map.ts reads it).
 *
 * Node side only.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ToolContext } from '../tool-context';
import { McpCallError } from './call-error';
import { CallScope } from './call-scope';
import type { McpCredential } from './connection';

/** What a tool needs of its server: `McpConnection`, or a bare SDK `Client` (no reconnect, no credential). */
export interface McpSession {
  readonly client: Client;
  readonly credential: McpCredential | undefined;
  readonly serverName: string;
  ready(token?: string): Promise<Client>;
  markStale(): void;
}

/** A bare client as a session: it never reconnects. */
export function fixedSession(client: Client): McpSession {
  return {
    client,
    credential: undefined,
    get serverName() {
      return client.getServerVersion()?.name ?? 'server';
    },
    ready: async () => client,
    markStale: () => undefined,
  };
}

/** A `tools/call` result, as the SDK parsed it. */
export type McpCallResult = Awaited<ReturnType<Client['callTool']>>;

/**
 * Calls `name` with `args`.
 * @param timeoutMs the request timeout in ms (the SDK's own default, 60 s, when undefined).
 * @returns the result, `isError` ones included (the caller decides what they mean).
 * @throws McpCallError for anything thrown on the way (a lost connection, an HTTP answer, a timeout, …).
 */
export async function callMcpTool(
  session: McpSession,
  name: string,
  args: Record<string, unknown>,
  ctx: Pick<ToolContext, 'signal' | 'credential' | 'heartbeat'>,
  timeoutMs: number | undefined,
): Promise<McpCallResult> {
  const token = ctx.credential?.token;
  const scope = new CallScope(token);
  const abort = new AbortController();
  const onAbort = () => abort.abort(ctx.signal.reason);
  if (ctx.signal.aborted) onAbort();
  else ctx.signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await scope.run(async () => {
      const client = await session.ready(token);
      return client.callTool({ name, arguments: args }, undefined, {
        signal: abort.signal,
        onprogress: (progress) => ctx.heartbeat(progress),
        ...(timeoutMs ? { timeout: timeoutMs } : {}),
      });
    }, abort);
  } catch (err) {
    if (scope.broken) session.markStale();
    throw McpCallError.fromThrown(name, err, scope.http);
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
  }
}
