/**
 * What one MCP request carries through the SDK to the HTTP layer and back: the bearer token it must present, the
 * HTTP answer it got when that was not a 2xx, and whether the response stream it waited on broke. Held in Node's
 * `AsyncLocalStorage` (node:async_hooks), so concurrent calls on one connection never see each other's token: the
 * SDK sends a request in the async context of the `callTool` that made it (`Protocol.request` calls
 * `transport.send` synchronously), and that context reaches the transport's `fetch` (http-fetch.ts).
 *
 * Node side only (activities).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** A non-2xx HTTP answer of the MCP endpoint, kept whole for the HTTP classifier (recovery/classify/http.ts). */
export interface McpHttpAnswer {
  readonly kind: 'http';
  readonly status: number;
  /** The answer's headers, lower-case names (`www-authenticate`, `retry-after`, …). Never shown to the model. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body's text (at most `MAX_KEPT_BODY_CHARS`). */
  readonly body: string;
  /** The `Mcp-Session-Id` the request carried, if any. */
  readonly sessionId: string | undefined;
}

/** Longest body text kept from a failed HTTP answer, in characters. */
export const MAX_KEPT_BODY_CHARS = 16_384;

const storage = new AsyncLocalStorage<CallScope>();

/** The scope of the request being sent, if it was made inside `CallScope.run`. */
export function currentScope(): CallScope | undefined {
  return storage.getStore();
}

/** The facts of one request (a tool call, a lookup, a connect). */
export class CallScope {
  /** The last non-2xx answer any request of this scope got. */
  http: McpHttpAnswer | undefined;
  /** A request of this scope failed below HTTP (no answer) or its response stream broke: the server may be gone. */
  broken = false;
  private lostError: unknown;
  private rejectLost: ((error: unknown) => void) | undefined;
  private settled = false;
  /** Rejects with the transport's error when the response stream of this scope's request broke. */
  readonly lost: Promise<never>;

  constructor(
    /** The bearer token this scope's requests present; undefined: the connection's own (or none). */
    readonly token: string | undefined,
  ) {
    this.lost = new Promise<never>((_, reject) => {
      this.rejectLost = reject;
    });
    this.lost.catch(() => undefined); // observed by `run`; never an unhandled rejection
  }

  /**
   * Runs `fn` in this scope. When a response stream of the scope breaks first, rejects with that error at once
   * (the SDK would wait for its request timeout) and aborts `abort`, so the SDK drops the request.
   */
  async run<T>(fn: () => Promise<T>, abort?: AbortController): Promise<T> {
    try {
      return await storage.run(this, () => Promise.race([fn(), this.lost]));
    } catch (err) {
      if (this.lostError !== undefined && err === this.lostError) abort?.abort(err);
      throw err;
    } finally {
      this.settled = true;
    }
  }

  /** The HTTP layer saw a non-2xx answer. */
  noteHttp(answer: McpHttpAnswer): void {
    this.http = answer;
  }

  /** A request got no HTTP answer (`fetch` rejected: refused, reset, DNS). */
  noteTransportError(): void {
    this.broken = true;
  }

  /** A response stream broke (`error`: the body reader's error, with the socket's as its `cause`). */
  noteLost(error: unknown): void {
    if (this.settled || this.lostError !== undefined) return;
    this.broken = true;
    this.lostError = error;
    this.rejectLost?.(error);
  }
}
