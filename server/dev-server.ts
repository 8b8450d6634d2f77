/**
 * The embedded Temporal dev server: `temporal server start-dev` on loopback, its SQLite file (`dbFilename`, relative
 * to the working directory; `.temporal/data/` by default) kept so state survives a restart, the project's search
 * attributes registered with `--search-attribute`, the Web UI on. The CLI is found by server/temporal-cli.ts.
 *
 * `ensureEmbeddedServer` starts it only when nothing answers at the configured address, and `stop()` stops only
 * what it started (a server someone else runs is left alone).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, openSync, readFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { Connection } from '@temporalio/client';
import { SEARCH_ATTRIBUTES } from '../workflows/search-attributes';
import { findTemporalCli } from './temporal-cli';
import type { EmbeddedServerConfig } from '../config/schema';

/**
 * The embedded dev server `ensureEmbeddedServer` reached or started: its address, its Web UI, whether this call
 * started it, and how to stop it.
 */
export interface EmbeddedServer {
  /** `host:port` of the frontend gRPC service. */
  address: string;
  /** The Web UI's URL, or undefined when the server was already running (we do not know its UI). */
  uiUrl: string | undefined;
  /** True when this process started the server. */
  started: boolean;
  /** Stops the server if this process started it; otherwise does nothing. */
  stop(): Promise<void>;
}

/** True when something accepts TCP connections at host:port within `timeoutMs` (ms). */
export function answers(host: string, port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((done) => {
    const socket = createConnection({ host, port });
    const finish = (ok: boolean) => {
      socket.destroy();
      done(ok);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}

/**
 * Ensures a Temporal server answers at `config.ip:config.port`, starting the embedded dev server if none does.
 * @param readyTimeoutMs how long to wait for the started server's gRPC frontend, in ms (default 60 000).
 * @throws TemporalCliNotFoundError when no server answers and no Temporal CLI is found (server/temporal-cli.ts).
 * @throws Error when the started server exits or does not become ready in time (its log path, and on an exit the
 *   log's last 2,000 characters, in the message).
 */
export async function ensureEmbeddedServer(
  config: EmbeddedServerConfig,
  readyTimeoutMs = 60_000,
): Promise<EmbeddedServer> {
  const address = `${config.ip}:${config.port}`;
  if (await answers(config.ip, config.port)) {
    return { address, uiUrl: undefined, started: false, stop: async () => undefined };
  }
  const cli = findTemporalCli();
  const dbFile = resolve(process.cwd(), config.dbFilename);
  mkdirSync(dirname(dbFile), { recursive: true });
  const logFile = join(dirname(dbFile), 'dev-server.log');
  const args = [
    'server',
    'start-dev',
    '--ip',
    config.ip,
    '--port',
    String(config.port),
    '--ui-port',
    String(config.uiPort),
    '--namespace',
    config.namespace,
    '--db-filename',
    dbFile,
    '--log-level',
    'warn',
    ...SEARCH_ATTRIBUTES.flatMap((k) => ['--search-attribute', `${k.name}=Keyword`]),
  ];
  const log = openSync(logFile, 'a');
  const child = spawn(cli, args, { stdio: ['ignore', log, log] });
  await waitReady(address, child, readyTimeoutMs, logFile);
  return {
    address,
    uiUrl: `http://${config.ip}:${config.uiPort}`,
    started: true,
    stop: () => stopChild(child),
  };
}

/** The last lines of the server's log (at most 2,000 characters), for an error message; '' when unreadable. */
function logTail(logFile: string): string {
  try {
    const text = readFileSync(logFile, 'utf8').trimEnd();
    return text === '' ? '' : `; it ends:\n${text.slice(-2_000)}`;
  } catch {
    return '';
  }
}

async function waitReady(address: string, child: ChildProcess, timeoutMs: number, logFile: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(
        `temporal server start-dev exited with code ${child.exitCode}; see ${logFile}${logTail(logFile)}`,
      );
    }
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1000 });
      await connection.healthService.check({});
      await connection.close();
      return;
    } catch (err) {
      lastError = err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  await stopChild(child);
  throw new Error(
    `temporal server start-dev did not answer at ${address} within ${timeoutMs} ms (${String(lastError)}); see ${logFile}`,
  );
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(force);
      done();
    });
    child.kill('SIGTERM');
  });
}
