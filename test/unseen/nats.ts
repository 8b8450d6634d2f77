/**
 * nats (queue and request/reply messaging, with JetStream) against Debian's real `nats-server`. nats.js raises
 * `NatsError`s whose `code` is a string: words (`CONNECTION_REFUSED`, `TIMEOUT`, `PERMISSIONS_VIOLATION`,
 * `AUTHORIZATION_VIOLATION`, `MAX_PAYLOAD_EXCEEDED`) or an HTTP-like number as text (`"503"` no responders), and
 * JetStream API errors carry `api_error: { code, err_code, description }`. Reconnects are off.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, StringCodec, type ConnectionOptions, type NatsConnection } from 'nats';
import type { Effect, UnseenCase, UnseenLibrary } from './cases';
import { blackhole, closedPort, findBinary, freePort, spawnServer } from './net-fixtures';

const sc = StringCodec();
const AGENT = { user: 'agent', pass: 'agent-password' };

function config(port: number, dir: string): string {
  return `
listen: 127.0.0.1:${port}
max_payload: 4096
jetstream { store_dir: "${dir}" }
authorization {
  users = [
    { user: ${AGENT.user}, password: ${AGENT.pass}, permissions: { publish: { deny: ["payments.refund"] } } }
  ]
}
`;
}

/** Runs `op` on a fresh connection and always closes it. */
async function using(opts: ConnectionOptions, op: (nc: NatsConnection) => Promise<unknown>): Promise<void> {
  const nc = await connect({ reconnect: false, timeout: 1_000, ...opts });
  try {
    await op(nc);
  } finally {
    await nc.close();
  }
}

export const natsLibrary: UnseenLibrary = {
  name: 'nats',
  kind: 'queue',
  server: 'nats-server 2.9 (Debian) with JetStream and a user whose publish permissions deny one subject',
  async start() {
    const dir = mkdtempSync(join(tmpdir(), 'unseen-nats-'));
    const port = await freePort();
    writeFileSync(join(dir, 'nats.conf'), config(port, dir));
    const server = await spawnServer(findBinary('nats-server'), ['-c', join(dir, 'nats.conf')], port);
    const servers = `127.0.0.1:${port}`;
    const opts: ConnectionOptions = { servers, ...AGENT };
    // A responder that takes requests and never answers (it may act on them: the request reached it).
    const silentNc = await connect({ ...opts, reconnect: false });
    silentNc.subscribe('orders.create');
    silentNc.subscribe('inventory.get');
    await silentNc.flush();
    await using(opts, async (nc) => {
      const jsm = await nc.jetstreamManager();
      await jsm.streams.add({ name: 'ORDERS', subjects: ['ledger.>'] });
    });
    const hole = await blackhole();
    const refused = await closedPort();
    const request = (subject: string, o = opts) =>
      using(o, (nc) => nc.request(subject, sc.encode('{"id":42}'), { timeout: 1_000 }));
    const one = (name: string, effect: Effect, run: () => Promise<unknown>): UnseenCase => ({
      id: `nats.${name}.${effect}`,
      effect,
      run,
    });
    const cases: UnseenCase[] = [
      one('refused', 'read', () => request('inventory.get', { ...opts, servers: `127.0.0.1:${refused}` })),
      one('refused', 'write', () => request('orders.create', { ...opts, servers: `127.0.0.1:${refused}` })),
      one('connect-timeout', 'read', () => request('inventory.get', { ...opts, servers: `127.0.0.1:${hole.port}` })),
      one('connect-timeout', 'write', () => request('orders.create', { ...opts, servers: `127.0.0.1:${hole.port}` })),
      one('no-responders', 'read', () => request('catalog.get')),
      one('no-responders', 'write', () => request('shipments.create')),
      one('request-timeout', 'read', () => request('inventory.get')),
      one('request-timeout', 'write', () => request('orders.create')),
      one('bad-password', 'read', () => request('inventory.get', { ...opts, pass: 'wrong-password' })),
      one('publish-denied', 'write', () => request('payments.refund')),
      one('max-payload', 'write', () => using(opts, async (nc) => nc.publish('orders.create', new Uint8Array(8192)))),
      one('stream-not-found', 'read', () =>
        using(opts, async (nc) => (await nc.jetstreamManager()).streams.info('BILLING')),
      ),
      one('wrong-last-sequence', 'write', () =>
        using(opts, (nc) => nc.jetstream().publish('ledger.entry', sc.encode('{}'), { expect: { lastSequence: 99 } })),
      ),
    ];
    return {
      cases,
      stop: async () => {
        await silentNc.close();
        await hole.stop();
        await server.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};
