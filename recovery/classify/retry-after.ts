/**
 * `Retry-After` and its relatives, as a delay in milliseconds.
 *
 * Sources:
 * - RFC 9110 §10.2.3: `Retry-After = HTTP-date / delay-seconds`; delay-seconds is `1*DIGIT`.
 * - RFC 9110 §5.6.7: HTTP-date is IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) or one of two obsolete forms a
 *   recipient must accept: rfc850-date (`Sunday, 06-Nov-94 08:49:37 GMT`; a two-digit year that looks more than
 *   50 years ahead is in the past) and asctime-date (`Sun Nov  6 08:49:37 1994`). All are UTC.
 * - `retry-after-ms` (milliseconds) as sent by some LLM providers and honoured first by their official SDKs
 *   (openai-node / anthropic-sdk-typescript check `retry-after-ms`, then `retry-after`).
 *
 * Parsing is ours, not `Date.parse`, for the three RFC forms: `Date.parse` reads a zoneless asctime date in the
 * host's time zone, and results must not depend on the machine. Other date strings are accepted through
 * `Date.parse` only when they name their zone (`Z`, `GMT`, `UTC`, `±hh:mm`).
 * Pure: `nowMs` is a parameter.
 */
import { headerValues } from './headers';

/** The largest delay we report, in ms (a far-future date is clamped, not dropped: it still means "not soon"). */
export const MAX_RETRY_AFTER_MS = Number.MAX_SAFE_INTEGER;

const MONTHS: Readonly<Record<string, number>> = Object.freeze({
  jan: 0,
  feb: 1,
  mar: 2,
  apr: 3,
  may: 4,
  jun: 5,
  jul: 6,
  aug: 7,
  sep: 8,
  oct: 9,
  nov: 10,
  dec: 11,
});

const IMF_FIXDATE =
  /^(?:[a-z]{3},\s*)?(\d{1,2})\s+([a-z]{3})\s+(\d{4})\s+(\d{1,2}):(\d{2}):(\d{2})\s*(?:gmt|utc|ut|z|\+0000|-0000)?$/i;
const RFC850_DATE = /^(?:[a-z]{3,9},\s*)?(\d{1,2})-([a-z]{3})-(\d{2})\s+(\d{1,2}):(\d{2}):(\d{2})\s*(?:gmt|utc)?$/i;
const ASCTIME_DATE = /^(?:[a-z]{3}\s+)?([a-z]{3})\s+(\d{1,2})\s+(\d{1,2}):(\d{2}):(\d{2})\s+(\d{4})$/i;
const ZONED_DATE = /(?:\bgmt|\butc|\d(?:z)|[+-]\d{2}:?\d{2})$/i;

/** Milliseconds from a non-negative decimal number of `unitMs`, rounded up; `undefined` when not one. */
function decimalToMs(value: string, unitMs: number): number | undefined {
  const t = value.trim();
  if (!/^\d+(?:\.\d+)?$/.test(t)) return undefined;
  const n = Number(t);
  if (!Number.isFinite(n)) return MAX_RETRY_AFTER_MS;
  return Math.min(MAX_RETRY_AFTER_MS, Math.ceil(n * unitMs));
}

/** Epoch ms of a UTC calendar time, or `undefined` when a field is out of range (e.g. 31 Feb). */
function utc(
  year: number,
  month: number | undefined,
  day: number,
  h: number,
  m: number,
  s: number,
): number | undefined {
  if (month === undefined || h > 23 || m > 59 || s > 60 || day < 1 || day > 31) return undefined;
  const ms = Date.UTC(year, month, day, h, m, Math.min(s, 59));
  const check = new Date(ms);
  return check.getUTCDate() === day && check.getUTCMonth() === month ? ms : undefined;
}

/**
 * An HTTP-date (RFC 9110 §5.6.7, any of its three forms) as epoch milliseconds.
 * @param nowMs wall clock in ms since epoch, to place an rfc850 two-digit year (RFC 9110 §5.6.7: more than 50
 *   years ahead means the most recent past year with those digits).
 * @returns epoch ms, or `undefined` when `value` is not a date.
 */
export function parseHttpDate(value: string, nowMs: number): number | undefined {
  const t = value.trim();
  let m = IMF_FIXDATE.exec(t);
  if (m) return utc(Number(m[3]), MONTHS[m[2]!.toLowerCase()], Number(m[1]), Number(m[4]), Number(m[5]), Number(m[6]));
  m = RFC850_DATE.exec(t);
  if (m) {
    const nowYear = new Date(nowMs).getUTCFullYear();
    const yy = Number(m[3]);
    let year = Math.floor(nowYear / 100) * 100 + yy;
    if (year > nowYear + 50) year -= 100;
    return utc(year, MONTHS[m[2]!.toLowerCase()], Number(m[1]), Number(m[4]), Number(m[5]), Number(m[6]));
  }
  m = ASCTIME_DATE.exec(t);
  if (m) return utc(Number(m[6]), MONTHS[m[1]!.toLowerCase()], Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]));
  if (ZONED_DATE.test(t) && /\d/.test(t) && t.length <= 64) {
    const ms = Date.parse(t);
    return Number.isFinite(ms) ? ms : undefined;
  }
  return undefined;
}

/**
 * A `Retry-After` value (RFC 9110 §10.2.3) as a delay in ms.
 * - delay-seconds (`"3"`; a decimal such as `"1.5"` is accepted too) → seconds × 1000, rounded up.
 * - HTTP-date → date − `nowMs`; a date in the past → 0.
 * - anything else (negative, NaN, garbage, empty) → `undefined` (ignored).
 * @param nowMs wall clock in ms since epoch.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const seconds = decimalToMs(value, 1000);
  if (seconds !== undefined) return seconds;
  const at = parseHttpDate(value, nowMs);
  if (at === undefined) return undefined;
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, Math.ceil(at - nowMs)));
}

/** A `retry-after-ms` value (non-negative milliseconds, decimals rounded up); `undefined` when not one. */
export function parseRetryAfterMsValue(value: string | undefined): number | undefined {
  return value === undefined ? undefined : decimalToMs(value, 1);
}

/**
 * The server's requested delay from response headers, in ms: `retry-after-ms` first, then `Retry-After`
 * (the order of the OpenAI and Anthropic SDKs). For a repeated header the first usable value counts.
 * @param headers a header record or `Headers`-like object (case-insensitive).
 * @param nowMs wall clock in ms since epoch.
 * @returns the delay in ms, or `undefined` when no usable value is present.
 */
export function retryAfterMsFromHeaders(headers: unknown, nowMs: number): number | undefined {
  for (const v of headerValues(headers, 'retry-after-ms')) {
    const ms = parseRetryAfterMsValue(v);
    if (ms !== undefined) return ms;
  }
  for (const v of headerValues(headers, 'retry-after')) {
    const ms = parseRetryAfter(v, nowMs);
    if (ms !== undefined) return ms;
  }
  return undefined;
}
