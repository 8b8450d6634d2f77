/** The `/metrics` endpoint of `RecoveryMetrics.serve` (plugin/metrics.ts), on node:http. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RecoveryMetrics } from './metrics';
import { RecoveryMetricsOptionsError } from './metrics-options';

/** A running `/metrics` endpoint. */
export interface MetricsServer {
  /** `http://<host>:<port>/metrics`, with the port actually bound (useful with port 0). */
  url: string;
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
}

/** What the endpoint serves: the exposition text and its `Content-Type`. */
export type MetricsSource = Pick<RecoveryMetrics, 'text' | 'contentType'>;

/**
 * Serves `GET /metrics` (and `HEAD`) on a node:http server; any other path is 404, any other method 405.
 * @param port TCP port; 0 picks a free one (see `url`).
 * @param host address to bind.
 * @throws RecoveryMetricsOptionsError (as a rejection) when `port` is not an integer in 0–65535.
 * @returns a promise that rejects with the listen error (e.g. EADDRINUSE).
 */
export function serveMetrics(source: MetricsSource, port: number, host: string): Promise<MetricsServer> {
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    return Promise.reject(
      new RecoveryMetricsOptionsError(`RecoveryMetrics.serve: port must be an integer in 0–65535 (got ${port})`),
    );
  }
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: GET /metrics\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('method not allowed\n');
      return;
    }
    source.text().then(
      (body) =>
        res.writeHead(200, { 'content-type': source.contentType }).end(req.method === 'HEAD' ? undefined : body),
      (err: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`${String(err)}\n`),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const { port: bound } = server.address() as AddressInfo;
      const shownHost = host.includes(':') ? `[${host}]` : host;
      resolve({
        url: `http://${shownHost}:${bound}/metrics`,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((err) => (err ? fail(err) : done()));
            server.closeAllConnections();
          }),
      });
    });
  });
}
