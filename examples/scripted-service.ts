/**
 * A real loopback HTTP service whose answers follow a script, for the demo and the tests: each route answers with
 * the next step of its script (the last step repeats), and counts every request it receives — the "dispatch
 * count" tests assert. Binds 127.0.0.1 on a free port.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * One scripted answer. `delayMs` holds the response (ms); `destroy` drops the socket after reading the request.
 * `headers` may be a function of the time the request arrived (ms since the epoch), for headers that name a moment,
 * e.g. `Retry-After: <HTTP-date>`.
 */
export interface ScriptStep {
  status?: number;
  headers?: Record<string, string> | ((receivedAtMs: number) => Record<string, string>);
  body?: unknown;
  delayMs?: number;
  destroy?: boolean;
}

/** Route key `"METHOD /path"` (query string ignored) → the steps, in order; the last one repeats. */
export type Script = Record<string, readonly ScriptStep[]>;

export interface ReceivedRequest {
  route: string;
  atMs: number;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface ScriptedService {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Every request received, in order. */
  received: ReceivedRequest[];
  /** How many requests a route received. */
  hits(route: string): number;
  /** Replaces the script and clears the counts. */
  reset(script: Script): void;
  close(): Promise<void>;
}

/** Starts the service. @throws Error if the port cannot be bound. */
export async function startScriptedService(initial: Script): Promise<ScriptedService> {
  let script = initial;
  const received: ReceivedRequest[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const route = `${req.method ?? 'GET'} ${(req.url ?? '/').split('?')[0]}`;
      const index = received.filter((r) => r.route === route).length;
      const atMs = Date.now();
      received.push({ route, atMs, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const steps = script[route];
      const step: ScriptStep = steps?.length
        ? (steps[Math.min(index, steps.length - 1)] as ScriptStep)
        : { status: 404 };
      if (step.destroy) {
        req.socket.destroy();
        return;
      }
      const respond = () => {
        if (res.destroyed) return;
        const hasBody = step.body !== undefined;
        res.writeHead(step.status ?? 200, {
          ...(hasBody ? { 'content-type': 'application/json' } : { 'content-length': '0' }),
          ...(typeof step.headers === 'function' ? step.headers(atMs) : step.headers),
        });
        res.end(hasBody ? JSON.stringify(step.body) : undefined);
      };
      if (step.delayMs) setTimeout(respond, step.delayMs).unref();
      else respond();
    });
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => ok());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    hits: (route) => received.filter((r) => r.route === route).length,
    reset(next) {
      script = next;
      received.length = 0;
    },
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
