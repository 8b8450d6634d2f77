/**
 * The desk's sessions, in memory: one begins only with an authenticated operator (a login, or a trusted proxy's
 * first request naming them), under a NEW id with its CSRF token (OWASP CSRF Prevention Cheat Sheet, "Synchronizer
 * token pattern"; OWASP Session Management Cheat Sheet, "Renew the session ID after any privilege level change").
 * Ids and tokens are 32 random bytes (base64url), compared in constant time. A restart logs everyone out. Node side.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

export interface Session {
  id: string;
  csrf: string;
  user: string;
  expiresAtMs: number;
}

/** Sessions kept per operator; the oldest goes first. The desk's `maxSessions` bounds them all (config/desk-schema.ts). */
export const MAX_SESSIONS_PER_USER = 16;

const token = () => randomBytes(32).toString('base64url');

/** True when `given` is `expected`, in constant time; false for anything not a string of the same length. */
export function sameToken(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export class SessionStore {
  private readonly byId = new Map<string, Session>();

  /**
   * @param ttlMs how long a session lasts from its creation or login, in ms.
   * @param maxAll sessions kept at most; past it, the oldest ends.
   */
  constructor(
    private readonly ttlMs: number,
    private readonly maxAll: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The live session with this id, or undefined (unknown, expired). */
  get(id: string | undefined): Session | undefined {
    if (id === undefined) return undefined;
    const s = this.byId.get(id);
    if (s && s.expiresAtMs > this.now()) return s;
    if (s) this.byId.delete(id);
    return undefined;
  }

  /** Logs `user` in: the old session ends, a new one (new id, new CSRF token) begins. */
  login(old: Session | undefined, user: string): Session {
    if (old) this.byId.delete(old.id);
    return this.put({ id: token(), csrf: token(), user, expiresAtMs: this.now() + this.ttlMs });
  }

  end(session: Session): void {
    this.byId.delete(session.id);
  }

  private put(s: Session): Session {
    const mine = [...this.byId.values()].filter((o) => o.user === s.user);
    for (const o of mine.slice(0, Math.max(0, mine.length - MAX_SESSIONS_PER_USER + 1))) this.byId.delete(o.id);
    while (this.byId.size >= this.maxAll) {
      const oldest = this.byId.keys().next().value as string;
      this.byId.delete(oldest);
    }
    this.byId.set(s.id, s);
    return s;
  }
}
