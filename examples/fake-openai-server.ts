/**
 * A fake OpenAI-compatible model server on loopback, for tests and the demo: `POST /v1/chat/completions` answers
 * with the next reply of a queue, in the real wire format (`choices[0].message.tool_calls[]` with `id`,
 * `type: 'function'`, `function: { name, arguments }` where `arguments` is a JSON string; `finish_reason`), or with
 * an HTTP error (e.g. 429 with `Retry-After`, 500) in OpenAI's error body shape. Every request is recorded (parsed
 * body and headers) so tests can assert what the planner sent. An empty queue answers 500 "no scripted reply left":
 * a fake model fails loudly when it runs out of answers. Binds 127.0.0.1 on a free port.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One tool call in a reply. `arguments` as an object is sent as its JSON; as a string, verbatim (may be broken). */
export interface FakeToolCall {
  /** @default `call_<n>`, n counting every tool call the server has sent */
  id?: string;
  name: string;
  arguments: string | Record<string, unknown>;
}

/** One scripted answer. `delayMs` holds it back (ms), for client timeouts and cancellation. */
export type FakeReply = (
  | { kind: 'tool_calls'; calls: FakeToolCall[]; content?: string }
  | { kind: 'text'; content: string; finishReason?: 'stop' | 'length' | 'content_filter' }
  /** An HTTP error; `body` defaults to `{ error: { message, type, code } }` built from the status. */
  | { kind: 'error'; status: number; headers?: Record<string, string>; body?: unknown }
  /** Any 200 JSON body, for malformed completions. */
  | { kind: 'raw'; body: unknown }
) & { delayMs?: number };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (`undefined` when it was not JSON). */
  body: unknown;
}

export interface FakeOpenAIServer {
  /** `http://127.0.0.1:<port>/v1`: what `OPENAI_BASE_URL` is set to. */
  baseURL: string;
  /** Every request, in order. */
  requests: RecordedRequest[];
  /** Adds replies to the end of the queue. */
  enqueue(...replies: FakeReply[]): void;
  /** Replies not yet used. */
  pending(): number;
  close(): Promise<void>;
}

/** Shorthand for a tool-call reply. */
export const toolCalls = (...calls: FakeToolCall[]): FakeReply => ({ kind: 'tool_calls', calls });
/** Shorthand for a text reply (no tool call). */
export const text = (content: string): FakeReply => ({ kind: 'text', content });

export interface FakeOpenAIServerOptions {
  /**
   * Answers a request when the queue is empty, from its parsed body (a model that reads the conversation, e.g. the
   * tool results so far). @default none: an empty queue answers 500
   */
  respond?: (body: unknown) => FakeReply;
}

/** Starts the server. @throws Error if the port cannot be bound. */
export async function startFakeOpenAIServer(
  replies: FakeReply[] = [],
  options: FakeOpenAIServerOptions = {},
): Promise<FakeOpenAIServer> {
  const queue = [...replies];
  const requests: RecordedRequest[] = [];
  let callCount = 0;
  let completionCount = 0;

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    if (res.destroyed) return;
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  const errorBody = (status: number, message: string) => ({
    error: { message, type: status === 429 ? 'rate_limit_error' : 'server_error', param: null, code: null },
  });

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = raw === '' ? undefined : JSON.parse(raw);
      } catch {
        body = undefined;
      }
      requests.push({ method: req.method ?? 'GET', path, headers: req.headers, body });
      if (req.method !== 'POST' || path !== '/v1/chat/completions') {
        send(res, 404, { error: { message: `no route ${req.method} ${path}`, type: 'invalid_request_error' } });
        return;
      }
      const reply = queue.shift() ?? options.respond?.(body);
      if (!reply) {
        send(res, 500, errorBody(500, 'fake server: no scripted reply left'));
        return;
      }
      if (reply.delayMs) setTimeout(() => answer(res, reply, body), reply.delayMs).unref();
      else answer(res, reply, body);
    });
  });
  const answer = (res: ServerResponse, reply: FakeReply, body: unknown) => {
    if (reply.kind === 'error') {
      send(res, reply.status, reply.body ?? errorBody(reply.status, `fake error ${reply.status}`), reply.headers);
      return;
    }
    if (reply.kind === 'raw') {
      send(res, 200, reply.body);
      return;
    }
    completionCount += 1;
    const model = (body as { model?: unknown } | undefined)?.model;
    const message =
      reply.kind === 'tool_calls'
        ? {
            role: 'assistant',
            content: reply.content ?? null,
            refusal: null,
            tool_calls: reply.calls.map((c) => ({
              id: c.id ?? `call_${++callCount}`,
              type: 'function',
              function: {
                name: c.name,
                arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments),
              },
            })),
          }
        : { role: 'assistant', content: reply.content, refusal: null };
    send(res, 200, {
      id: `chatcmpl-fake-${completionCount}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: typeof model === 'string' ? model : 'fake-model',
      choices: [
        {
          index: 0,
          message,
          logprobs: null,
          finish_reason: reply.kind === 'tool_calls' ? 'tool_calls' : (reply.finishReason ?? 'stop'),
        },
      ],
      usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    });
  };
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => ok());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    enqueue: (...more) => void queue.push(...more),
    pending: () => queue.length,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
