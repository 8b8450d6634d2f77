/**
 * An adapter that catches `ctx.http`'s error and throws its own opaque one (field case C14, variant A: "the type is
 * lost") is routed by the answer `ctx.http` got (activities/http-evidence.ts), unless a change the call made could
 * hide behind it. Through the real `invokeTool` under `MockActivityEnvironment`, against a loopback HTTP server.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApplicationFailure } from '@temporalio/common';
import { activityEnv } from '../fixtures/activity-env';
import { z } from 'zod';
import { defineTool, type AnyTool } from '../../activities/define-tool';
import { HttpEvidence } from '../../activities/http-evidence';
import { createToolActivities } from '../../activities/invoke-tool';
import type { ToolContext } from '../../activities/tool-context';
import { DEFAULT_BACKOFF_POLICY } from '../../recovery/backoff';
import type { ToolFailure } from '../../recovery/failure';

const silent = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };
/** Path → [status, JSON body]; every request is counted. */
const ANSWERS: Record<string, [number, unknown]> = {
  '/withdrawals': [422, { code: 'insufficient_funds' }],
  '/payments': [201, { id: 'p-1' }],
  '/payments/p-1': [404, { code: 'not_found' }],
  '/balance': [503, { message: 'try later' }],
};
let server: Server;
let base: string;
const hits: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    const [status, body] = ANSWERS[req.url ?? ''] ?? [500, {}];
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));
beforeEach(() => (hits.length = 0));

/** A tool whose adapter swallows every error of `steps` and throws `new Error("Unexpected error occurred")`. */
function buggyTool(effect: 'read' | 'write', steps: (ctx: ToolContext) => Promise<unknown>): AnyTool {
  return defineTool({
    name: effect === 'write' ? 'withdraw' : 'get_balance',
    description: 'A tool with a buggy adapter.',
    input: z.object({}),
    output: z.unknown(),
    effect,
    ...(effect === 'write' ? { idempotency: { carrier: 'header', deduplicates: false } } : {}),
    async execute(_args: unknown, ctx: ToolContext) {
      try {
        return await steps(ctx);
      } catch {
        throw new Error('Unexpected error occurred');
      }
    },
  } as Parameters<typeof defineTool>[0]);
}

async function failureOf(t: AnyTool): Promise<ToolFailure> {
  const { invokeTool } = createToolActivities({ tools: [t], backoff: DEFAULT_BACKOFF_POLICY });
  const env = activityEnv({ activityId: 'act-1' }, { logger: silent });
  try {
    await env.run(invokeTool, { tool: t.name, args: {}, callId: 'call-1', operationId: 'wf:step' });
  } catch (err) {
    if (err instanceof ApplicationFailure) return (err.details as [ToolFailure])[0];
    throw err;
  }
  throw new Error('the call succeeded');
}

test('a 422 the adapter rethrew as a plain Error keeps its route: semantic_rejection named after the code', async () => {
  const f = await failureOf(
    buggyTool('write', (ctx) => ctx.http.request({ method: 'POST', url: `${base}/withdrawals` })),
  );
  expect(f).toMatchObject({
    class: 'semantic_rejection',
    reason: 'business_rule',
    status: 422,
    code: 'insufficient_funds',
    retryable: false,
  });
  expect(hits).toEqual(['POST /withdrawals']);
});

test('a 503 to a read the adapter hid is transient and retryable', async () => {
  const f = await failureOf(buggyTool('read', (ctx) => ctx.http.request({ url: `${base}/balance` })));
  expect(f).toMatchObject({ class: 'transient', status: 503, retryable: true });
});

test('a refused connection the adapter hid is a write that was never sent: transient, replay-safe', async () => {
  const closed = createServer();
  await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((done) => closed.close(() => done()));
  const f = await failureOf(
    buggyTool('write', (ctx) => ctx.http.request({ method: 'POST', url: `http://127.0.0.1:${port}/payments` })),
  );
  expect(f).toMatchObject({ class: 'transient', retryable: true, replaySafe: true });
});

test('after a write was answered 201, a later 404 says nothing of it: outcome_unknown/accepted, never a tool bug', async () => {
  const f = await failureOf(
    buggyTool('write', async (ctx) => {
      await ctx.http.request({ method: 'POST', url: `${base}/payments` });
      return ctx.http.request({ url: `${base}/payments/p-1` });
    }),
  );
  // The receiver accepted the write (201): a lookup's "not applied" will not be final for it (issue 35).
  expect(f).toMatchObject({ class: 'outcome_unknown', reason: 'accepted', replaySafe: false });
  expect(hits).toEqual(['POST /payments', 'GET /payments/p-1']);
});

test('an opaque throw with no exchange at all stays unrecognized (outcome_unknown for a write)', async () => {
  const f = await failureOf(buggyTool('write', () => Promise.reject(new Error('x'))));
  expect(f).toMatchObject({ class: 'outcome_unknown', reason: 'unrecognized' });
  expect(hits).toEqual([]);
});

describe('HttpEvidence', () => {
  const err = new Error('HTTP 422');
  test.each([
    ['the last exchange threw', (e: HttpEvidence) => (e.sending(), e.threw(err)), err],
    [
      'a safe answer, then a throw',
      (e: HttpEvidence) => (e.sending(), e.answered('get', 200), e.sending(), e.threw(err)),
      err,
    ],
    [
      'an unsafe answer, then a throw',
      (e: HttpEvidence) => (e.sending(), e.answered('POST', 201), e.sending(), e.threw(err)),
      undefined,
    ],
    [
      'a throw, then an answer',
      (e: HttpEvidence) => (e.sending(), e.threw(err), e.sending(), e.answered('GET', 200)),
      undefined,
    ],
    [
      'a throw while another request is in flight',
      (e: HttpEvidence) => (e.sending(), e.sending(), e.threw(err)),
      undefined,
    ],
    ['nothing sent', () => undefined, undefined],
  ])('%s → implied cause', (_n, steps, expected) => {
    const e = new HttpEvidence();
    steps(e);
    expect(e.impliedCause()).toBe(expected);
  });
});
