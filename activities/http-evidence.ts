/**
 * What `ctx.http` saw during one attempt, for an error the tool threw that no fact speaks for (docs/DESIGN.md,
 * "Facts, not libraries"). An adapter that catches `ctx.http`'s `HttpOutcomeError` and throws
 * `new Error("Unexpected error occurred")` loses the error's type, not the facts: the router still holds the answer
 * it got. That answer is the thrown error's implied cause when it was the attempt's last exchange, no request is
 * still in flight, and no unsafe request (RFC 9110 §9.2.1: a method other than GET, HEAD, OPTIONS or TRACE) got an
 * answer the tool accepted before it — so no change the call made hides behind it.
 * Node-side only.
 */

/** RFC 9110 §9.2.1: the safe methods. */
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

/** A 2xx to an unsafe request: the receiver accepted a write. */
const acceptsWrite = (method: string, status: number) =>
  status >= 200 && status <= 299 && !SAFE_METHODS.has(method.toUpperCase());

export class HttpEvidence {
  private lastError: unknown = undefined;
  private lastThrew = false;
  private unsafeAnswered = false;
  private inFlight = 0;
  /** An unsafe request got a 2xx: the receiver accepted a write of this attempt. */
  writeAccepted = false;

  /** A request is about to be sent. */
  sending(): void {
    this.inFlight += 1;
  }

  /** The request got an answer the tool receives (a 2xx or a status it listed in `accept`). */
  answered(method: string, status: number): void {
    this.inFlight -= 1;
    this.lastThrew = false;
    if (!SAFE_METHODS.has(method.toUpperCase())) this.unsafeAnswered = true;
    this.writeAccepted ||= acceptsWrite(method, status);
  }

  /** `ctx.http` threw `err` for the request; `status` when an answer came whose body could not be read. */
  threw(err: unknown, method = 'GET', status?: number): void {
    this.inFlight -= 1;
    this.lastError = err;
    this.lastThrew = true;
    this.writeAccepted ||= status !== undefined && acceptsWrite(method, status);
  }

  /** The error ctx.http threw that explains an opaque throw of the tool, or `undefined` (see the module docs). */
  impliedCause(): unknown {
    return this.lastThrew && this.inFlight === 0 && !this.unsafeAnswered ? this.lastError : undefined;
  }
}
