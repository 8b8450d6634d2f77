/**
 * Rate-limit signals in response headers: is the quota exhausted, and when does it reset (a delay hint in ms).
 *
 * Sources:
 * - IETF draft-ietf-httpapi-ratelimit-headers (-08 and later): `RateLimit: "policy";r=0;t=10` (a list of items
 *   with parameters `r` = remaining quota units, `t` = seconds until reset) and `RateLimit-Policy`.
 * - The same draft's earlier revisions (≤ -07): `RateLimit-Remaining` / `RateLimit-Reset` (delta seconds), also
 *   combined as `RateLimit: limit=100, remaining=0, reset=5`.
 * - The de facto `X-RateLimit-Remaining` / `X-RateLimit-Reset` (GitHub sends the reset as epoch seconds, and
 *   answers an exhausted quota with 403, not 429; others send delta seconds), `X-RateLimit-Reset-After`
 *   (seconds), and OpenAI's `x-ratelimit-remaining-requests|tokens` with `x-ratelimit-reset-requests|tokens`
 *   as Go-style durations (`1s`, `6m0s`, `20ms`).
 * Pure: `nowMs` is a parameter.
 */
import { headerValue } from './headers';
import { MAX_RETRY_AFTER_MS } from './retry-after';

/** What the headers say about the caller's quota. `resetMs`: delay until the quota resets, in ms. */
export interface RateLimitSignals {
  readonly exhausted: boolean;
  readonly resetMs?: number;
}

/** Reset values at or above this are epoch seconds (2001-09-09), not delays. */
const EPOCH_SECONDS_FLOOR = 1e9;
/** Reset values at or above this are epoch milliseconds. */
const EPOCH_MS_FLOOR = 1e12;

function isZero(value: string | undefined): boolean {
  return value !== undefined && /^\s*0+(?:\.0+)?\s*$/.test(value);
}

function clampMs(ms: number): number {
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, Math.ceil(ms)));
}

/** A reset header as a delay in ms: delta seconds, epoch seconds or epoch ms (by magnitude). */
function resetToMs(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined || !/^\s*\d+(?:\.\d+)?\s*$/.test(value)) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n)) return undefined;
  if (n >= EPOCH_MS_FLOOR) return clampMs(n - nowMs);
  if (n >= EPOCH_SECONDS_FLOOR) return clampMs(n * 1000 - nowMs);
  return clampMs(n * 1000);
}

/** A Go-style duration (`1s`, `6m0s`, `1h2m3.5s`, `250ms`) as ms; `undefined` when not one. */
export function parseDurationMs(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const t = value.trim();
  if (!/^(?:\d+(?:\.\d+)?(?:h|ms|m|s))+$/.test(t)) return undefined;
  const unit: Readonly<Record<string, number>> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 };
  let total = 0;
  for (const part of t.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s)/g)) total += Number(part[1]) * (unit[part[2]!] ?? 0);
  return Number.isFinite(total) ? clampMs(total) : undefined;
}

/** Parameters of one structured-field item: `"name";r=0;t=10` → { r: '0', t: '10' }. */
function itemParams(item: string): Record<string, string> {
  const params: Record<string, string> = {};
  for (const part of item.split(';').slice(1)) {
    const eq = part.indexOf('=');
    if (eq > 0)
      params[part.slice(0, eq).trim().toLowerCase()] = part
        .slice(eq + 1)
        .trim()
        .replace(/^"|"$/g, '');
  }
  return params;
}

/** The `RateLimit` field, in both the structured (-08+) and the dictionary (≤ -07) form. */
function structuredRateLimit(value: string | undefined): { exhausted: boolean; resetSeconds?: string } {
  if (value === undefined) return { exhausted: false };
  const items = value.split(',').slice(0, 32);
  // ≤ -07: "limit=100, remaining=0, reset=5"
  const dict: Record<string, string> = {};
  for (const item of items) {
    const m = /^\s*(limit|remaining|reset)\s*=\s*(\d+)\s*$/i.exec(item);
    if (m) dict[m[1]!.toLowerCase()] = m[2]!;
  }
  if (dict.remaining !== undefined) {
    return isZero(dict.remaining) ? { exhausted: true, resetSeconds: dict.reset } : { exhausted: false };
  }
  // -08+: "default";r=0;t=10 — the reset of the exhausted item with the longest wait counts.
  let exhausted = false;
  let resetSeconds: string | undefined;
  for (const item of items) {
    const p = itemParams(item);
    if (!isZero(p.r)) continue;
    exhausted = true;
    if (p.t !== undefined && /^\d+$/.test(p.t) && (resetSeconds === undefined || Number(p.t) > Number(resetSeconds))) {
      resetSeconds = p.t;
    }
  }
  return resetSeconds === undefined ? { exhausted } : { exhausted, resetSeconds };
}

/**
 * Reads the rate-limit headers of a response.
 * @param headers a header record or `Headers`-like object (case-insensitive).
 * @param nowMs wall clock in ms since epoch (for epoch-valued reset headers).
 * @returns `exhausted` when any remaining-count header is 0; `resetMs` from, in this order, the structured
 *   `RateLimit` item's `t`, `RateLimit-Reset`, `X-RateLimit-Reset-After`, `X-RateLimit-Reset`, OpenAI's
 *   `x-ratelimit-reset-requests|tokens` (the exhausted one, else the longer). Frozen.
 */
export function readRateLimit(headers: unknown, nowMs: number): RateLimitSignals {
  const structured = structuredRateLimit(headerValue(headers, 'ratelimit'));
  const openaiRequests = headerValue(headers, 'x-ratelimit-remaining-requests');
  const openaiTokens = headerValue(headers, 'x-ratelimit-remaining-tokens');
  const exhausted =
    structured.exhausted ||
    isZero(headerValue(headers, 'ratelimit-remaining')) ||
    isZero(headerValue(headers, 'x-ratelimit-remaining')) ||
    isZero(openaiRequests) ||
    isZero(openaiTokens);

  const openaiReset = (): number | undefined => {
    const req = parseDurationMs(headerValue(headers, 'x-ratelimit-reset-requests'));
    const tok = parseDurationMs(headerValue(headers, 'x-ratelimit-reset-tokens'));
    if (isZero(openaiRequests) && req !== undefined) return req;
    if (isZero(openaiTokens) && tok !== undefined) return tok;
    if (req === undefined) return tok;
    return tok === undefined ? req : Math.max(req, tok);
  };
  const resetMs =
    resetToMs(structured.resetSeconds, nowMs) ??
    resetToMs(headerValue(headers, 'ratelimit-reset'), nowMs) ??
    resetToMs(headerValue(headers, 'x-ratelimit-reset-after'), nowMs) ??
    resetToMs(headerValue(headers, 'x-ratelimit-reset'), nowMs) ??
    openaiReset();
  return Object.freeze(resetMs === undefined ? { exhausted } : { exhausted, resetMs });
}
