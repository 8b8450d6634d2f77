/**
 * The desk's JSON API (docs/approvals.md, "API"). Reads need an authenticated operator; every change (log in, log
 * out, a decision) needs the session's CSRF token in `x-csrf-token` and a JSON body. Answers are JSON; an error is
 * `{ error }` with 400 (malformed), 401 (not logged in, wrong password), 403 (CSRF, untrusted proxy header),
 * 404, 409 (the run refused the decision: its reason), 415, 429 or 502 (Temporal failed). Node side.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DeskActions } from './actions';
import { identify, logIn, operator, requireCsrf, type Caller, type DeskAuth } from './auth';
import { HttpError, readJson, sendJson, sessionCookie } from './http';
import type { LiveFeed } from './live';
import type { HistoryReader } from './views';

export interface Desk {
  auth: DeskAuth;
  actions: DeskActions;
  history: HistoryReader;
  live: LiveFeed;
  /** Users with passwords are configured: the page offers a login form. */
  passwordLogin: boolean;
  /** The trusted proxy's header, when one is configured. */
  proxyHeader: string | undefined;
}

type Decide = (actions: DeskActions, user: string, body: Record<string, unknown>) => Promise<unknown>;

/** The decisions, by path: each answers what the run recorded. */
const DECISIONS: Record<string, Decide> = {
  '/api/approvals/decide': (a, user, body) => a.decide(user, body),
  '/api/approvals/batch': (a, user, body) => a.decideBatch(user, body),
  '/api/approvals/revoke': (a, user, body) => a.revoke(user, body),
  '/api/reviews/decide': (a, user, body) => a.decideReview(user, body),
};

/** Answers one `/api/` request. @throws HttpError for the error answers above */
export async function route(desk: Desk, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const caller = identify(desk.auth, req);
  const cookieHeader: Record<string, string> = caller.setCookie ? { 'set-cookie': caller.setCookie } : {};
  const reply = (status: number, body: unknown, headers = cookieHeader) => sendJson(res, status, body, headers);
  const path = url.pathname;
  if (req.method === 'GET') return read(desk, req, res, url, caller, reply);
  if (req.method !== 'POST') throw new HttpError(405, 'use GET or POST');
  if (path !== '/api/login') requireCsrf(caller, req); // no session yet: the Origin check and JSON body guard it
  const body = await readJson(req);
  if (path === '/api/login') {
    const { session, setCookie } = await logIn(desk.auth, req, caller, body);
    return reply(200, { user: session.user, via: 'password', csrf: session.csrf }, { 'set-cookie': setCookie });
  }
  if (path === '/api/logout') {
    desk.auth.sessions.end(caller.session!);
    desk.live.endSession(caller.session!.id);
    return reply(200, { user: null, csrf: null }, { 'set-cookie': sessionCookie('', 0, desk.auth.secureCookies) });
  }
  const decide = DECISIONS[path];
  if (!decide) throw new HttpError(404, 'not found');
  return reply(200, { ok: true, result: await decide(desk.actions, operator(caller), body) });
}

async function read(
  desk: Desk,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  caller: Caller,
  reply: (status: number, body: unknown) => void,
): Promise<void> {
  const path = url.pathname;
  if (path === '/api/session') {
    return reply(200, {
      user: caller.user ?? null,
      via: caller.via ?? null,
      csrf: caller.session?.csrf ?? null,
      nowMs: Date.now(),
      passwordLogin: desk.passwordLogin,
      proxy: desk.proxyHeader !== undefined,
    });
  }
  const user = operator(caller);
  const query = Object.fromEntries(url.searchParams);
  if (path === '/api/events') return desk.live.subscribe(req, res, caller.session!);
  if (path === '/api/history') return reply(200, { nowMs: Date.now(), items: await desk.history.read() });
  if (path === '/api/details') return reply(200, await desk.actions.details(query));
  if (path === '/api/part') return reply(200, await desk.actions.part(user, query));
  if (path === '/api/decided') return reply(200, await desk.actions.decided(query));
  throw new HttpError(404, 'not found');
}
