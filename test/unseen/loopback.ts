/**
 * A loopback HTTP server that answers each request with the current scripted answer: a status, headers and a body
 * exactly as the service's documentation shows them, or no answer at all (`hang`). For services that cannot run
 * here; the official client reads it.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Effect, UnseenCase } from './cases';

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  /** A string is sent as is; anything else as JSON. */
  body?: unknown;
  /** Never answer (the client times out after its request was sent). */
  hang?: boolean;
}

export interface Loopback {
  url: string;
  /** The answer to every request from now on. */
  answer: Answer;
  stop: () => Promise<void>;
}

/** Starts the server; `base` headers go on every answer (a product header a client checks, say). */
export async function startLoopback(base: Record<string, string> = {}): Promise<Loopback> {
  const sockets = new Set<Socket>();
  const state: { answer: Answer } = { answer: { status: 200, body: {} } };
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const a = state.answer;
      if (a.hang) return;
      const text = typeof a.body === 'string' ? a.body : JSON.stringify(a.body ?? {});
      const type = typeof a.body === 'string' ? 'text/plain' : 'application/json';
      res.writeHead(a.status, { 'content-type': type, ...base, ...a.headers });
      res.end(text);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get answer() {
      return state.answer;
    },
    set answer(a: Answer) {
      state.answer = a;
    },
    stop: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(() => r(undefined)));
    },
  };
}

/**
 * The case builder of a loopback library: `one(name, effect, answer, run, verify?)` is the case
 * `<library>.<name>.<effect>` that sets the loopback's next answer (when given) and runs the library's call.
 */
export function loopbackCases(library: string, server: Pick<Loopback, 'answer'>) {
  return (
    name: string,
    effect: Effect,
    answer: Answer | undefined,
    run: () => Promise<unknown>,
    verify?: 'holds',
  ): UnseenCase => ({
    id: `${library}.${name}.${effect}`,
    effect,
    run: () => {
      if (answer) server.answer = answer;
      return run();
    },
    ...(verify ? { verify } : {}),
  });
}
