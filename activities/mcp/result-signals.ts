/**
 * What an `isError` result says beyond its words: the structured error object a server put in
 * `structuredContent` or in a JSON text block (`{category, code, message}`, `{error: {code, message, status}}`,
 * `{error: "invalid_token", error_description}`, …), an HTTP status it names ("HTTP 502", "status code 429",
 * "503 Service Unavailable"), and the retry hint it gives ("retry after 30 seconds", `retry_after: 2`).
 * error-map.ts matches its rows on these signals. Pure: no I/O, no clock. Never throws.
 *
 * Sources: MCP spec 2025-11-25, "Tools → Error Handling" (tool execution errors are results with `isError: true`
 * whose content reports the failure; servers MAY add `structuredContent`); RFC 9110 §15 (status codes and their
 * reason phrases), §10.2.3 (`Retry-After` counts seconds); RFC 6749 §5.2 and RFC 6750 §3.1 (`error`,
 * `error_description`); Google AIP-193 (`error.code` is the HTTP status, `error.status` the canonical code).
 */
import { parseBody } from '../../recovery/classify/body';
import { isRecord, type Json } from './json-schema';

/** The signals of one failed result. Codes and categories are lower-case. */
export interface ResultSignals {
  /** A structured error code (`code`, `error_code`, `errorCode`, `error` as a token, `error.code`, `error.type`, `error.status`). */
  readonly errorCode?: string;
  /** A structured category (`category`, `kind`, `error.category`, `error.kind`). */
  readonly category?: string;
  /** An HTTP status (a structured `status`/`statusCode`/`httpStatus` or numeric `code`, else one the text names). */
  readonly status?: number;
  /** The retry hint, in ms (structured `retryAfterMs`/`retry_after_ms`, `retryAfter`/`retry_after` in s, or the text's). */
  readonly retryAfterMs?: number;
  /** A structured message (`message`, `error.message`, `error_description`, `detail`), else undefined. */
  readonly message?: string;
}

/** Longest retry hint taken from a result, in ms (the router caps waits by `backoff.maxRetryAfterMs` too). */
export const MAX_HINT_MS = 3_600_000;
/** Longest text scanned for signals, in characters. */
const MAX_SCANNED_CHARS = 8_192;

/**
 * Where a text names an HTTP status: one table, first match wins (RFC 9110 §15: the status, or its reason phrase).
 * Only statuses 400–599 count.
 */
export const STATUS_IN_TEXT: readonly RegExp[] = Object.freeze([
  /\bHTTP(?:\/\d(?:\.\d)?)?[\s:]+([45]\d\d)\b/i, // "HTTP 502", "HTTP/1.1 503", "HTTP: 429"
  /\bstatus(?:[\s_-]?code)?[\s:=]+([45]\d\d)\b/i, // "status 502", "status code: 429", "status_code=500"
  /\b([45]\d\d)[\s:-]+(?:Unauthorized|Too Many Requests|Internal Server Error|Bad Gateway|Service Unavailable|Gateway Time-?out)\b/i,
]);

/** Retry hints in text, in order; the number's unit defaults to seconds (RFC 9110 §10.2.3). */
export const RETRY_HINTS: readonly RegExp[] = Object.freeze([
  /\bretry[\s_-]?after(?:[\s_-]?ms)?["']?\s*[:=]?\s*(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?)?\b/i,
  /\b(?:try|retry) again in\s+(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?)?\b/i,
  /\bretry in\s+(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?)?\b/i,
]);

const UNIT_MS: Readonly<Record<string, number>> = Object.freeze({ ms: 1, s: 1_000, m: 60_000 });

const TOKEN = /^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/;
const token = (v: unknown): string | undefined =>
  typeof v === 'string' && TOKEN.test(v.trim()) ? v.trim().toLowerCase() : undefined;
const sentence = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
const httpStatus = (v: unknown): number | undefined => {
  const n = typeof v === 'string' && /^\d{3}$/.test(v.trim()) ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) && n >= 400 && n <= 599 ? n : undefined;
};
const first = <T>(...values: (T | undefined)[]): T | undefined => values.find((v) => v !== undefined);

/**
 * The signals of a failed result.
 * @param structuredContent the result's `structuredContent` (any JSON).
 * @param text the result's text blocks, joined by newlines.
 */
export function readResultSignals(structuredContent: unknown, text: string): ResultSignals {
  try {
    const scanned = text.length > MAX_SCANNED_CHARS ? text.slice(0, MAX_SCANNED_CHARS) : text;
    const object = errorObject(structuredContent) ?? errorObject(parseBody(scanned.trim()));
    const fromObject = object ? readObject(object) : {};
    const status = fromObject.status ?? statusInText(scanned);
    const retryAfterMs = fromObject.retryAfterMs ?? retryHintInText(scanned);
    return {
      ...fromObject,
      ...(status === undefined ? {} : { status }),
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    };
  } catch {
    return {};
  }
}

/** A JSON object that looks like an error: it has an error-ish key. */
function errorObject(value: unknown): Json | undefined {
  if (!isRecord(value)) return undefined;
  const keys = ['error', 'code', 'category', 'errorCode', 'error_code', 'status', 'statusCode', 'message'];
  return keys.some((k) => k in value) ? value : undefined;
}

function readObject(o: Json): ResultSignals {
  const e = isRecord(o.error) ? o.error : {};
  const errorCode = first(
    token(o.code),
    token(o.error_code),
    token(o.errorCode),
    token(o.error),
    token(e.code),
    token(e.type),
    token(e.status),
  );
  const category = first(token(o.category), token(o.kind), token(e.category), token(e.kind));
  const status = first(
    httpStatus(o.status),
    httpStatus(o.statusCode),
    httpStatus(o.status_code),
    httpStatus(o.httpStatus),
    httpStatus(o.http_status),
    typeof o.code === 'number' ? httpStatus(o.code) : undefined,
    typeof e.code === 'number' ? httpStatus(e.code) : undefined,
    httpStatus(e.status),
  );
  const retryAfterMs = first(
    hintMs(o.retryAfterMs ?? o.retry_after_ms ?? e.retryAfterMs ?? e.retry_after_ms, 1),
    hintMs(o.retryAfter ?? o.retry_after ?? o.retryAfterSeconds ?? e.retryAfter ?? e.retry_after, 1_000),
  );
  const message = first(sentence(o.message), sentence(e.message), sentence(o.error_description), sentence(o.detail));
  return {
    ...(errorCode === undefined ? {} : { errorCode }),
    ...(category === undefined ? {} : { category }),
    ...(status === undefined ? {} : { status }),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    ...(message === undefined ? {} : { message }),
  };
}

function hintMs(v: unknown, unitMs: number): number | undefined {
  const n = typeof v === 'string' && /^\d+(?:\.\d+)?$/.test(v.trim()) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) return undefined;
  return Math.min(MAX_HINT_MS, Math.ceil(n * unitMs));
}

/** The first status `STATUS_IN_TEXT` finds. */
export function statusInText(text: string): number | undefined {
  for (const pattern of STATUS_IN_TEXT) {
    const m = pattern.exec(text);
    if (m) return Number(m[1]);
  }
  return undefined;
}

/** The first hint `RETRY_HINTS` finds, in ms; a `retry_after_ms` key counts milliseconds. */
export function retryHintInText(text: string): number | undefined {
  for (const pattern of RETRY_HINTS) {
    const m = pattern.exec(text);
    if (!m) continue;
    const unit = (m[2] ?? (/after[\s_-]?ms/i.test(m[0]) ? 'ms' : 's')).toLowerCase();
    const key = unit.startsWith('ms') || unit.startsWith('milli') ? 'ms' : unit.startsWith('m') ? 'm' : 's';
    return hintMs(Number(m[1]), UNIT_MS[key] ?? 1_000);
  }
  return undefined;
}
