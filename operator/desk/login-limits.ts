/**
 * Login throttling (OWASP Authentication Cheat Sheet): an attempt counts when it starts. Per address and name,
 * `perName` attempts (in flight, or failed within `windowMs`), then 429 for that pair only: behind a shared address an
 * attacker locks out only the names he tries. Per address, and per name, `inFlight` checks at once; more are refused,
 * never queued before a real operator's. A success clears its count; `MAX_COUNTS` kept at most. Node side.
 */
import { HttpError } from './http';

export const LOGIN_LIMITS = { perName: 5, inFlight: 2, windowMs: 300_000 };
const MAX_COUNTS = 100_000;

export class LoginLimiter {
  private readonly counts = new Map<string, { n: number; sinceMs: number }>();
  private readonly flying = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Counts an attempt of `name` from `address`; `settle(ok)` when its check ended. @throws HttpError 429 */
  begin(address: string, name: string): (ok: boolean) => void {
    const key = JSON.stringify([address, name]);
    const nowMs = this.now();
    const past = this.counts.get(key);
    const count = past && nowMs - past.sinceMs <= LOGIN_LIMITS.windowMs ? past : { n: 0, sinceMs: nowMs };
    if (count.n >= LOGIN_LIMITS.perName)
      throw new HttpError(429, 'too many failed logins for this name from this address; try again in a few minutes');
    const lanes = [`address ${address}`, `name ${name}`];
    if (lanes.some((l) => (this.flying.get(l) ?? 0) >= LOGIN_LIMITS.inFlight))
      throw new HttpError(429, 'other logins from this address or for this name are being checked; try again');
    this.counts.delete(key);
    this.counts.set(key, { n: count.n + 1, sinceMs: count.sinceMs });
    if (this.counts.size > MAX_COUNTS) this.counts.delete(this.counts.keys().next().value as string);
    const fly = (d: number) =>
      lanes.forEach((l) => this.flying.set(l, (this.flying.get(l) ?? 0) + d).get(l) || this.flying.delete(l));
    fly(1);
    return (ok) => {
      fly(-1);
      if (ok) this.counts.delete(key);
    };
  }
}
