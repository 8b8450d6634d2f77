/**
 * HTTP answers that arrive wrapped in a thrown error, so their status, headers and body still reach the HTTP
 * classifier: a header such as `Retry-After` must survive error wrapping, and a failure is classified from the
 * structured code, not the JS class name (docs/DESIGN.md, "Failure classes and the two axes").
 *
 * Shapes read, on each error of the cause chain (first hit wins):
 * - an http `RawOutcome` thrown as is, or carried as `outcome` (this project's `HttpOutcomeError`);
 * - axios: `response: { status, headers, data }`; a GraphQL client's `response: { status, headers, data, errors }`;
 * - OpenAI / Anthropic SDK `APIError`: `status`, `headers`, `error` (the body);
 * - undici `ResponseStatusCodeError` and `http-errors`: `statusCode` or `status`, `headers`, `body`;
 * - Azure's `RestError`: `statusCode` with `response.parsedBody` / `response.bodyAsText`;
 * - the Elasticsearch client's `meta: { statusCode, headers, body }`;
 * - an error envelope that keeps the status as a number of its own (`error_code`, `errorCode`: Telegram's
 *   `{ ok: false, error_code, description }`), or as `code` beside the answer's `headers` or `body` (a generated
 *   OpenAPI client's `ApiException`) or beside a `description` (NATS JetStream's `api_error`), or as a `code` of
 *   three digits in a string (NATS: status codes follow HTTP's, "503" no responders);
 * - a message that is a status's reason phrase, whole (`Too many requests`: RFC 9110 §15, the status in words).
 * Only a status that is an integer in 400–599 counts.
 * Pure: no I/O.
 */
import { errorChain } from './network';
import { statusOfPhrase } from './http-status';
import { readProp, readString } from './safe';

/** HTTP facts found in a thrown error. */
export interface WrappedHttp {
  status: number;
  headers: unknown;
  body: unknown;
}

function failureStatus(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) && v >= 400 && v <= 599 ? v : undefined;
}

/** A status kept as `error_code`/`errorCode`, or as `code` where the node shows it is an HTTP-style answer. */
function envelopeStatus(node: unknown): number | undefined {
  const own = failureStatus(readProp(node, 'error_code')) ?? failureStatus(readProp(node, 'errorCode'));
  if (own !== undefined) return own;
  const code = readProp(node, 'code');
  if (typeof code === 'string' && /^[45]\d\d$/.test(code)) return Number(code);
  const answerBeside = ['headers', 'body', 'description'].some((k) => readProp(node, k) !== undefined);
  return answerBeside ? failureStatus(code) : undefined;
}

/** A failure status in `holder`'s `status` or `statusCode`. */
const statusOf = (holder: unknown) =>
  failureStatus(readProp(holder, 'status')) ?? failureStatus(readProp(holder, 'statusCode'));
/** The answer `holder` keeps: `status`, its `headers` (`{}` when absent) and `body`. */
const answer = (status: number, holder: unknown, body: unknown): WrappedHttp => ({
  status,
  headers: readProp(holder, 'headers') ?? {},
  body,
});

/** The HTTP answer one error of a chain carries (see the module docs). */
export function fromNode(node: unknown): WrappedHttp | undefined {
  for (const outcome of [node, readProp(node, 'outcome')]) {
    const status = readProp(outcome, 'kind') === 'http' ? failureStatus(readProp(outcome, 'status')) : undefined;
    if (status !== undefined) return answer(status, outcome, readProp(outcome, 'body'));
  }
  // An answer kept in `meta` (the Elasticsearch client: `meta.statusCode`, `meta.headers`, `meta.body`).
  const meta = readProp(node, 'meta');
  const metaStatus = failureStatus(readProp(meta, 'statusCode'));
  if (metaStatus !== undefined) return answer(metaStatus, meta, readProp(meta, 'body'));
  const response = readProp(node, 'response');
  const responseStatus = statusOf(response);
  if (responseStatus !== undefined) {
    // A GraphQL response (GraphQL spec §7.1: `data`, `errors`, `extensions`) is the body itself: its errors.
    const body = Array.isArray(readProp(response, 'errors'))
      ? response
      : (readProp(response, 'data') ??
        readProp(response, 'body') ??
        readProp(response, 'parsedBody') ??
        readProp(response, 'bodyAsText'));
    return answer(responseStatus, response, body);
  }
  const status = statusOf(node);
  if (status !== undefined)
    return answer(status, node, readProp(node, 'error') ?? readProp(node, 'body') ?? readProp(node, 'data'));
  const enveloped = envelopeStatus(node);
  if (enveloped !== undefined) return answer(enveloped, node, readProp(node, 'body') ?? node);
  const phrase = statusOfPhrase(readString(node, 'message'));
  return phrase === undefined || phrase < 400 ? undefined : { status: phrase, headers: {}, body: undefined };
}

/** The first HTTP answer carried by `error` or its causes; `undefined` when there is none. Never throws. */
export function wrappedHttp(error: unknown): WrappedHttp | undefined {
  for (const node of errorChain(error)) {
    const hit = fromNode(node);
    if (hit) return hit;
  }
  return undefined;
}
