/**
 * The MCP adapter's connections against real servers, without Temporal: the payments server of
 * examples/mcp-payments-server.ts (the SDK's McpServer behind its bearer-auth middleware), a stateful server of
 * the SDK's own transport restarted on the same port, server-everything killed mid-call, and the filesystem server
 * over stdio killed between calls. What each server saw (tokens, calls) is read from the server.
 */
import { createServer, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CredentialBroker } from '../../activities/credentials';
import type { AnyTool } from '../../activities/define-tool';
import { connectMcp, mcpTools, type McpConnection } from '../../mcp';
import { classify } from '../../recovery/classify';
import type { ToolFailure } from '../../recovery/failure';
import { filesystemTools } from '../../examples/mcp-filesystem';
import { startPaymentsMcpServer, type PaymentsMcpServer } from '../../examples/mcp-payments-server';
import { oauthRefreshProvider } from '../../examples/oauth-service';
import { freePort, startEverythingHttp } from '../fixtures/everything-server';
import { callContext as baseCallContext, toolContext } from '../fixtures/tool-contexts';

const callContext = (t: AnyTool) => baseCallContext(t, 'test/mcp-http/1');

/** `execute`'s failure through the tool's classifier. */
async function failureOf(t: AnyTool, args: unknown, ctx = toolContext(t)): Promise<ToolFailure> {
  try {
    await t.execute(args, ctx);
  } catch (err) {
    return classify({ kind: 'thrown', error: err }, callContext(t), t.classify);
  }
  throw new Error('expected a failure');
}

/** A token straight from the server's token endpoint (the refresh_token grant). */
async function grant(server: PaymentsMcpServer, refreshToken: string) {
  const res = await fetch(server.tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }).toString(),
  });
  return (await res.json()) as { access_token: string; refresh_token: string };
}

describe('the payments server behind bearer auth', () => {
  let server: PaymentsMcpServer;
  let broker: CredentialBroker;
  let connection: McpConnection;
  beforeEach(async () => {
    server = await startPaymentsMcpServer();
    broker = new CredentialBroker({ payments: oauthRefreshProvider(server.tokenUrl, server.initialRefreshToken) });
  });
  afterEach(async () => {
    await connection?.close();
    await server.close();
  });

  test("two concurrent calls on one connection each present their own token; initialize and tools/list the broker's", async () => {
    connection = await connectMcp({ url: server.url, credential: { broker, id: 'payments' } });
    const [balance] = await mcpTools(connection, { include: ['get_balance'] });
    const a = await broker.current('payments');
    await broker.refresh('payments', a.version);
    const b = await broker.current('payments');
    await Promise.all([
      balance!.execute({ account: 'acc_a' }, toolContext(balance!, a)),
      balance!.execute({ account: 'acc_b' }, toolContext(balance!, b)),
    ]);
    const seen = Object.fromEntries(server.calls.map((c) => [c.args.account, c.token]));
    expect(seen).toEqual({ acc_a: a.token, acc_b: b.token });
    expect(a.token).not.toBe(b.token);
    expect(server.http401s).toBe(0);
  });

  test('connect with an expired token: 401 at initialize → 1 refresh, then connected', async () => {
    await broker.current('payments');
    server.expireAll();
    connection = await connectMcp({ url: server.url, credential: { broker, id: 'payments' } });
    expect(connection.transport).toBe('streamable-http');
    expect(server.http401s).toBe(1);
    expect(broker.refreshCount('payments')).toBe(1);
  });

  test('connect with a credential the provider cannot refresh → connect_failed naming the server, not the token', async () => {
    const dead = new CredentialBroker({
      payments: {
        initial: async () => ({ token: 'not-a-token' }),
        refresh: async () => Promise.reject(new Error('invalid_grant')),
      },
    });
    await expect(connectMcp({ url: server.url, credential: { broker: dead, id: 'payments' } })).rejects.toMatchObject({
      name: 'McpAdapterError',
      code: 'connect_failed',
      message: expect.stringMatching(
        /^connectMcp: could not connect to the MCP server at http:\/\/127\.0\.0\.1:\d+\/mcp: /,
      ),
    });
  });

  test("the SDK's OAuth client provider instead of the broker: its token is presented", async () => {
    const { access_token } = await grant(server, server.initialRefreshToken);
    const provider: OAuthClientProvider = {
      redirectUrl: undefined,
      clientMetadata: { redirect_uris: [], client_name: 'test' },
      clientInformation: () => ({ client_id: 'recovery-router' }),
      tokens: () => ({ access_token, token_type: 'Bearer' }),
      saveTokens: () => undefined,
      redirectToAuthorization: () => undefined,
      saveCodeVerifier: () => undefined,
      codeVerifier: () => '',
    };
    connection = await connectMcp({ url: server.url, authProvider: provider });
    const [balance] = await mcpTools(connection, { include: ['get_balance'] });
    await balance!.execute({ account: 'acc_a' }, toolContext(balance!));
    expect(server.calls.map((c) => c.token)).toEqual([access_token]);
  });

  test('bad targets are refused before anything is sent, naming the field', async () => {
    const refuse = (target: unknown, message: string) =>
      expect(connectMcp(target as never)).rejects.toMatchObject({ code: 'invalid_options', message });
    await refuse({ url: 'ftp://x/mcp' }, 'connectMcp: `url` must be an absolute http: or https: URL');
    await refuse(
      { url: server.url, transport: 'websocket' },
      "connectMcp: `transport` must be 'auto', 'streamable-http' or 'sse'",
    );
    await refuse(
      { url: server.url, credential: { broker: {}, id: 'x' } },
      'connectMcp: `credential` must be { broker: CredentialBroker, id: string } (the id registered with the broker)',
    );
    await refuse(
      { url: server.url, credential: { broker, id: 'payments' }, headers: { Authorization: 'Bearer x' } },
      'connectMcp: `headers` cannot set Authorization when `credential` gives the token',
    );
    await refuse(
      { url: server.url, connectTimeoutMs: 0 },
      'connectMcp: `connectTimeoutMs` must be an integer number of ms in 1..600000',
    );
  });

  test('mcpTools: bad overrides are refused naming the field; a lookup tool or a key the server lacks, by name', async () => {
    connection = await connectMcp({ url: server.url, credential: { broker, id: 'payments' } });
    await expect(
      mcpTools(connection, { tools: { create_payment: { lookup: { tool: 'find_payment' } } } }),
    ).rejects.toMatchObject({
      code: 'invalid_options',
      message:
        "mcpTools: `tools.create_payment.lookup` needs `key`, the tool's `idempotencyKey` or `arguments`: how the lookup finds the operation",
    });
    await expect(
      mcpTools(connection, {
        tools: { create_payment: { idempotencyKey: 'idempotency_key', lookup: { tool: 'get_payment' } } },
      }),
    ).rejects.toMatchObject({
      code: 'unknown_tool',
      message: expect.stringMatching(
        /^mcpTools: tools\.create_payment\.lookup names "get_payment", which the server does not offer/,
      ),
    });
    await expect(mcpTools(connection, { tools: { create_payment: { idempotencyKey: 'key' } } })).rejects.toMatchObject({
      code: 'invalid_tool',
      message:
        'mcpTools: tools.create_payment.idempotencyKey names "key", which is not an argument of create_payment (its arguments: to, amountCents, idempotency_key)',
    });
    const stdio = await filesystemTools([tmpdir()], { stderr: 'ignore' });
    try {
      await expect(mcpTools(stdio.connection, { credential: 'payments' })).rejects.toMatchObject({
        code: 'invalid_options',
      });
    } finally {
      await stdio.close();
    }
  });
});

describe('a stateful server of the SDK restarted on the same port', () => {
  let port: number;
  let http: Server | undefined;
  const start = async () => {
    const sessions = new Map<string, StreamableHTTPServerTransport>();
    http = createServer((req, res) => {
      void (async () => {
        if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end(); // no GET stream
        const sid = req.headers['mcp-session-id'];
        let transport = typeof sid === 'string' ? sessions.get(sid) : undefined;
        if (!transport && sid === undefined) {
          const created = new StreamableHTTPServerTransport({
            sessionIdGenerator: () => randomUUID(),
            onsessioninitialized: (id) => void sessions.set(id, created),
          });
          const mcp = new McpServer({ name: 'stateful', version: '1.0.0' });
          mcp.registerTool('ping', { annotations: { readOnlyHint: true } }, async () => ({
            content: [{ type: 'text', text: 'pong' }],
          }));
          await mcp.connect(created);
          transport = created;
        }
        if (!transport) {
          // A session id this process never issued (MCP spec, "Session Management": 404), in the SDK transport's words.
          const body = { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null };
          return void res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        }
        await transport.handleRequest(req, res);
      })();
    });
    await new Promise<void>((ok) => http!.listen(port, '127.0.0.1', () => ok()));
  };
  const stop = () =>
    new Promise<void>((done) => {
      http!.closeAllConnections();
      http!.close(() => done());
    });
  beforeAll(async () => {
    port = await freePort();
  });

  test('after the restart the old session gets 404 → transient, not processed; the next call opens a new session', async () => {
    await start();
    const connection = await connectMcp({ url: `http://127.0.0.1:${port}/mcp`, transport: 'streamable-http' });
    try {
      const [ping] = await mcpTools(connection, { trustAnnotations: true });
      await stop();
      await new Promise((ok) => setTimeout(ok, 100)); // the client sees its kept-alive socket closed
      await start();
      const f = await failureOf(ping!, {});
      expect(f).toMatchObject({
        class: 'transient',
        reason: 'network',
        phase: 'dispatch',
        retryable: true,
        replaySafe: true,
        publicMessage:
          'ping: the MCP server no longer knows this session (it restarted or ended it); a new session is opened; the request was not processed, so it is safe to try again.',
      });
      expect(connection.reconnects).toBe(0);
      expect(await ping!.execute({}, toolContext(ping!))).toEqual({ content: [{ type: 'text', text: 'pong' }] });
      expect(connection.reconnects).toBe(1);
    } finally {
      await connection.close();
      await stop();
    }
  });
});

test('server-everything killed while a call waits on its response stream → the call fails at once, maybe sent', async () => {
  const everything = await startEverythingHttp('streamableHttp');
  const connection = await connectMcp({ url: everything.url });
  try {
    const [op] = await mcpTools(connection, { trustAnnotations: true, include: ['trigger-long-running-operation'] });
    const pending = failureOf(op!, { duration: 20, steps: 20 });
    await new Promise((ok) => setTimeout(ok, 1_500));
    await everything.kill();
    // At once, by what it says: a call that waited for the 60 s request timeout would end as reason `timeout`, one that
    // waited for the 20 s operation would succeed; a measured bound added nothing but a race with the machine's load.
    expect(await pending).toMatchObject({ class: 'transient', reason: 'network', phase: 'dispatch', retryable: true });
  } finally {
    await connection.close();
    await everything.close();
  }
});

describe('a stdio server that exits between calls', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'rr-mcp-restart-'));
    writeFileSync(join(dir, 'note.txt'), 'still here\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('the next call starts the server again (reconnect) and succeeds', async () => {
    const fs = await filesystemTools([dir], { stderr: 'ignore' });
    try {
      const read = fs.tools.find((t) => t.name === 'fs_read_text_file')!;
      const transport = fs.client.transport as StdioClientTransport;
      const firstPid = transport.pid!;
      // Until the SDK has seen the exit (its transport closed), however long the machine takes: not a fixed pause.
      const sdkOnClose = transport.onclose;
      const closed = new Promise<void>((ok) => {
        transport.onclose = () => {
          sdkOnClose?.();
          ok();
        };
      });
      process.kill(firstPid, 'SIGKILL');
      await closed;
      const value = await read.execute({ path: join(dir, 'note.txt') }, toolContext(read));
      expect(value).toMatchObject({ structuredContent: { content: 'still here\n' } });
      expect(fs.connection.reconnects).toBe(1);
      expect((fs.client.transport as StdioClientTransport).pid).not.toBe(firstPid);
    } finally {
      await fs.close();
    }
  });
});

test("transport 'auto' on a server that is neither kind (POST 400, GET 404) → connect_failed with the streamable HTTP answer", async () => {
  const server = createServer((req, res) => {
    const status = req.method === 'POST' ? 400 : 404;
    res
      .writeHead(status, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: 'unsupported protocol version' }));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  const { port } = server.address() as { port: number };
  try {
    await expect(connectMcp({ url: `http://127.0.0.1:${port}/mcp` })).rejects.toMatchObject({
      code: 'connect_failed',
      message: `connectMcp: could not connect to the MCP server at http://127.0.0.1:${port}/mcp: Streamable HTTP error: Error POSTing to endpoint: {"error":"unsupported protocol version"}`,
    });
  } finally {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  }
});
