/**
 * Unit tests of Retry-After and rate-limit header parsing (recovery/classify/retry-after.ts, rate-limit.ts).
 * Pure: no workers, no servers; `nowMs` is fixed.
 */
import {
  MAX_RETRY_AFTER_MS,
  parseHttpDate,
  parseRetryAfter,
  parseRetryAfterMsValue,
  retryAfterMsFromHeaders,
} from '../../recovery/classify/retry-after';
import { parseDurationMs, readRateLimit } from '../../recovery/classify/rate-limit';

/** 2026-10-01T12:00:00Z, a Thursday. */
const NOW = Date.UTC(2026, 9, 1, 12, 0, 0);

describe('parseRetryAfter (RFC 9110 §10.2.3)', () => {
  it.each([
    ['3', 3000],
    ['0', 0],
    [' 3 ', 3000],
    ['120', 120_000],
    ['1.5', 1500],
    ['0.0011', 2],
  ])('parseRetryAfter: delay-seconds "%s" → %i ms', (value, ms) => {
    expect(parseRetryAfter(value, NOW)).toBe(ms);
  });

  it.each([
    ['IMF-fixdate', 'Thu, 01 Oct 2026 12:00:03 GMT'],
    ['IMF-fixdate, lower case', 'thu, 01 oct 2026 12:00:03 gmt'],
    ['rfc850-date', 'Thursday, 01-Oct-26 12:00:03 GMT'],
    ['asctime-date', 'Thu Oct  1 12:00:03 2026'],
    ['ISO 8601 with Z', '2026-10-01T12:00:03Z'],
    ['ISO 8601 with offset', '2026-10-01T14:00:03+02:00'],
  ])('parseRetryAfter: %s 3 s ahead of nowMs → 3000 ms exactly', (_form, value) => {
    expect(parseRetryAfter(value, NOW)).toBe(3000);
  });

  it('parseRetryAfter: an HTTP-date in the past → 0', () => {
    expect(parseRetryAfter('Sun, 06 Nov 1994 08:49:37 GMT', NOW)).toBe(0);
  });

  it.each([
    '-1',
    '-0.5',
    'NaN',
    'Infinity',
    'abc',
    '',
    '3s',
    '1e3',
    '0x10',
    'Mon, 31 Feb 2026 12:00:00 GMT',
    'Thu, 01 Oct 2026 25:00:00 GMT',
    '2026-10-01T12:00:03',
  ])('parseRetryAfter: bad value %j → undefined (ignored)', (value) => {
    expect(parseRetryAfter(value, NOW)).toBeUndefined();
  });

  it('parseRetryAfter: undefined → undefined', () => {
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined();
  });

  it('parseRetryAfter: an absurd delay is clamped to MAX_RETRY_AFTER_MS, not dropped', () => {
    expect(parseRetryAfter('99999999999999999999', NOW)).toBe(MAX_RETRY_AFTER_MS);
  });
});

describe('parseHttpDate (RFC 9110 §5.6.7)', () => {
  it('parseHttpDate: rfc850 two-digit year more than 50 years ahead is in the past (80 → 1980)', () => {
    expect(parseHttpDate('Tuesday, 01-Oct-80 12:00:00 GMT', NOW)).toBe(Date.UTC(1980, 9, 1, 12, 0, 0));
  });

  it('parseHttpDate: rfc850 two-digit year within 50 years stays ahead (70 → 2070)', () => {
    expect(parseHttpDate('Wednesday, 01-Oct-70 12:00:00 GMT', NOW)).toBe(Date.UTC(2070, 9, 1, 12, 0, 0));
  });

  it('parseHttpDate: the RFC example "Sun, 06 Nov 1994 08:49:37 GMT" in all three forms is the same instant', () => {
    const t = Date.UTC(1994, 10, 6, 8, 49, 37);
    expect(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT', NOW)).toBe(t);
    expect(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT', NOW)).toBe(t);
    expect(parseHttpDate('Sun Nov  6 08:49:37 1994', NOW)).toBe(t);
  });
});

describe('retryAfterMsFromHeaders', () => {
  it('retryAfterMsFromHeaders: retry-after-ms: 1500 → 1500', () => {
    expect(retryAfterMsFromHeaders({ 'retry-after-ms': '1500' }, NOW)).toBe(1500);
  });

  it('retryAfterMsFromHeaders: retry-after-ms wins over Retry-After (the OpenAI/Anthropic SDK order)', () => {
    expect(retryAfterMsFromHeaders({ 'Retry-After': '3', 'retry-after-ms': '1500' }, NOW)).toBe(1500);
  });

  it('retryAfterMsFromHeaders: a bad retry-after-ms falls back to Retry-After', () => {
    expect(retryAfterMsFromHeaders({ 'retry-after-ms': '-5', 'retry-after': '2' }, NOW)).toBe(2000);
  });

  it('retryAfterMsFromHeaders: header names are case-insensitive in a record', () => {
    expect(retryAfterMsFromHeaders({ 'RETRY-AFTER': '7' }, NOW)).toBe(7000);
  });

  it('retryAfterMsFromHeaders: reads a WHATWG Headers object', () => {
    expect(retryAfterMsFromHeaders(new Headers({ 'Retry-After': 'Thu, 01 Oct 2026 12:00:03 GMT' }), NOW)).toBe(3000);
  });

  it('retryAfterMsFromHeaders: a repeated header uses the first usable value', () => {
    expect(retryAfterMsFromHeaders({ 'retry-after': ['soon', '4'] }, NOW)).toBe(4000);
  });

  it('retryAfterMsFromHeaders: no header, or garbage → undefined', () => {
    expect(retryAfterMsFromHeaders({}, NOW)).toBeUndefined();
    expect(retryAfterMsFromHeaders({ 'retry-after': 'later' }, NOW)).toBeUndefined();
    expect(retryAfterMsFromHeaders(undefined, NOW)).toBeUndefined();
  });

  it('parseRetryAfterMsValue: "1500.2" → 1501 (rounded up), "x" → undefined', () => {
    expect(parseRetryAfterMsValue('1500.2')).toBe(1501);
    expect(parseRetryAfterMsValue('x')).toBeUndefined();
  });
});

describe('readRateLimit', () => {
  it('readRateLimit: X-RateLimit-Remaining: 0 with an epoch-seconds X-RateLimit-Reset 60 s ahead → exhausted, resetMs 60000', () => {
    expect(readRateLimit({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW / 1000 + 60) }, NOW)).toEqual({
      exhausted: true,
      resetMs: 60_000,
    });
  });

  it('readRateLimit: IETF RateLimit-Remaining: 0 with RateLimit-Reset: 5 (delta seconds) → resetMs 5000', () => {
    expect(readRateLimit({ 'RateLimit-Remaining': '0', 'RateLimit-Reset': '5' }, NOW)).toEqual({
      exhausted: true,
      resetMs: 5000,
    });
  });

  it('readRateLimit: structured RateLimit: "default";r=0;t=10 → exhausted, resetMs 10000', () => {
    expect(readRateLimit({ ratelimit: '"default";r=0;t=10' }, NOW)).toEqual({ exhausted: true, resetMs: 10_000 });
  });

  it("readRateLimit: structured RateLimit with one exhausted item of two → that item's t", () => {
    expect(readRateLimit({ ratelimit: '"burst";r=5;t=1, "daily";r=0;t=3600' }, NOW)).toEqual({
      exhausted: true,
      resetMs: 3_600_000,
    });
  });

  it('readRateLimit: draft-07 dictionary RateLimit: limit=100, remaining=0, reset=7 → resetMs 7000', () => {
    expect(readRateLimit({ RateLimit: 'limit=100, remaining=0, reset=7' }, NOW)).toEqual({
      exhausted: true,
      resetMs: 7000,
    });
  });

  it('readRateLimit: OpenAI x-ratelimit-remaining-requests: 0 with reset-requests 6m0s → 360000 ms', () => {
    expect(
      readRateLimit(
        {
          'x-ratelimit-remaining-requests': '0',
          'x-ratelimit-reset-requests': '6m0s',
          'x-ratelimit-reset-tokens': '1s',
        },
        NOW,
      ),
    ).toEqual({ exhausted: true, resetMs: 360_000 });
  });

  it('readRateLimit: quota left → not exhausted', () => {
    expect(readRateLimit({ 'x-ratelimit-remaining': '42' }, NOW)).toEqual({ exhausted: false });
  });

  it('parseDurationMs: Go durations → ms', () => {
    expect(parseDurationMs('1s')).toBe(1000);
    expect(parseDurationMs('1h2m3.5s')).toBe(3_723_500);
    expect(parseDurationMs('250ms')).toBe(250);
    expect(parseDurationMs('soon')).toBeUndefined();
  });
});
