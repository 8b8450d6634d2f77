/**
 * HTTP for tools, keeping the raw facts the classifier needs (docs/DESIGN.md, "Failure classes and the two axes"). A
 * non-2xx answer throws `HttpOutcomeError` with status, headers and body, unless the request lists its status in
 * `accept` (a lookup that reads a 404 as "not applied": docs/tools.md, "Lookups"). Bodies are read to a bound
 * (activities/http-body.ts).
 *
 * One origin per request (docs/tools.md, "ctx.http"). A redirect (RFC 9110 §15.4) is followed only by a safe method
 * (§9.2.1), to the same origin (RFC 6454 §4: scheme, host, port), without credentials, at most `MAX_REDIRECTS` times;
 * otherwise it is the answer. A write's redirect proves nothing about whether it applied, and nothing a request
 * carries (body, idempotency key, credential, any header) reaches another origin.
 */
import type { RawOutcome } from '../recovery/classify';
import type { Idempotency } from '../recovery/tool-spec';
import { RecoveryError } from '../recovery/recovery-error';
import { MAX_BODY_BYTES, MAX_ERROR_BODY_BYTES, parseBody, readBounded, withoutSecrets } from './http-body';
import { SAFE_METHODS, type HttpEvidence } from './http-evidence';

/** Redirects a safe request follows, each within its origin. */
export const MAX_REDIRECTS = 5;
/** RFC 9110 §15.4.2–§15.4.9: the statuses whose `Location` names where the resource is now. */
const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
/** Request headers whose values no body hands on, beside a tool's `secretHeaders`. */
const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'cookie'];

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
  /** Bytes of a 2xx (or accepted) body read, 1 to 2^30; over it, `HttpBodyError`. @default 8 MiB (`MAX_BODY_BYTES`) */
  maxBodyBytes?: number;
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
   * Sends the request with the call's idempotency key (when the tool carries it in a header) and credential; a safe
   * method follows redirects within its origin (see the module docs).
   * @returns the answer: any 2xx, or a status listed in `req.accept`.
   * @throws HttpOutcomeError for any other answer (a redirect not followed included); the fetch error itself (with
   *   its `cause`) when no answer came, or when a safe request's body was cut off.
   * @throws HttpBodyError for a 2xx body over `maxBodyBytes`, or a write's 2xx body cut off.
   * @throws ToolHttpRequestError before sending, when `req.accept` or `req.maxBodyBytes` is malformed.
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

/**
 * A 2xx whose body cannot be read whole: over the bound (`too_large`), or a write's cut off after its status came
 * (`cut`; a read's cut body is the network error itself). A write that got the status was applied.
 */
export class HttpBodyError extends RecoveryError<'http_body_unreadable'> {
  override readonly name = 'HttpBodyError';
  static override readonly codes: readonly string[] = ['http_body_unreadable'];
  constructor(
    readonly status: number,
    readonly why: 'too_large' | 'cut',
    readonly limit: number,
  ) {
    const what = why === 'cut' ? 'was cut off' : `is over the ${limit}-byte bound it is read to`;
    super('http_body_unreadable', `HTTP ${status}, but its body ${what}`);
  }
}

/** A request `ctx.http` refuses before sending it (a malformed `accept`); the message names the field. */
export class ToolHttpRequestError extends RecoveryError<'invalid_http_request'> {
  override readonly name = 'ToolHttpRequestError';
  static override readonly codes: readonly string[] = ['invalid_http_request'];
}

/** One request as sent: checked, its headers, the secret values among them, what answers it takes and to what bound. */
type Plan = ReturnType<typeof planOf>;

/** @throws ToolHttpRequestError for a malformed `accept` or `maxBodyBytes`, naming the field and its rule. */
function planOf(options: ToolHttpOptions, req: ToolHttpRequest) {
  const { accept = [], maxBodyBytes: limit = MAX_BODY_BYTES } = req;
  const refused = (m: string) => new ToolHttpRequestError('invalid_http_request', `ctx.http.request: ${m}`);
  if (!Array.isArray(accept) || !accept.every((s) => Number.isInteger(s) && s >= 100 && s <= 599))
    throw refused('accept must be an array of HTTP status codes (integers from 100 to 599), e.g. [404]');
  if (!Number.isInteger(limit) || limit < 1 || limit > 2 ** 30)
    throw refused('maxBodyBytes must be an integer from 1 to 1073741824 (bytes)');
  const headers: Record<string, string> = { accept: 'application/json', ...req.headers };
  if (options.idempotency.carrier === 'header') headers[options.idempotency.name] = options.operationId;
  if (options.credential) headers.authorization = `Bearer ${options.credential.token}`;
  if (req.json !== undefined) headers['content-type'] = 'application/json';
  const secret = new Set([...CREDENTIAL_HEADERS, ...(options.secretHeaders ?? [])].map((h) => h.toLowerCase()));
  const timeout = req.timeoutMs === undefined ? [] : [AbortSignal.timeout(req.timeoutMs)];
  const method = (req.method ?? 'GET').toUpperCase();
  return {
    method,
    init: {
      method,
      headers,
      body: req.json === undefined ? undefined : JSON.stringify(req.json),
      redirect: 'manual' as const,
      signal: AbortSignal.any([options.signal, ...timeout]),
    },
    accepted: new Set<number>(accept),
    limit,
    secrets: Object.entries(headers).flatMap(([name, value]) => (secret.has(name.toLowerCase()) ? [value] : [])),
  };
}

export interface ToolHttpOptions {
  idempotency: Idempotency;
  operationId: string;
  credential: { token: string } | undefined;
  signal: AbortSignal;
  /** Request headers whose values are secrets (the tool's `secretHeaders`), beside the credential headers. */
  secretHeaders?: readonly string[];
  /** Records what each request got, for an opaque error the tool throws after (activities/http-evidence.ts). */
  evidence?: HttpEvidence;
}

export function createToolHttp(options: ToolHttpOptions): ToolHttp {
  return {
    async request(req) {
      const plan = planOf(options, req);
      options.evidence?.sending();
      try {
        const res = await exchange(req.url, plan);
        options.evidence?.answered(plan.method, res.status);
        return res;
      } catch (err) {
        options.evidence?.threw(err, plan.method, HttpBodyError.is(err) ? err.status : undefined);
        throw err;
      }
    },
  };
}

/** One request, with the redirects a safe method follows within its origin: its answer, or `HttpOutcomeError`. */
async function exchange(url: string, plan: Plan): Promise<ToolHttpResponse> {
  for (let hops = 0; ; hops++) {
    const res = await fetch(url, plan.init);
    const next = hops < MAX_REDIRECTS && SAFE_METHODS.has(plan.method) ? sameOriginTarget(res, url) : undefined;
    if (next === undefined) return answer(res, plan);
    await res.body?.cancel().catch(() => undefined);
    url = next;
  }
}

/** Where a redirect goes when that is the same origin and its Location holds no credentials; else `undefined`. */
function sameOriginTarget(res: Response, from: string): string | undefined {
  const location = res.headers.get('location');
  if (!REDIRECTS.has(res.status) || location === null || !URL.canParse(location, from)) return undefined;
  const to = new URL(location, from);
  return to.origin === new URL(from).origin && to.username === '' && to.password === '' ? to.href : undefined;
}

/** The answer `res` gives the tool, its body read to its bound. @throws as `ToolHttp.request` documents. */
async function answer(res: Response, { method, accepted, limit, secrets, init }: Plan): Promise<ToolHttpResponse> {
  const is2xx = res.status >= 200 && res.status <= 299;
  const wanted = is2xx || accepted.has(res.status);
  const read = await readBounded(res, wanted ? limit : MAX_ERROR_BODY_BYTES);
  // A body cut off is the network's failure, except after a write's 2xx: that status says it was applied.
  const writeApplied = is2xx && !SAFE_METHODS.has(method);
  if (read.cut !== undefined && (init.signal.aborted || (wanted && !writeApplied))) throw read.cut;
  if (wanted && (read.over || read.cut !== undefined))
    throw new HttpBodyError(res.status, read.over ? 'too_large' : 'cut', limit);
  const headers = Object.fromEntries(res.headers.entries());
  const body = parseBody(withoutSecrets(read.text, secrets), headers['content-type']);
  if (!wanted) throw new HttpOutcomeError({ kind: 'http', status: res.status, headers, body });
  return { status: res.status, headers, body };
}
