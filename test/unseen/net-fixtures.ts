/**
 * Network fixtures for the unseen cases, all on loopback:
 * - `closedPort()`: a port nothing listens on (a connect is refused);
 * - `blackhole()`: a listener whose accept queue is full, so a new connect never completes (the SYN is dropped)
 *   and the client's connect timeout fires with nothing sent. Linux drops a SYN when the listen queue is full
 *   (tcp(7), `listen` backlog); Node's net server always accepts, so a python3 socket with `listen(0)` holds it;
 * - `tcpProxy(target)`: forwards bytes to a real server, or, by `mode`, resets the connection once the client's
 *   request has reached the server (the answer is lost after the write was sent), or holds every answer;
 * - `findBinary(name)`, `spawnServer(...)`: a Debian server binary started on a free port; `listening(port)`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';

/**
 * A port nothing listens on: 2. listen(0) never hands it out, so no concurrently running test's server can take it, as
 * it can a freed ephemeral port; fetch's bad-port list does not hold it.
 */
export function closedPort(): Promise<number> {
  return Promise.resolve(2);
}

/** A free loopback port (listen on 0, read it, close). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** A listener whose accept queue is full: connects to `port` hang until the client gives up. */
export async function blackhole(): Promise<{ port: number; stop: () => Promise<void> }> {
  const code = [
    'import socket, sys',
    's = socket.socket()',
    "s.bind(('127.0.0.1', 0))",
    's.listen(0)',
    'print(s.getsockname()[1], flush=True)',
    'sys.stdin.read()',
  ].join('\n');
  const py = spawn('python3', ['-c', code], { stdio: ['pipe', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    py.once('error', reject);
    py.stdout.once('data', (d: Buffer) => resolve(Number(String(d).trim())));
  });
  // Fill the queue (backlog 0 holds one; two more stay half-open): later connects wait on a dropped SYN.
  const fillers = [0, 1, 2].map(() => net.connect(port, '127.0.0.1').on('error', () => undefined));
  await new Promise((r) => setTimeout(r, 200));
  return {
    port,
    stop: async () => {
      for (const f of fillers) f.destroy();
      py.stdin.end();
      py.kill();
      await new Promise((r) => py.once('exit', r));
    },
  };
}

/** What the proxy does with a connection: forward it, reset it once a request reached the server, or hold answers. */
export type ProxyMode = 'forward' | 'reset_after_request' | 'hold_answers';

/** A TCP proxy in front of `target`; `mode` is read per chunk, so a case sets it before its call. */
export async function tcpProxy(target: number): Promise<{ port: number; mode: ProxyMode; stop: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const state = { mode: 'forward' as ProxyMode };
  const server = net.createServer((client) => {
    const upstream = net.connect(target, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.on('data', (chunk) => {
      upstream.write(chunk);
      // The request has left the client and reached the server: cut the client off before any answer.
      if (state.mode === 'reset_after_request') setTimeout(() => client.resetAndDestroy(), 50);
    });
    upstream.on('data', (chunk) => {
      if (state.mode === 'forward') client.write(chunk);
    });
    upstream.on('close', () => client.destroy());
    client.on('close', () => upstream.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const proxy = {
    port: (server.address() as net.AddressInfo).port,
    get mode() {
      return state.mode;
    },
    set mode(m: ProxyMode) {
      state.mode = m;
    },
    stop: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(() => r(undefined)));
    },
  };
  return proxy;
}

/** The path of a server binary from PATH or the sbin folders (Debian puts daemons in /usr/sbin). */
export function findBinary(name: string): string {
  const dirs = [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/usr/bin', '/sbin'];
  for (const d of dirs) {
    const p = join(d, name);
    if (d !== '' && existsSync(p)) return p;
  }
  throw new Error(`${name} not found: install it with apt-get install -y ${name} (.ci/run does)`);
}

/** Starts `bin args` and waits until `port` accepts connections (at most `timeoutMs`, ms). */
export async function spawnServer(
  bin: string,
  args: string[],
  port: number,
  timeoutMs = 10_000,
): Promise<{ stop: () => Promise<void> }> {
  const child: ChildProcess = spawn(bin, args, { stdio: 'ignore' });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${bin} exited with ${child.exitCode}`);
    if (await listening(port)) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${bin} did not listen on ${port} within ${timeoutMs} ms`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** True when a connect to loopback `port` succeeds (the connection is closed at once). */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });
}
