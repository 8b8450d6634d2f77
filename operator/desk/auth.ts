/**
 * Who is asking (docs/approvals.md, "Who may decide"): an operator logged in with a password (a session), or one a
 * trusted reverse proxy names in its header — believed only from the proxies' own addresses. The name recorded on
 * a decision is this one, never a value from the request's body. Every change needs the session's CSRF token in
 * `x-csrf-token`. Node side.
 */
import type { IncomingMessage } from 'node:http';
import { OPERATOR_NAME, type DeskConfig } from '../../config/desk-schema';
import { cookie, HttpError, SESSION_COOKIE, sessionCookie, textField } from './http';
import { verifyPassword } from './password';
import { sameToken, SessionStore, type Session } from './sessions';

/** Failed logins per address before the desk answers 429, and the window they count in (ms). */
export const LOGIN_FAILURES = { max: 10, windowMs: 300_000 };

export interface DeskAuth {
  sessions: SessionStore;
  /** Password users: name → scrypt PHC string. */
  users: ReadonlyMap<string, string>;
  proxy?: { header: string; trusted: ReadonlySet<string> };
  secureCookies: boolean;
  sessionTtlMs: number;
  /** Failed logins by remote address. */
  failures: Map<string, { count: number; sinceMs: number }>;
}

export function createAuth(config: DeskConfig): DeskAuth {
  return {
    sessions: new SessionStore(config.sessionTtlMs),
    users: new Map(config.users.map((u) => [u.name, u.scrypt])),
    ...(config.proxy
      ? { proxy: { header: config.proxy.header, trusted: new Set(config.proxy.trustedProxies.map(address)) } }
      : {}),
    secureCookies: config.secureCookies,
    sessionTtlMs: config.sessionTtlMs,
    failures: new Map(),
  };
}

/** The peer's address, an IPv4-mapped IPv6 address as plain IPv4. */
function address(raw: string | undefined): string {
  const a = raw ?? '';
  return a.startsWith('::ffff:') && a.includes('.') ? a.slice(7) : a;
}

/** The request as the desk knows it: its session (new if it had none), and the operator if authenticated. */
export interface Caller {
  session: Session;
  /** `Set-Cookie` to send when the session is new. */
  setCookie?: string;
  user?: string;
  /** How the operator authenticated. */
  via?: 'password' | 'proxy';
}

/**
 * Identifies the request.
 * @throws HttpError 403 when the proxy's header comes from an address that is not a trusted proxy; 400 when it
 *   does not hold a usable name.
 */
export function identify(auth: DeskAuth, req: IncomingMessage): Caller {
  const existing = auth.sessions.get(cookie(req, SESSION_COOKIE));
  const session = existing ?? auth.sessions.create();
  const caller: Caller = existing
    ? { session }
    : { session, setCookie: sessionCookie(session.id, auth.sessionTtlMs, auth.secureCookies) };
  const proxied = proxyUser(auth, req);
  if (proxied !== undefined) return { ...caller, user: proxied, via: 'proxy' };
  return session.user === undefined ? caller : { ...caller, user: session.user, via: 'password' };
}

function proxyUser(auth: DeskAuth, req: IncomingMessage): string | undefined {
  if (!auth.proxy) return undefined;
  const raw = req.headers[auth.proxy.header];
  if (raw === undefined) return undefined;
  if (!auth.proxy.trusted.has(address(req.socket.remoteAddress)))
    throw new HttpError(403, `the ${auth.proxy.header} header came from an address that is not a trusted proxy`);
  if (typeof raw !== 'string' || !OPERATOR_NAME.test(raw))
    throw new HttpError(400, `the ${auth.proxy.header} header must hold one operator name`);
  return raw;
}

/** @throws HttpError 401 when nobody is authenticated. */
export function operator(caller: Caller): string {
  if (caller.user === undefined) throw new HttpError(401, 'log in first');
  return caller.user;
}

/** @throws HttpError 403 unless the request carries the session's CSRF token in `x-csrf-token`. */
export function requireCsrf(caller: Caller, req: IncomingMessage): void {
  if (!sameToken(req.headers['x-csrf-token'], caller.session.csrf))
    throw new HttpError(403, 'missing or wrong CSRF token: reload the page');
}

/**
 * Checks a name and password and logs the session in under a new id.
 * @throws HttpError 401 for a wrong name or password (the same answer for both); 429 after `LOGIN_FAILURES.max`
 *   failures from one address within `LOGIN_FAILURES.windowMs`.
 */
export async function logIn(auth: DeskAuth, req: IncomingMessage, caller: Caller, body: Record<string, unknown>) {
  const from = address(req.socket.remoteAddress);
  const nowMs = Date.now();
  const failed = auth.failures.get(from);
  if (failed && nowMs - failed.sinceMs > LOGIN_FAILURES.windowMs) auth.failures.delete(from);
  else if (failed && failed.count >= LOGIN_FAILURES.max)
    throw new HttpError(429, 'too many failed logins from this address; try again in a few minutes');
  const name = textField(body, 'name', 200);
  if (!(await verifyPassword(body.password, auth.users.get(name)))) {
    const f = auth.failures.get(from) ?? { count: 0, sinceMs: nowMs };
    auth.failures.set(from, { ...f, count: f.count + 1 });
    throw new HttpError(401, 'wrong name or password');
  }
  auth.failures.delete(from);
  const session = auth.sessions.login(caller.session, name);
  return { session, setCookie: sessionCookie(session.id, auth.sessionTtlMs, auth.secureCookies) };
}
