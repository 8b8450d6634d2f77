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
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

export class HttpEvidence {
  private lastError: unknown = undefined;
  private lastThrew = false;
  private unsafeAnswered = false;
  private inFlight = 0;

  /** A request is about to be sent. */
  sending(): void {
    this.inFlight += 1;
  }

  /** The request got an answer the tool receives (a 2xx or a status it listed in `accept`). */
  answered(method: string): void {
    this.inFlight -= 1;
    this.lastThrew = false;
    if (!SAFE_METHODS.has(method.toUpperCase())) this.unsafeAnswered = true;
  }

  /** `ctx.http` threw `err` for the request (an `HttpOutcomeError`, or the fetch error when no answer came). */
  threw(err: unknown): void {
    this.inFlight -= 1;
    this.lastError = err;
    this.lastThrew = true;
  }

  /** The error ctx.http threw that explains an opaque throw of the tool, or `undefined` (see the module docs). */
  impliedCause(): unknown {
    return this.lastThrew && this.inFlight === 0 && !this.unsafeAnswered ? this.lastError : undefined;
  }
}
