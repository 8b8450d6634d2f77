/**
 * The `fetch` an HTTP MCP connection gives the SDK's transports (`StreamableHTTPClientTransport`,
 * `SSEClientTransport`: their `fetch` option). Per request it
 * - presents the bearer token: the call's (its `CallScope`, from the broker through `ctx.credential`), else the
 *   connection's own (`bearer()`), as `Authorization: Bearer <token>` (RFC 6750 §2.1), unless a header is set;
 * - keeps a non-2xx answer whole (status, headers, body) in the call's scope, because the SDK's
 *   `StreamableHTTPError` keeps only the status and the body text, and the classifier needs `WWW-Authenticate`
 *   (RFC 6750 §3, RFC 9728 §5.1) and `Retry-After` (RFC 9110 §10.2.3) too;
 * - watches the SSE response stream of a POST made in a call's scope: a stream that breaks fails the call at once
 *   as "maybe sent" (call-scope.ts), where the SDK would wait for the request timeout or try to resume it. A
 *   stream the server ends cleanly is left to the SDK (it resumes a primed one, MCP spec 2025-11-25, "Streamable
 *   HTTP → Resumability and Redelivery"; an unprimed one without the answer ends in the request timeout).
 * A request that fails before any answer (refused, reset) rejects as `fetch` does; the network rules read it.
 *
 * Node side only.
 */
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { currentScope, MAX_KEPT_BODY_CHARS, type CallScope, type McpHttpAnswer } from './call-scope';

export interface McpFetchOptions {
  /** The connection's token, for requests made outside a call (initialize, tools/list, the GET stream). */
  bearer?: () => Promise<string | undefined>;
  /** Sent with every request (a header the request already has wins). */
  headers?: Readonly<Record<string, string>>;
  /** Told of every non-2xx answer, in or out of a call (the connection marks a lost session). */
  onHttpFailure?: (answer: McpHttpAnswer) => void;
  /** The fetch underneath. @default globalThis.fetch */
  fetch?: FetchLike;
}

/** A `fetch` for the SDK's HTTP transports (see the module docs). */
export function mcpFetch(options: McpFetchOptions): FetchLike {
  const base = options.fetch ?? ((url, init) => fetch(url, init));
  return async (url, init) => {
    const scope = currentScope();
    const headers = new Headers(init?.headers);
    for (const [name, value] of Object.entries(options.headers ?? {})) if (!headers.has(name)) headers.set(name, value);
    if (!headers.has('authorization')) {
      const token = scope?.token ?? (await options.bearer?.());
      if (token !== undefined) headers.set('authorization', `Bearer ${token}`);
    }
    let response: Response;
    try {
      response = await base(url, { ...init, headers });
    } catch (err) {
      scope?.noteTransportError();
      throw err;
    }
    if (!response.ok) {
      const answer = await keep(response, headers.get('mcp-session-id') ?? undefined);
      scope?.noteHttp(answer);
      options.onHttpFailure?.(answer);
      return response;
    }
    const isStream = /^text\/event-stream\b/i.test(response.headers.get('content-type') ?? '');
    return scope && isStream && (init?.method ?? 'GET').toUpperCase() === 'POST' ? watched(response, scope) : response;
  };
}

/** A failed answer's facts; the response itself stays readable for the SDK. */
async function keep(response: Response, sessionId: string | undefined): Promise<McpHttpAnswer> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name.toLowerCase()] = value;
  });
  const body = await response
    .clone()
    .text()
    .catch(() => '');
  return {
    kind: 'http',
    status: response.status,
    headers,
    body: body.length > MAX_KEPT_BODY_CHARS ? body.slice(0, MAX_KEPT_BODY_CHARS) : body,
    sessionId,
  };
}

/** The same response whose body tells `scope` when it breaks (read on demand: `highWaterMark` 0). */
function watched(response: Response, scope: CallScope): Response {
  const source = response.body;
  if (!source) return response;
  const reader = source.getReader();
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) controller.close();
          else controller.enqueue(value);
        } catch (err) {
          scope.noteLost(err);
          controller.error(err);
        }
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
