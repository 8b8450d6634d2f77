/**
 * Who is asking (docs/approvals.md, "Who may decide"): an operator logged in with a password, or named by a trusted
 * proxy's header (from its addresses only, sent once); never a name from the body. Every request names an allowed
 * Host, every POST an allowed Origin (or none: no browser), every change but the login the session's CSRF token.
 */
import type { IncomingMessage } from 'node:http';
import { OPERATOR_NAME, type DeskConfig } from '../../config/desk-schema';
import { cookie, HttpError, SESSION_COOKIE, sessionCookie, textField } from './http';
import { LoginLimiter } from './login-limits';
import { decoyHash, verifyPassword } from './password';
import { sameToken, SessionStore, type Session } from './sessions';

export interface DeskAuth {
  sessions: SessionStore;
  /** Password users: name → scrypt PHC string. */
  users: ReadonlyMap<string, string>;
  /** An unknown name's password is checked against it (the users' scrypt parameters). */
  decoy: Promise<string>;
  proxy?: { header: string; trusted: ReadonlySet<string> };
  secureCookies: boolean;
  sessionTtlMs: number;
  limiter: LoginLimiter;
  /** `host:port` values the desk answers; set when it listens (`allowHosts`). */
  hosts: Set<string>;
}

export function createAuth(config: DeskConfig): DeskAuth {
  return {
    sessions: new SessionStore(config.sessionTtlMs, config.maxSessions),
    users: new Map(config.users.map((u) => [u.name, u.scrypt])),
    decoy: decoyHash(config.users[0]?.scrypt),
    ...(config.proxy
      ? { proxy: { header: config.proxy.header, trusted: new Set(config.proxy.trustedProxies.map(address)) } }
      : {}),
    secureCookies: config.secureCookies,
    sessionTtlMs: config.sessionTtlMs,
    limiter: new LoginLimiter(),
    hosts: new Set(),
  };
}

/** The Host values to answer: `config.allowedHosts`, else the listening address and, on loopback, its other names. */
export function allowHosts(auth: DeskAuth, config: DeskConfig, port: number): void {
  const loopback = ['127.0.0.1', 'localhost', '::1'].includes(config.host);
  const names = loopback ? ['127.0.0.1', 'localhost', '[::1]'] : [config.host.replace(/^(.*:.*)$/, '[$1]')];
  for (const h of config.allowedHosts ?? names.map((n) => `${n}:${port}`)) auth.hosts.add(h.toLowerCase());
}

/** @throws HttpError 421 for another Host (DNS rebinding), 403 for a POST from another Origin, 400 for two Hosts */
export function checkHostAndOrigin(auth: DeskAuth, req: IncomingMessage): void {
  const host = req.headersDistinct.host ?? [];
  if (host.length !== 1) throw new HttpError(400, 'send one Host header');
  if (!auth.hosts.has(host[0]!.toLowerCase()))
    throw new HttpError(421, `this desk does not answer for host ${host[0]!.slice(0, 200)}`);
  // An origin's host is written as the Host header is (RFC 6454 §6.1, RFC 9110 §7.2: default ports left out).
  const origin = req.headers.origin;
  const scheme = auth.secureCookies ? 'https://' : 'http://';
  const ok = origin?.toLowerCase().startsWith(scheme) && auth.hosts.has(origin.slice(scheme.length).toLowerCase());
  if (req.method === 'POST' && origin !== undefined && !ok)
    throw new HttpError(403, `requests from ${origin.slice(0, 200)} are not accepted`);
}

/** The peer's address, an IPv4-mapped IPv6 address as plain IPv4. */
const address = (a = '') => (a.startsWith('::ffff:') && a.includes('.') ? a.slice(7) : a);

/** The request as the desk knows it: the operator, how they authenticated, their session (and its new cookie). */
export type Caller = { session?: Session; setCookie?: string; user?: string; via?: 'password' | 'proxy' };

/**
 * Identifies the request; a proxy-named operator gets a session (its CSRF token) on the first request.
 * @throws HttpError 403 for the proxy's header from an untrusted address; 400 when it comes twice or names nobody
 */
export function identify(auth: DeskAuth, req: IncomingMessage): Caller {
  const existing = auth.sessions.get(cookie(req, cookieName(auth)));
  const proxied = proxyUser(auth, req);
  if (proxied === undefined) return existing ? { session: existing, user: existing.user, via: 'password' } : {};
  if (existing?.user === proxied) return { session: existing, user: proxied, via: 'proxy' };
  const session = auth.sessions.login(existing, proxied);
  return { session, setCookie: cookieFor(auth, session), user: proxied, via: 'proxy' };
}

const cookieName = (auth: DeskAuth) => (auth.secureCookies ? `__Host-${SESSION_COOKIE}` : SESSION_COOKIE);
export const cookieFor = (auth: DeskAuth, s: Session) => sessionCookie(s.id, auth.sessionTtlMs, auth.secureCookies);

function proxyUser(auth: DeskAuth, req: IncomingMessage): string | undefined {
  if (!auth.proxy) return undefined;
  const values = req.headersDistinct[auth.proxy.header];
  if (values === undefined) return undefined;
  if (!auth.proxy.trusted.has(address(req.socket.remoteAddress)))
    throw new HttpError(403, `the ${auth.proxy.header} header came from an address that is not a trusted proxy`);
  // Node joins a repeated header into "alice, bob" (`headers`); `headersDistinct` keeps each.
  if (values.length !== 1 || !OPERATOR_NAME.test(values[0]!))
    throw new HttpError(400, `the ${auth.proxy.header} header must come once, holding one name`);
  return values[0];
}

/** @throws HttpError 401 when nobody is authenticated. */
export function operator(caller: Caller): string {
  if (caller.user === undefined) throw new HttpError(401, 'log in first');
  return caller.user;
}

/** @throws HttpError 403 unless the request carries the session's CSRF token in `x-csrf-token`. */
export function requireCsrf(caller: Caller, req: IncomingMessage): void {
  if (!caller.session || !sameToken(req.headers['x-csrf-token'], caller.session.csrf))
    throw new HttpError(403, 'missing or wrong CSRF token: reload the page');
}

/** Checks a name and password (./login-limits.ts) and starts a session. @throws HttpError 401 (same for both), 429 */
export async function logIn(auth: DeskAuth, req: IncomingMessage, caller: Caller, body: Record<string, unknown>) {
  const name = textField(body, 'name', 200);
  const settle = auth.limiter.begin(address(req.socket.remoteAddress), name);
  const ok = await auth.decoy.then(
    (decoy) => verifyPassword(body.password, auth.users.get(name), decoy),
    () => false,
  );
  settle(ok);
  if (!ok) throw new HttpError(401, 'wrong name or password');
  const session = auth.sessions.login(caller.session, name);
  return { session, setCookie: cookieFor(auth, session) };
}
