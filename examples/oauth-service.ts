/**
 * A loopback OAuth 2.0 token endpoint and a protected tool endpoint (an access token that expires mid-session),
 * for the example and the tests.
 * - `POST /token` with `grant_type=refresh_token` (RFC 6749 §6, form-encoded) issues a new access token and a new
 *   refresh token; the old refresh token is spent (rotation). A spent or unknown one → `400 {"error":"invalid_grant"}`.
 * - `GET /profile` needs `Authorization: Bearer <live token>`; an expired or unknown one →
 *   `401` with `WWW-Authenticate: Bearer error="invalid_token", error_description="expired"` (RFC 6750 §3).
 * Token lifetime is set per service (`accessTokenTtlMs`); `expireAll()` ends every live access token at once.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { arrivalGate, type ArrivalGate } from './arrival-gate';
import type { CredentialProvider } from '../activities/credentials';

export interface OAuthService {
  url: string;
  /** A first refresh token to hand the provider. */
  initialRefreshToken: string;
  /** Successful refresh grants served. */
  refreshes: number;
  /** Refresh attempts refused (spent or unknown token). */
  refusedRefreshes: number;
  /** Requests to /profile, and how many were answered 401. */
  profileCalls: number;
  profile401s: number;
  expireAll(): void;
  /**
   * Holds the next `n` answers of /profile until all `n` requests have arrived (at most `GATE_CAP_MS`,
   * examples/arrival-gate.ts), so that `n` calls are truly concurrent: they all present the same token before any
   * refresh can happen.
   */
  gateProfile(n: number): void;
  /** Makes every refresh token invalid (the dead-refresh variant). */
  revokeRefreshTokens(): void;
  /** From now on /profile answers 401 to every token, fresh ones too (a credential the server no longer accepts). */
  rejectAllTokens(): void;
  close(): Promise<void>;
}

export interface OAuthServiceOptions {
  /** Lifetime of each access token issued, in ms. @default 60_000 */
  accessTokenTtlMs?: number;
  /** The `WWW-Authenticate` of a 401. @default 'Bearer error="invalid_token", error_description="expired"' */
  challenge?: string;
}

export async function startOAuthService(options: OAuthServiceOptions = {}): Promise<OAuthService> {
  const ttlMs = options.accessTokenTtlMs ?? 60_000;
  const challenge = options.challenge ?? 'Bearer error="invalid_token", error_description="expired"';
  let rejectAll = false;
  const access = new Map<string, number>(); // token → expiresAtMs
  const refresh = new Set<string>();
  const newToken = () => randomBytes(12).toString('hex');
  const initialRefreshToken = newToken();
  refresh.add(initialRefreshToken);
  const state = { refreshes: 0, refusedRefreshes: 0, profileCalls: 0, profile401s: 0 };
  let gate: ArrivalGate | undefined;

  const server: Server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const json = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(payload));
      };
      if (req.method === 'POST' && req.url === '/token') {
        const form = new URLSearchParams(body);
        const presented = form.get('refresh_token') ?? '';
        if (form.get('grant_type') !== 'refresh_token' || !refresh.has(presented)) {
          state.refusedRefreshes += 1;
          return json(400, { error: 'invalid_grant' });
        }
        refresh.delete(presented);
        const token = newToken();
        const next = newToken();
        access.set(token, Date.now() + ttlMs);
        refresh.add(next);
        state.refreshes += 1;
        return json(200, {
          access_token: token,
          token_type: 'Bearer',
          expires_in: Math.ceil(ttlMs / 1000),
          refresh_token: next,
        });
      }
      if (req.method === 'GET' && req.url === '/profile' && gate && !gate.open) {
        void gate.pass().then(() => answerProfile());
        return;
      }
      if (req.method === 'GET' && req.url === '/profile') return answerProfile();
      json(404, { error: 'not_found' });

      function answerProfile() {
        state.profileCalls += 1;
        const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
        const exp = access.get(token);
        if (rejectAll || exp === undefined || exp <= Date.now()) {
          state.profile401s += 1;
          return json(401, { error: 'invalid_token' }, { 'www-authenticate': challenge });
        }
        return json(200, { name: 'Ada', plan: 'pro' });
      }
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    initialRefreshToken,
    get refreshes() {
      return state.refreshes;
    },
    get refusedRefreshes() {
      return state.refusedRefreshes;
    },
    get profileCalls() {
      return state.profileCalls;
    },
    get profile401s() {
      return state.profile401s;
    },
    expireAll: () => access.clear(),
    gateProfile: (n) => {
      gate = arrivalGate(n);
    },
    revokeRefreshTokens: () => refresh.clear(),
    rejectAllTokens: () => {
      rejectAll = true;
    },
    close: () =>
      new Promise((done) => {
        gate?.release();
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/**
 * A credential provider speaking the OAuth 2.0 refresh_token grant (RFC 6749 §6) to `tokenUrl`. It holds the
 * rotating refresh token and replaces it with each answer. The first access token is obtained by a refresh too.
 */
export function oauthRefreshProvider(tokenUrl: string, refreshToken: string): CredentialProvider {
  let current = refreshToken;
  const grant = async () => {
    const res = await fetch(tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: current }).toString(),
    });
    const payload = (await res.json()) as { access_token?: string; refresh_token?: string; error?: string };
    if (!res.ok || !payload.access_token)
      throw new Error(`token endpoint answered ${res.status} ${payload.error ?? ''}`.trim());
    if (payload.refresh_token) current = payload.refresh_token;
    return { token: payload.access_token };
  };
  return { initial: grant, refresh: grant };
}
