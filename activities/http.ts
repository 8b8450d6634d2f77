/**
 * HTTP for tools, keeping the raw facts the classifier needs (docs/DESIGN.md, "Failure classes and the two axes":
 * tool adapters hand the router the facts as they came, never a flattened string). A non-2xx answer throws
 * `HttpOutcomeError` with status, headers and body, unless the request lists its status in `accept` (a lookup that
 * reads a 404 as "not applied": docs/tools.md, "Lookups").
 */
import type { RawOutcome } from '../recovery/classify';
import type { Idempotency } from '../recovery/tool-spec';
import { RecoveryError } from '../recovery/recovery-error';
import type { HttpEvidence } from './http-evidence';

/** One request of `ctx.http.request`. */
export interface ToolHttpRequest {
  /** @default "GET" */
  method?: string;
  /** Absolute URL. */
  url: string;
  headers?: Record<string, string>;
  /** JSON body (sets `content-type: application/json`). */
  json?: unknown;
  /** Client-side timeout for the whole exchange, in ms. @default none beyond the activity's own timeout */
  timeoutMs?: number;
  /**
   * Statuses outside 2xx that are answers, not failures: the response is returned instead of thrown, e.g.
   * `accept: [404]` in a `lookup` or `verify` that reads "not found" as `not_applied` or `does_not_hold`. Each an
   * integer from 100 to 599 (RFC 9110 §15: a status code is three digits, 1xx–5xx).
   * @default [] (every non-2xx answer throws `HttpOutcomeError`)
   */
  accept?: readonly number[];
}

/** An answer `ctx.http.request` returns: any 2xx, or a status the request listed in `accept`. */
export interface ToolHttpResponse {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON when the answer says JSON and parses; the text otherwise; `""` for an empty body. */
  body: unknown;
}

/** `ctx.http`: HTTP for tools that keeps what the classifier needs (status, headers, body). */
export interface ToolHttp {
  /**
   * Sends the request with the call's idempotency key (when the tool carries it in a header) and credential.
   * @returns the answer: any 2xx, or a status listed in `req.accept`.
   * @throws HttpOutcomeError for any other answer; the fetch error itself (with its `cause`) when no answer came.
   * @throws ToolHttpRequestError before sending, when `req.accept` is not an array of integers from 100 to 599.
   */
  request(req: ToolHttpRequest): Promise<ToolHttpResponse>;
}

/** A non-2xx HTTP answer, carried whole to the classifier. */
export class HttpOutcomeError extends RecoveryError<'http_outcome'> {
  override readonly name = 'HttpOutcomeError';
  static override readonly codes: readonly string[] = ['http_outcome'];
  constructor(readonly outcome: Extract<RawOutcome, { kind: 'http' }>) {
    super('http_outcome', `HTTP ${outcome.status}`);
  }
}

/** A request `ctx.http` refuses before sending it (a malformed `accept`); the message names the field. */
export class ToolHttpRequestError extends RecoveryError<'invalid_http_request'> {
  override readonly name = 'ToolHttpRequestError';
  static override readonly codes: readonly string[] = ['invalid_http_request'];
}

/** `accept` as a set of statuses. @throws ToolHttpRequestError unless an array of integers from 100 to 599. */
function acceptedStatuses(accept: unknown): ReadonlySet<number> {
  if (accept === undefined) return new Set();
  const valid = Array.isArray(accept) && accept.every((s) => Number.isInteger(s) && s >= 100 && s <= 599);
  if (!valid) {
    throw new ToolHttpRequestError(
      'invalid_http_request',
      'ctx.http.request: accept must be an array of HTTP status codes (integers from 100 to 599), e.g. [404]',
    );
  }
  return new Set(accept as number[]);
}

export interface ToolHttpOptions {
  idempotency: Idempotency;
  operationId: string;
  credential: { token: string } | undefined;
  signal: AbortSignal;
  /** Records what each request got, for an opaque error the tool throws after (activities/http-evidence.ts). */
  evidence?: HttpEvidence;
}

export function createToolHttp(options: ToolHttpOptions): ToolHttp {
  return {
    async request(req) {
      const accepted = acceptedStatuses(req.accept);
      const evidence = options.evidence;
      evidence?.sending();
      try {
        const res = await exchange(options, req, accepted);
        evidence?.answered(req.method ?? 'GET');
        return res;
      } catch (err) {
        evidence?.threw(err);
        throw err;
      }
    },
  };
}

/** One request: its answer, or `HttpOutcomeError` for a status it does not accept. */
async function exchange(
  options: ToolHttpOptions,
  req: ToolHttpRequest,
  accepted: ReadonlySet<number>,
): Promise<ToolHttpResponse> {
  const headers: Record<string, string> = { accept: 'application/json', ...req.headers };
  if (options.idempotency.carrier === 'header') headers[options.idempotency.name] = options.operationId;
  if (options.credential) headers.authorization = `Bearer ${options.credential.token}`;
  if (req.json !== undefined) headers['content-type'] = 'application/json';
  const signal =
    req.timeoutMs === undefined
      ? options.signal
      : AbortSignal.any([options.signal, AbortSignal.timeout(req.timeoutMs)]);
  const res = await fetch(req.url, {
    method: req.method ?? 'GET',
    headers,
    body: req.json === undefined ? undefined : JSON.stringify(req.json),
    signal,
  });
  const text = await res.text();
  const responseHeaders = Object.fromEntries(res.headers.entries());
  const body = parseBody(text, responseHeaders['content-type']);
  if ((res.status < 200 || res.status > 299) && !accepted.has(res.status)) {
    throw new HttpOutcomeError({ kind: 'http', status: res.status, headers: responseHeaders, body });
  }
  return { status: res.status, headers: responseHeaders, body };
}

function parseBody(text: string, contentType: string | undefined): unknown {
  if (text === '') return '';
  if (contentType?.includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}
