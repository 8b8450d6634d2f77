/**
 * The HTTP status table of classify/http.ts: status → rule (`STATUS_RULES`), a status's family when it has no
 * row, and the words of the `not_performed` statuses. Sources: RFC 9110 §15, RFC 4918, RFC 5842, RFC 6585 (see
 * classify/http.ts). Pure.
 */
import { literal, type PublicPart } from './public-parts';
import { ownEntry } from './safe';

/** How a status is handled. A const object plus a type of the same name. */
export const HttpRule = {
  BAD_REQUEST: 'bad_request',
  UNAUTHORIZED: 'unauthorized',
  PAYMENT_REQUIRED: 'payment_required',
  FORBIDDEN: 'forbidden',
  NOT_FOUND: 'not_found',
  GONE: 'gone',
  CONFLICT: 'conflict',
  PRECONDITION_FAILED: 'precondition_failed',
  UNPROCESSABLE: 'unprocessable',
  TOO_LARGE: 'too_large',
  NOT_PROCESSED: 'not_processed',
  RATE_LIMITED: 'rate_limited',
  LEGAL_BLOCK: 'legal_block',
  PROTOCOL_BUG: 'protocol_bug',
  CLIENT_ERROR: 'client_error',
  UNAVAILABLE: 'unavailable',
  NOT_IMPLEMENTED: 'not_implemented',
  NOT_PERFORMED: 'not_performed',
  SERVER_ERROR: 'server_error',
} as const;
export type HttpRule = (typeof HttpRule)[keyof typeof HttpRule];

const H = HttpRule;

/** Status → rule. A status not listed falls to its family: 4xx `client_error`, 5xx `server_error`. */
export const STATUS_RULES: Readonly<Record<number, HttpRule>> = Object.freeze({
  400: H.BAD_REQUEST,
  401: H.UNAUTHORIZED,
  402: H.PAYMENT_REQUIRED, // RFC 9110 §15.5.3: reserved, in practice billing: waiting or replanning will not pay
  403: H.FORBIDDEN,
  404: H.NOT_FOUND,
  405: H.PROTOCOL_BUG, // the adapter used a method the endpoint does not allow
  406: H.PROTOCOL_BUG, // the adapter's Accept cannot be served
  408: H.NOT_PROCESSED, // RFC 9110 §15.5.9: the server timed out waiting for the request
  409: H.CONFLICT,
  410: H.GONE,
  411: H.PROTOCOL_BUG, // Length Required
  412: H.PRECONDITION_FAILED,
  413: H.TOO_LARGE, // the arguments are too large: a smaller call can pass
  414: H.TOO_LARGE,
  415: H.PROTOCOL_BUG, // the adapter sent a media type the endpoint does not take
  416: H.BAD_REQUEST, // RFC 9110 §15.5.17: Range Not Satisfiable, the range asked for is outside the resource
  421: H.NOT_PROCESSED, // RFC 9110 §15.5.20: Misdirected Request; may be retried on a new connection, any method
  422: H.UNPROCESSABLE,
  425: H.NOT_PROCESSED, // RFC 8470 §5.2: Too Early, the request was not processed
  428: H.PRECONDITION_FAILED, // RFC 6585 §3: Precondition Required
  429: H.RATE_LIMITED,
  431: H.TOO_LARGE,
  451: H.LEGAL_BLOCK, // RFC 7725: unavailable for legal reasons
  500: H.SERVER_ERROR,
  501: H.NOT_IMPLEMENTED, // the operation is not supported: time will not change that
  502: H.SERVER_ERROR,
  503: H.UNAVAILABLE, // RFC 9110 §15.6.4: not processed, temporarily overloaded or down
  504: H.SERVER_ERROR,
  505: H.PROTOCOL_BUG, // RFC 9110 §15.6.6: the HTTP version the client used is not supported
  507: H.NOT_PERFORMED, // RFC 4918 §11.5: Insufficient Storage; the method could not be performed, nothing stored
  508: H.NOT_PERFORMED, // RFC 5842 §7.2: Loop Detected; the server terminated the whole operation
  510: H.PROTOCOL_BUG, // RFC 2774 §7: Not Extended; the request lacks a mandatory extension
  511: H.NOT_PERFORMED, // RFC 6585 §6: Network Authentication Required; a captive portal, the origin never saw it
  529: H.UNAVAILABLE, // Anthropic API docs, "Errors": overloaded_error, temporarily overloaded
  530: H.NOT_PERFORMED, // Cloudflare docs, "Error 530" (with a 1xxx error): the origin could not be reached
});

/** What a `not_performed` status means, in the model's words (`literal` sentences, classify/public-parts.ts). */
export const NOT_PERFORMED_TEXT: Readonly<Record<number, PublicPart>> = Object.freeze({
  507: literal(
    'the server has no storage left for this request; nothing was stored, and it must not be repeated until an operator acts',
  ),
  508: literal('the server detected a loop and stopped the whole operation'),
  511: literal('the network requires a sign-in before any request reaches the service'),
  530: literal('the service could not be reached behind its proxy'),
});

/** The rule for a status: its row in `STATUS_RULES`, else its family's. */
export function ruleForStatus(status: number): HttpRule {
  return STATUS_RULES[status] ?? (status >= 500 ? H.SERVER_ERROR : H.CLIENT_ERROR);
}

/**
 * The reason phrases of RFC 9110 §15 (and RFC 6585 for 428, 429, 431, 511), lower case, by status: an error whose
 * whole message is one (`Too many requests`) carries that status in text form, as a status line does.
 */
// prettier-ignore
const REASON_PHRASES: Readonly<Record<string, number>> = Object.freeze({
  'bad request': 400, unauthorized: 401, 'payment required': 402, forbidden: 403, 'not found': 404,
  'method not allowed': 405, 'not acceptable': 406, 'request timeout': 408, conflict: 409, gone: 410,
  'length required': 411, 'precondition failed': 412, 'content too large': 413, 'payload too large': 413,
  'uri too long': 414, 'unsupported media type': 415, 'range not satisfiable': 416, 'misdirected request': 421,
  'unprocessable content': 422, 'unprocessable entity': 422, 'too early': 425, 'precondition required': 428,
  'too many requests': 429, 'request header fields too large': 431, 'unavailable for legal reasons': 451,
  'internal server error': 500, 'not implemented': 501, 'bad gateway': 502, 'service unavailable': 503,
  'gateway timeout': 504, 'http version not supported': 505, 'insufficient storage': 507,
  'network authentication required': 511,
});

/** The status whose reason phrase is the whole of `text` (case and a final period aside), or `undefined`. */
export function statusOfPhrase(text: string | undefined): number | undefined {
  const phrase = text?.trim().replace(/\.$/, '').toLowerCase();
  return phrase === undefined || phrase.length > 40 ? undefined : ownEntry(REASON_PHRASES, phrase);
}
