/**
 * A dev server of the cell's own, for the rows that stop it: `temporal server start-dev` (the CLI of
 * scripts/temporal-binaries.ts) on a free loopback port, headless, its SQLite file kept so a restart resumes every run, the
 * plugin's search attributes registered (as server/dev-server.ts starts it). `stop(signal)` sends SIGTERM or SIGKILL
 * and waits for the exit; `start()` starts it again on the same port and file.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Connection } from '@temporalio/client';
import { temporalBinaries } from '../../scripts/temporal-binaries';
import { SEARCH_ATTRIBUTES } from '../../workflows/search-attributes';

export interface OwnServer {
  address: string;
  start(): Promise<void>;
  stop(signal: 'SIGTERM' | 'SIGKILL'): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => done(port));
    });
  });
}

/** Waits until the frontend answers a health check; throws after `timeoutMs` ms or when the process exits. */
async function healthy(address: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`temporal server start-dev exited with code ${child.exitCode}`);
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1_000 });
      await connection.healthService.check({});
      await connection.close();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`the dev server at ${address} did not answer: ${String(err)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

export async function ownServer(dir: string): Promise<OwnServer> {
  const port = await freePort();
  const address = `127.0.0.1:${port}`;
  const args = [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(port),
    '--headless',
    '--namespace',
    'default',
    '--db-filename',
    join(dir, 'dev.sqlite'),
    '--log-level',
    'error',
    ...SEARCH_ATTRIBUTES.flatMap((k) => ['--search-attribute', `${k.name}=Keyword`]),
  ];
  let child: ChildProcess | undefined;
  return {
    address,
    async start() {
      child = spawn(temporalBinaries().cli, args, { stdio: 'ignore' });
      await healthy(address, child, 60_000);
    },
    async stop(signal) {
      const c = child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return;
      await new Promise<void>((done) => {
        c.once('exit', () => done());
        c.kill(signal);
      });
    },
  };
}
