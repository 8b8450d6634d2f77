/**
 * memjs (cache) against Debian's real `memcached` (binary protocol), through a TCP proxy for lost answers. memjs
 * raises plain `Error`s whose message names the binary protocol's status ("MemJS SET: Out of memory") or its own
 * socket timeouts ("socket timed out connecting to server." / "… waiting on response."), and passes Node's socket
 * errors through. Retries and failover are off (Temporal owns retries).
 */
import memjs from 'memjs';
import type { UnseenCase, UnseenLibrary } from './cases';
import { blackhole, closedPort, findBinary, freePort, spawnServer, tcpProxy } from './net-fixtures';

const quiet = { log() {} };
const client = (port: number) =>
  memjs.Client.create(`127.0.0.1:${port}`, {
    retries: 1,
    failover: false,
    timeout: 1,
    conntimeout: 1,
    logger: quiet,
  });

/** Runs `op` on a fresh client and always closes it. */
async function using(port: number, op: (c: memjs.Client) => Promise<unknown>): Promise<void> {
  const c = client(port);
  try {
    await op(c);
  } finally {
    c.close();
  }
}

async function memcached(args: string[]): Promise<{ port: number; stop: () => Promise<void> }> {
  const port = await freePort();
  const root = process.getuid?.() === 0 ? ['-u', 'root'] : [];
  const server = await spawnServer(
    findBinary('memcached'),
    [...root, '-l', '127.0.0.1', '-p', `${port}`, '-U', '0', ...args],
    port,
  );
  return { port, stop: server.stop };
}

export const memjsLibrary: UnseenLibrary = {
  name: 'memjs',
  kind: 'cache',
  server: 'memcached 1.6 (Debian), a full one (-m 2 -M) and a TCP proxy',
  async start() {
    const main = await memcached(['-m', '64', '-I', '1m']);
    const full = await memcached(['-m', '2', '-M', '-I', '1m']);
    // Fill the small server: -M answers "Out of memory" instead of evicting (memcached(1)).
    await using(full.port, async (c) => {
      for (let i = 0; i < 4; i++) await c.set(`fill-${i}`, Buffer.alloc(900 * 1024, 1), {}).catch(() => false);
    });
    const proxy = await tcpProxy(main.port);
    const hole = await blackhole();
    const refused = await closedPort();
    const via = (mode: typeof proxy.mode, op: (c: memjs.Client) => Promise<unknown>) => async () => {
      proxy.mode = mode;
      await using(proxy.port, op);
    };
    const get = (c: memjs.Client) => c.get('user:42');
    const set = (c: memjs.Client) => c.set('user:42', 'profile', { expires: 60 });
    const cases: UnseenCase[] = [
      { id: 'memjs.refused.read', effect: 'read', run: () => using(refused, get) },
      { id: 'memjs.refused.write', effect: 'write', run: () => using(refused, set) },
      { id: 'memjs.connect-timeout.read', effect: 'read', run: () => using(hole.port, get) },
      { id: 'memjs.connect-timeout.write', effect: 'write', run: () => using(hole.port, set) },
      { id: 'memjs.answer-timeout.read', effect: 'read', run: via('hold_answers', get) },
      { id: 'memjs.answer-timeout.write', effect: 'write', run: via('hold_answers', set) },
      { id: 'memjs.reset-after-request.read', effect: 'read', run: via('reset_after_request', get) },
      { id: 'memjs.reset-after-request.write', effect: 'write', run: via('reset_after_request', set) },
      {
        id: 'memjs.value-too-large.write',
        effect: 'write',
        run: () => using(main.port, (c) => c.set('blob', Buffer.alloc(2 * 1024 * 1024, 1), {})),
      },
      {
        id: 'memjs.key-too-long.write',
        effect: 'write',
        run: () => using(main.port, (c) => c.set('k'.repeat(300), 'v', {})),
      },
      {
        id: 'memjs.out-of-memory.write',
        effect: 'write',
        run: () => using(full.port, (c) => c.set('more', Buffer.alloc(900 * 1024, 1), {})),
      },
      {
        id: 'memjs.incr-non-numeric.write',
        effect: 'write',
        run: () =>
          using(main.port, async (c) => {
            await c.set('counter', 'abc', {});
            await c.increment('counter', 1, {});
          }),
      },
    ];
    return {
      cases,
      stop: async () => {
        await proxy.stop();
        await hole.stop();
        await Promise.all([main.stop(), full.stop()]);
      },
    };
  },
};
