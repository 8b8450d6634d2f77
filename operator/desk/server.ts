/**
 * `recovery-router desk`: the approval and review desk, a small web app over `node:http` (docs/approvals.md). It
 * serves the page (operator/desk/public: one HTML file, one script, one stylesheet; no build step, no inline
 * script) and a JSON API under `/api/`, and reads and decides through a Temporal client like the CLI. It listens on
 * 127.0.0.1 unless told otherwise. Node side.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import type { DeskConfig, DeskConfigInput } from '../../config/desk-schema';
import { ConfigError, parseConfigObject } from '../../config/load';
import { DeskActions } from './actions';
import { allowHosts, checkHostAndOrigin, createAuth } from './auth';
import { briefly, HttpError, sendJson, SECURITY_HEADERS } from './http';
import { LiveFeed } from './live';
import { route, type Desk } from './routes';
import { HistoryReader } from './views';

/** The page's files, by URL path: read once at start from operator/desk/public (copied beside the build). */
const ASSETS: Record<string, { file: string; type: string }> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/desk.js': { file: 'desk.js', type: 'text/javascript; charset=utf-8' },
  '/desk.css': { file: 'desk.css', type: 'text/css; charset=utf-8' },
};

/**
 * Options of `startDesk`: the Temporal client, the desk's config (port, users or a trusted proxy) and the
 * approvals' signing key (docs/approvals.md, "The desk").
 */
export interface DeskOptions {
  /** A connected client for the namespace; the desk does not close its connection. */
  client: Client;
  /** The `desk` section of temporal.config.json (config/desk-schema.ts); defaults fill the rest. */
  config?: DeskConfigInput;
  /** The approval signing key (≥ 32 bytes), when the workers require signed approvals. */
  signingKey?: Uint8Array;
}

/** A started desk: its URL and how to stop it. */
export interface RunningDesk {
  /** `http://<host>:<port>` */
  url: string;
  server: Server;
  /** Stops the HTTP server and the event streams, once the reads under way are done. */
  close(): Promise<void>;
}

/**
 * Starts the desk.
 * @throws ConfigError naming the field when `options.client` is not a client or `options.config` is malformed; the
 *   server's `listen` error (e.g. EADDRINUSE).
 */
export async function startDesk(options: DeskOptions): Promise<RunningDesk> {
  const client = (options as Partial<DeskOptions> | undefined)?.client;
  if (typeof client?.workflow?.list !== 'function')
    throw new ConfigError('startDesk options', 'client', ['client: must be a @temporalio/client Client']);
  const config: DeskConfig = parseConfigObject({ desk: options.config ?? {} }, 'startDesk options').desk;
  const assets = loadAssets();
  const live = new LiveFeed(options.client, config.pollMs);
  const desk: Desk = {
    auth: createAuth(config),
    actions: new DeskActions(options.client, options.signingKey, (id) => live.decided(id)),
    history: new HistoryReader(options.client, config.historyLimit),
    live,
    passwordLogin: config.users.length > 0,
    proxyHeader: config.proxy?.header,
  };
  const pending = new Set<Promise<void>>();
  const server = createServer((req, res) => {
    const answer = handle(desk, assets, req, res).finally(() => pending.delete(answer));
    pending.add(answer);
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(config.port, config.host, () => ok());
  });
  const { port } = server.address() as AddressInfo;
  allowHosts(desk.auth, config, port);
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return {
    url: `http://${host}:${port}`,
    server,
    close: async () => {
      server.closeAllConnections();
      await Promise.all([live.close(), new Promise((ok) => server.close(ok)), ...pending]);
    },
  };
}

function loadAssets(): Map<string, { body: Buffer; type: string }> {
  const dir = join(__dirname, 'public');
  return new Map(
    Object.entries(ASSETS).map(([path, a]) => [path, { body: readFileSync(join(dir, a.file)), type: a.type }]),
  );
}

async function handle(
  desk: Desk,
  assets: Map<string, { body: Buffer; type: string }>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  try {
    checkHostAndOrigin(desk.auth, req);
    const url = new URL(req.url ?? '/', 'http://desk');
    const path = url.pathname;
    const asset = req.method === 'GET' ? assets.get(path) : undefined;
    if (asset) {
      res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': asset.type, 'content-length': asset.body.length });
      res.end(asset.body);
      return;
    }
    if (!path.startsWith('/api/')) throw new HttpError(404, 'not found');
    await route(desk, req, res, url);
  } catch (err) {
    if (res.headersSent) {
      res.end();
      return;
    }
    if (err instanceof HttpError) sendJson(res, err.status, { error: err.message });
    else sendJson(res, 502, { error: `Temporal answered with an error: ${briefly(err)}` });
  }
}
