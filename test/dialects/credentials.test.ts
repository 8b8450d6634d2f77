/**
 * A credential provider that fails for now (its token endpoint does not answer in time: a real
 * `AbortSignal.timeout` against a loopback server that never answers) is transient: the call retries, nothing was
 * sent, and the credential is not marked dead for the other tools that share it. A provider that answers
 * `invalid_grant` still kills the credential (→ escalate).
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { z } from 'zod';
import { CredentialBroker, CredentialRefreshFailed } from '../../activities/credentials';
import { defineTool } from '../../activities/define-tool';
import { invoke, summary } from './invoke';

let server: http.Server;
let url: string;
/** How /token answers. */
let mode: 'hang' | 'ok' | 'invalid_grant';
/** The CRM refuses this token with 401. */
let refusedToken: string | undefined;
const sockets = new Set<Socket>();
let tokenCalls = 0;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url === '/token') {
        tokenCalls += 1;
        if (mode === 'hang') return;
        if (mode === 'invalid_grant')
          return res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"invalid_grant"}');
        return res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ access_token: `tok-${tokenCalls}` }));
      }
      const auth = req.headers.authorization;
      if (refusedToken !== undefined && auth === `Bearer ${refusedToken}`) return res.writeHead(401).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  server.on('connection', (s) => sockets.add(s).size);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  for (const s of sockets) s.destroy();
  return new Promise((r) => server.close(() => r(undefined)));
});

/** A provider fetching `${url}/token` with a 150 ms timeout (the error is a real DOMException TimeoutError). */
const provider = {
  async grant() {
    const res = await fetch(`${url}/token`, { method: 'POST', signal: AbortSignal.timeout(150) });
    const body = (await res.json()) as { access_token?: string; error?: string };
    if (!res.ok || !body.access_token) throw new Error(`token endpoint answered ${res.status} ${body.error ?? ''}`);
    return { token: body.access_token };
  },
  initial() {
    return this.grant();
  },
  refresh() {
    return this.grant();
  },
};

const crmTool = (name: string, effect: 'read' | 'write') =>
  defineTool({
    name,
    description: 'Calls the CRM with the shared credential.',
    input: z.object({}),
    output: z.object({ ok: z.boolean() }),
    effect,
    credential: 'crm',
    async execute(_a, ctx) {
      return (
        await ctx.http.request({
          method: effect === 'read' ? 'GET' : 'POST',
          url: `${url}/crm`,
          ...(effect === 'write' ? { json: {} } : {}),
        })
      ).body as never;
    },
  });

async function succeeds(tool: ReturnType<typeof crmTool>, broker: CredentialBroker) {
  const { createToolActivities } = await import('../../activities/invoke-tool');
  const { activityEnv } = await import('../fixtures/activity-env');
  const { DEFAULT_BACKOFF_POLICY } = await import('../../recovery/backoff');
  const acts = createToolActivities({ tools: [tool], backoff: DEFAULT_BACKOFF_POLICY, credentials: broker });
  return activityEnv({ activityId: 'a' }).run(acts.invokeTool, {
    tool: tool.name,
    args: {},
    callId: 'c',
    operationId: 'op',
  });
}

test('the token fetch times out → transient, preflight, retry even for a write; the other tool then gets the credential', async () => {
  const broker = new CredentialBroker({ crm: provider });
  mode = 'hang';
  const r = await invoke(
    crmTool('crm_write', 'write'),
    {},
    { credentials: broker, label: ['credential provider', 'token fetch timeout'] },
  );
  expect(summary(r)).toEqual({
    class: 'transient',
    reason: 'timeout',
    action: 'retry',
    retryAfterMs: undefined,
    phase: 'preflight',
  });
  expect(r.failure.replaySafe).toBe(true);
  mode = 'ok';
  await expect(succeeds(crmTool('crm_read', 'read'), broker)).resolves.toMatchObject({
    value: { ok: true },
    credentialVersion: 1,
  });
});

test('a refresh after a 401 times out → transient → retry (nothing applied); the credential stays alive', async () => {
  const broker = new CredentialBroker({ crm: provider });
  tokenCalls = 0;
  mode = 'ok';
  await broker.current('crm'); // tok-1
  refusedToken = 'tok-1';
  mode = 'hang';
  const r = await invoke(
    crmTool('crm_write', 'write'),
    {},
    { credentials: broker, label: ['credential provider', 'refresh timeout after a 401'] },
  );
  expect(summary(r)).toEqual({
    class: 'transient',
    reason: 'timeout',
    action: 'retry',
    retryAfterMs: undefined,
    phase: 'dispatch',
  });
  expect(r.failure.replaySafe).toBe(true);
  mode = 'ok';
  refusedToken = undefined;
  await expect(broker.refresh('crm', 1)).resolves.toBe(2);
});

test('invalid_grant from the token endpoint still marks the credential dead → refresh_failed → escalate', async () => {
  const broker = new CredentialBroker({ crm: provider });
  mode = 'invalid_grant';
  const r = await invoke(crmTool('crm_read', 'read'), {}, { credentials: broker });
  expect(summary(r)).toEqual({
    class: 'authentication',
    reason: 'refresh_failed',
    action: 'escalate',
    retryAfterMs: undefined,
    phase: 'preflight',
  });
  mode = 'ok';
  await expect(broker.current('crm')).rejects.toBeInstanceOf(CredentialRefreshFailed);
});
