/**
 * A remote MCP server of our own, for the README's MCP example and the tests: the SDK's `McpServer` over
 * streamable HTTP (stateless: one server and transport per request, as the SDK's stateless example), behind the
 * SDK's bearer-auth middleware (`requireBearerAuth`: an unknown or expired token → 401 with
 * `WWW-Authenticate: Bearer error="invalid_token", …, resource_metadata="…"`, RFC 6750 §3 and RFC 9728 §5.1),
 * with its own OAuth token endpoint (`POST /token`, the refresh_token grant of RFC 6749 §6, rotating refresh
 * tokens) and protected-resource metadata (`GET /.well-known/oauth-protected-resource/mcp`, RFC 9728 §3).
 *
 * Tools (annotations as the MCP spec defines them):
 * - `get_balance {account}` — read-only; `{ account, balanceCents }`.
 * - `create_payment {to, amountCents, idempotency_key}` — a write, not idempotent; it does NOT deduplicate by the
 *   key: a second call with the same key is a second payment (so only a lookup can make a lost answer safe).
 * - `find_payment {idempotency_key}` — read-only; the payment, or `isError` "payment not found".
 * Faults the tests script: `expireAll()` (HTTP 401), `revokeUpstream()` (the tools' upstream refuses the tokens
 * issued so far: `isError` "401 Unauthorized: the access token expired"), `failNext(tool, text, n)` (`isError`
 * with that text), `loseNextAnswer(tool)` (the tool runs, then the connection is cut before its answer).
 *
 * Run it alone: `npx ts-node examples/mcp-payments-server.ts [--port 3010] [--demo]` prints `MCP_URL`,
 * `MCP_TOKEN_URL` and `MCP_REFRESH_TOKEN`; with `--demo` the tools' upstream refuses the first access token
 * issued and the first `create_payment` answer is lost (what the README's MCP example shows).
 */
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import express, { type Request, type Response } from 'express';
import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { arrivalGate, type ArrivalGate } from './arrival-gate';

export interface Payment {
  paymentId: string;
  to: string;
  amountCents: number;
  idempotencyKey: string;
  status: 'created';
}

export interface Call {
  tool: string;
  args: Record<string, unknown>;
  token: string;
  atMs: number;
}

export interface PaymentsMcpServer {
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  url: string;
  /** The token endpoint (`POST`, form-encoded refresh_token grant). */
  tokenUrl: string;
  /** A first refresh token to hand a credential provider. */
  initialRefreshToken: string;
  /** Every `tools/call` the tools ran, with the bearer token it presented and when (ms since epoch). */
  readonly calls: readonly Call[];
  /** The payments table (one row per `create_payment` that ran). */
  readonly payments: readonly Payment[];
  /** Refresh grants served; requests the bearer middleware answered 401. */
  readonly refreshes: number;
  readonly http401s: number;
  /** Every access token issued so far expires: the middleware answers 401. */
  expireAll(): void;
  /** The tools' upstream refuses every access token issued so far (the MCP layer still accepts them). */
  revokeUpstream(): void;
  /** The next `times` calls of `tool` answer `isError` with `text`. */
  failNext(tool: string, text: string, times?: number): void;
  /** The next call of `tool` runs, then its connection is cut before the answer is sent. */
  loseNextAnswer(tool: string): void;
  /**
   * The next `n` calls of `get_balance` wait until all `n` have arrived (at most `GATE_CAP_MS`,
   * examples/arrival-gate.ts), so `n` calls are truly concurrent: they present the same token before any refresh can
   * happen.
   */
  gateBalance(n: number): void;
  close(): Promise<void>;
}

export interface PaymentsMcpServerOptions {
  /** Port to listen on (127.0.0.1). @default 0 (any free port) */
  port?: number;
  /** Lifetime of each access token, in s. @default 3600 */
  accessTokenTtlS?: number;
  /** The tools' upstream refuses the first access token issued; the first `create_payment` answer is lost. */
  demo?: boolean;
}

const newToken = () => randomBytes(12).toString('hex');
const text = (t: string): CallToolResult => ({ content: [{ type: 'text', text: t }], isError: true });

interface State {
  access: Map<string, number>; // token → expires at, s since epoch
  refresh: Set<string>;
  upstreamRefused: Set<string>;
  calls: Call[];
  payments: Payment[];
  failures: Map<string, { text: string; times: number }>;
  lose: Set<string>;
  refreshes: number;
  http401s: number;
  refuseFirstToken: boolean;
  gate: ArrivalGate | undefined;
}

/** Starts the server. */
export async function startPaymentsMcpServer(options: PaymentsMcpServerOptions = {}): Promise<PaymentsMcpServer> {
  const ttlS = options.accessTokenTtlS ?? 3600;
  const initialRefreshToken = newToken();
  const state: State = {
    access: new Map(),
    refresh: new Set([initialRefreshToken]),
    upstreamRefused: new Set(),
    calls: [],
    payments: [],
    failures: new Map(),
    lose: new Set(options.demo ? ['create_payment'] : []),
    refreshes: 0,
    http401s: 0,
    refuseFirstToken: options.demo === true,
    gate: undefined,
  };
  const app = createMcpExpressApp();
  const sockets = new Set<Socket>();
  let base = '';
  app.post('/token', express.urlencoded({ extended: false }), (req, res) => grant(state, ttlS, req, res));
  app.get('/.well-known/oauth-protected-resource/mcp', (_req, res) => {
    res.json({ resource: `${base}/mcp`, authorization_servers: [base], bearer_methods_supported: ['header'] });
  });
  const guard: { auth?: ReturnType<typeof requireBearerAuth> } = {}; // made once the port (the metadata URL) is known
  const counted = (req: Request, res: Response, next: () => void) => {
    res.on('finish', () => {
      if (res.statusCode === 401) state.http401s += 1;
    });
    void guard.auth?.(req, res, next);
  };
  app.post('/mcp', counted, (req, res) => void serve(state, req, res));
  app.get('/mcp', (_req, res) => void res.status(405).set('allow', 'POST').end());
  app.delete('/mcp', (_req, res) => void res.status(405).set('allow', 'POST').end());

  const server: Server = await new Promise((ok) => {
    const s = app.listen(options.port ?? 0, '127.0.0.1', () => ok(s));
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  guard.auth = requireBearerAuth({
    verifier: {
      verifyAccessToken: async (token) => {
        const expiresAt = state.access.get(token);
        if (expiresAt === undefined) throw new InvalidTokenError('Unknown token');
        return { token, clientId: 'recovery-router', scopes: [], expiresAt };
      },
    },
    resourceMetadataUrl: `${base}/.well-known/oauth-protected-resource/mcp`,
  });
  return {
    url: `${base}/mcp`,
    tokenUrl: `${base}/token`,
    initialRefreshToken,
    calls: state.calls,
    payments: state.payments,
    get refreshes() {
      return state.refreshes;
    },
    get http401s() {
      return state.http401s;
    },
    expireAll: () => {
      for (const token of state.access.keys()) state.access.set(token, 0);
    },
    revokeUpstream: () => {
      for (const token of state.access.keys()) state.upstreamRefused.add(token);
    },
    failNext: (tool, t, times = 1) => void state.failures.set(tool, { text: t, times }),
    loseNextAnswer: (tool) => void state.lose.add(tool),
    gateBalance: (n) => {
      state.gate = arrivalGate(n);
    },
    close: () =>
      new Promise((done) => {
        state.gate?.release();
        for (const s of sockets) s.destroy();
        server.close(() => done());
      }),
  };
}

/** `POST /token`: the refresh_token grant (RFC 6749 §6); a spent or unknown refresh token → 400 invalid_grant. */
function grant(state: State, ttlS: number, req: Request, res: Response): void {
  const body = (req.body ?? {}) as Record<string, string | undefined>;
  const presented = body.refresh_token ?? '';
  if (body.grant_type !== 'refresh_token' || !state.refresh.has(presented)) {
    res.status(400).json({ error: 'invalid_grant' });
    return;
  }
  state.refresh.delete(presented);
  const token = newToken();
  const next = newToken();
  state.access.set(token, Math.floor(Date.now() / 1000) + ttlS);
  if (state.refuseFirstToken) {
    state.refuseFirstToken = false;
    state.upstreamRefused.add(token);
  }
  state.refresh.add(next);
  state.refreshes += 1;
  res.json({ access_token: token, token_type: 'Bearer', expires_in: ttlS, refresh_token: next });
}

/** One POST to /mcp: a fresh server and transport (stateless streamable HTTP). */
async function serve(state: State, req: Request, res: Response): Promise<void> {
  const server = tools(state, res);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, req.body);
}

function tools(state: State, res: Response): McpServer {
  const server = new McpServer({ name: 'payments', version: '1.0.0' });
  /** The scripted fault for `tool`, or undefined; records the call and its token. */
  const enter = (
    tool: string,
    args: Record<string, unknown>,
    token: string | undefined,
  ): CallToolResult | undefined => {
    state.calls.push({ tool, args, token: token ?? '', atMs: Date.now() });
    if (token !== undefined && state.upstreamRefused.has(token)) {
      return text('payments API: 401 Unauthorized: the access token expired');
    }
    const failure = state.failures.get(tool);
    if (!failure) return undefined;
    if (--failure.times <= 0) state.failures.delete(tool);
    return text(failure.text);
  };
  server.registerTool(
    'get_balance',
    {
      description: 'The balance of an account, in cents.',
      inputSchema: { account: z.string().min(1) },
      outputSchema: { account: z.string(), balanceCents: z.number().int() },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ account }, extra) =>
      (await passGate(state)) ??
      enter('get_balance', { account }, extra.authInfo?.token) ?? {
        content: [{ type: 'text', text: `${account}: 12500 cents` }],
        structuredContent: { account, balanceCents: 12_500 },
      },
  );
  server.registerTool(
    'create_payment',
    {
      description: 'Pays `amountCents` to `to`. Send each payment once: the service does not deduplicate.',
      inputSchema: {
        to: z.string().min(1),
        amountCents: z.number().int().positive(),
        idempotency_key: z.string().min(1).describe('A key naming this payment, for find_payment'),
      },
      outputSchema: { paymentId: z.string(), to: z.string(), amountCents: z.number().int(), status: z.string() },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    async ({ to, amountCents, idempotency_key }, extra) => {
      const fault = enter('create_payment', { to, amountCents, idempotency_key }, extra.authInfo?.token);
      if (fault) return fault;
      const payment: Payment = {
        paymentId: `pay_${state.payments.length + 1}`,
        to,
        amountCents,
        idempotencyKey: idempotency_key,
        status: 'created',
      };
      state.payments.push(payment);
      if (state.lose.delete('create_payment')) res.socket?.destroy(); // applied; the answer never leaves
      return {
        content: [{ type: 'text', text: `created ${payment.paymentId}` }],
        structuredContent: publicPayment(payment),
      };
    },
  );
  server.registerTool(
    'find_payment',
    {
      description: 'The payment created with this idempotency key.',
      inputSchema: { idempotency_key: z.string().min(1) },
      outputSchema: { paymentId: z.string(), to: z.string(), amountCents: z.number().int(), status: z.string() },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ idempotency_key }, extra) => {
      const fault = enter('find_payment', { idempotency_key }, extra.authInfo?.token);
      if (fault) return fault;
      const payment = state.payments.find((p) => p.idempotencyKey === idempotency_key);
      if (!payment) return text(`payment not found for key ${idempotency_key}`);
      return {
        content: [{ type: 'text', text: `found ${payment.paymentId}` }],
        structuredContent: publicPayment(payment),
      };
    },
  );
  return server;
}

/** Waits at the gate (`gateBalance`), if one is set; always undefined (no fault of its own). */
async function passGate(state: State): Promise<undefined> {
  await state.gate?.pass();
  return undefined;
}

function publicPayment(p: Payment) {
  return { paymentId: p.paymentId, to: p.to, amountCents: p.amountCents, status: p.status };
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const port = args.includes('--port') ? Number(args[args.indexOf('--port') + 1]) : 3010;
  void startPaymentsMcpServer({ port, demo: args.includes('--demo') }).then((s) => {
    console.log(`MCP_URL=${s.url}\nMCP_TOKEN_URL=${s.tokenUrl}\nMCP_REFRESH_TOKEN=${s.initialRefreshToken}`);
  });
}
