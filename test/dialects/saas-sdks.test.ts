/**
 * SaaS client libraries that cannot have a real server here, each reading a loopback server that speaks the
 * provider's documented wire format: stripe (error bodies of docs.stripe.com/api/errors), openai and
 * @anthropic-ai/sdk (their error bodies and headers), axios. openai's timeout and gaxios run outside jest
 * (outside-jest.test.ts). Every client is told not to retry (Temporal owns retries). Routed by the real `invokeTool` activity.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import axios from 'axios';
import OpenAI from 'openai';
import Stripe from 'stripe';
import { expectClean, invoke, summary, toolCalling } from './invoke';

interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Never answer (the client times out). */
  hang?: boolean;
  /** Redirect to the same path again. */
  redirect?: boolean;
}
let answer: Answer;
let port: number;
let url: string;
let closedUrl: string;
const sockets = new Set<Socket>();
let server: http.Server;
const API_KEY = 'sk_test_51SecretKeyNeverShown';

// A fresh server (and so a fresh origin) per test: no client reuses a pooled connection a previous test cut.
beforeEach(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (answer.hang) return;
      if (answer.redirect) {
        res.writeHead(302, { location: req.url ?? '/' });
        return res.end();
      }
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  url = `http://127.0.0.1:${port}`;
});
beforeAll(() => {
  // Port 2: nothing here listens on it, listen(0) never hands it out (so no other test's server can take it between
  // our close and the call, as a freed ephemeral port was in a CI run), and fetch's bad-port list does not hold it.
  closedUrl = 'http://127.0.0.1:2';
});
afterEach(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => server.close(() => r(undefined)));
});

const tool = (name: string, effect: 'read' | 'write', run: () => unknown, dedup = false) =>
  toolCalling(
    name,
    effect,
    run,
    dedup ? { idempotency: { carrier: 'header', name: 'Idempotency-Key', deduplicates: true } } : {},
  );
const LEAKS = () => [port, API_KEY];

describe('stripe', () => {
  const stripe = (base = url, timeout = 2_000) => {
    const u = new URL(base);
    return new Stripe(API_KEY, {
      host: u.hostname,
      port: Number(u.port),
      protocol: 'http',
      maxNetworkRetries: 0,
      timeout,
    });
  };
  const charge = (s = stripe()) =>
    tool('create_charge', 'write', () =>
      s.paymentIntents.create({ amount: 5000, currency: 'usd', confirm: true }, { idempotencyKey: 'op-1' }),
    );

  test('StripeCardError (402, decline_code insufficient_funds) → semantic_rejection/business_rule → replan, InsufficientFundsError', async () => {
    answer = {
      status: 402,
      body: {
        error: {
          type: 'card_error',
          code: 'card_declined',
          decline_code: 'insufficient_funds',
          message: 'Your card has insufficient funds.',
        },
      },
    };
    const r = await invoke(charge(), {}, { label: ['stripe', 'StripeCardError insufficient_funds'] });
    expect(summary(r)).toEqual({
      class: 'semantic_rejection',
      reason: 'business_rule',
      action: 'replan',
      retryAfterMs: undefined,
      phase: 'dispatch',
    });
    expect(r.failure).toMatchObject({ status: 402, code: 'insufficient_funds' });
    // The card network's words are the server's: quoted as serverSaid, never part of the message (issue 36).
    expect(r.failure.publicMessage).not.toContain('Your card has insufficient funds.');
    expect(r.failure.serverSaid).toBe('Your card has insufficient funds.');
    expectClean(r.failure.publicMessage, LEAKS());
  });

  test('StripeIdempotencyError (a key reused with other parameters) → unrecoverable/tool_bug → escalate', async () => {
    answer = {
      status: 400,
      body: {
        error: {
          type: 'idempotency_error',
          message: 'Keys for idempotent requests can only be used with the same parameters they were first used with.',
        },
      },
    };
    const r = await invoke(charge(), {}, { label: ['stripe', 'StripeIdempotencyError'] });
    expect(summary(r)).toEqual({
      class: 'unrecoverable',
      reason: 'tool_bug',
      action: 'escalate',
      retryAfterMs: undefined,
      phase: 'dispatch',
    });
  });

  test('StripeInvalidRequestError with param → invalid_arguments → repair, the param as field issue', async () => {
    answer = {
      status: 400,
      body: {
        error: {
          type: 'invalid_request_error',
          code: 'parameter_invalid_integer',
          param: 'amount',
          message: 'Invalid integer: abc',
        },
      },
    };
    const r = await invoke(charge(), {}, { label: ['stripe', 'StripeInvalidRequestError (param)'] });
    expect(summary(r)).toEqual({
      class: 'invalid_arguments',
      reason: 'schema',
      action: 'repair',
      retryAfterMs: undefined,
      phase: 'dispatch',
    });
    expect(r.failure.issues?.map((i) => i.path)).toEqual([['amount']]);
  });

  test('StripeRateLimitError (429, lock_timeout) with Retry-After → transient → retry after 1000 ms', async () => {
    answer = {
      status: 429,
      headers: { 'retry-after': '1' },
      body: {
        error: {
          type: 'invalid_request_error',
          code: 'lock_timeout',
          message: 'This object cannot be accessed right now.',
        },
      },
    };
    const r = await invoke(charge(), {}, { label: ['stripe', 'StripeRateLimitError'] });
    expect(summary(r)).toEqual({
      class: 'transient',
      reason: 'rate_limited',
      action: 'retry',
      retryAfterMs: 1000,
      phase: 'dispatch',
    });
  });

  test('StripeConnectionError, connection refused (in `detail`) → not sent → retry, even for a write', async () => {
    const r = await invoke(charge(stripe(closedUrl)), {}, { label: ['stripe', 'StripeConnectionError (refused)'] });
    expect(r.thrown).toMatchObject({ type: 'StripeConnectionError' });
    expect(summary(r)).toEqual({
      class: 'transient',
      reason: 'network',
      action: 'retry',
      retryAfterMs: undefined,
      phase: 'dispatch',
    });
  });

  test('StripeConnectionError, timed out after sending → a write reconciles; a deduplicated write retries', async () => {
    answer = { status: 200, hang: true };
    const r = await invoke(charge(stripe(url, 150)), {}, { label: ['stripe', 'StripeConnectionError (timeout)'] });
    expect(summary(r)).toEqual({
      class: 'outcome_unknown',
      reason: 'timeout',
      action: 'reconcile',
      retryAfterMs: undefined,
      phase: 'commit_unknown',
    });
    const s = stripe(url, 150);
    const dedup = tool(
      'create_charge',
      'write',
      () => s.paymentIntents.create({ amount: 1, currency: 'usd' }, { idempotencyKey: 'op-2' }),
      true,
    );
    const d = await invoke(dedup, {});
    expect(summary(d)).toEqual({
      class: 'transient',
      reason: 'timeout',
      action: 'retry',
      retryAfterMs: undefined,
      phase: 'commit_unknown',
    });
  });
});

describe('openai and @anthropic-ai/sdk', () => {
  const openai = (timeout = 2_000) => new OpenAI({ baseURL: `${url}/v1`, apiKey: API_KEY, maxRetries: 0, timeout });
  const anthropic = (timeout = 2_000) => new Anthropic({ baseURL: url, apiKey: API_KEY, maxRetries: 0, timeout });
  const chat = (effect: 'read' | 'write', o = openai()) =>
    tool('ask_model', effect, () =>
      o.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
    );
  const message = (a = anthropic()) =>
    tool('ask_claude', 'read', () =>
      a.messages.create({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
    );

  test('openai BadRequestError with a top-level param → invalid_arguments with that field issue → repair', async () => {
    answer = {
      status: 400,
      body: {
        error: {
          message: "Invalid value for 'temperature'.",
          type: 'invalid_request_error',
          param: 'temperature',
          code: 'invalid_value',
        },
      },
    };
    const r = await invoke(chat('read'), {}, { label: ['openai', 'BadRequestError (param)'] });
    expect(summary(r)).toEqual({
      class: 'invalid_arguments',
      reason: 'schema',
      action: 'repair',
      retryAfterMs: undefined,
      phase: 'dispatch',
    });
    expect(r.failure.issues?.map((i) => i.path)).toEqual([['temperature']]);
    expectClean(r.failure.publicMessage, LEAKS());
  });

  test('openai RateLimitError with retry-after-ms → retry after 1200 ms', async () => {
    answer = {
      status: 429,
      headers: { 'retry-after-ms': '1200' },
      body: { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } },
    };
    const r = await invoke(chat('read'), {}, { label: ['openai', 'RateLimitError'] });
    expect(summary(r)).toEqual({
      class: 'transient',
      reason: 'rate_limited',
      action: 'retry',
      retryAfterMs: 1200,
      phase: 'dispatch',
    });
  });

  test('openai connection refused (APIConnectionError, the cause says ECONNREFUSED) → not sent → retry', async () => {
    const o = new OpenAI({ baseURL: `${closedUrl}/v1`, apiKey: API_KEY, maxRetries: 0 });
    const r = await invoke(chat('write', o), {}, { label: ['openai', 'APIConnectionError (refused)'] });
    expect(summary(r)).toEqual({
      class: 'transient',
      reason: 'network',
      action: 'retry',
      retryAfterMs: undefined,
      phase: 'dispatch',
    });
  });

  test('anthropic 529 overloaded_error → transient/unavailable → retry', async () => {
    answer = { status: 529, body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } };
    const r = await invoke(message(), {}, { label: ['@anthropic-ai/sdk', '529 overloaded_error'] });
    expect(summary(r)).toEqual({
      class: 'transient',
      reason: 'unavailable',
      action: 'retry',
      retryAfterMs: undefined,
      phase: 'dispatch',
    });
  });

  test('anthropic APIConnectionTimeoutError on a read → retry', async () => {
    answer = { status: 200, hang: true };
    const r = await invoke(message(anthropic(150)), {}, { label: ['@anthropic-ai/sdk', 'APIConnectionTimeoutError'] });
    expect(summary(r)).toEqual({
      class: 'transient',
      reason: 'timeout',
      action: 'retry',
      retryAfterMs: undefined,
      phase: 'dispatch',
    });
    expect(r.failure.publicMessage).toContain('Anthropic SDK APIConnectionTimeoutError');
  });
});

describe('axios', () => {
  const get = (opts: Parameters<typeof axios.get>[1] = {}, base = url) =>
    tool('fetch_page', 'read', () => axios.get(`${base}/x`, opts));

  test('ECONNABORTED (timeout after sending) on a read → retry', async () => {
    answer = { status: 200, hang: true };
    const r = await invoke(get({ timeout: 100 }), {}, { label: ['axios', 'ECONNABORTED timeout'] });
    expect(summary(r)).toEqual({
      class: 'transient',
      reason: 'timeout',
      action: 'retry',
      retryAfterMs: undefined,
      phase: 'dispatch',
    });
  });

  test('ERR_FR_TOO_MANY_REDIRECTS (a redirect loop) → unrecoverable → escalate', async () => {
    answer = { status: 302, redirect: true };
    const r = await invoke(get({ maxRedirects: 2 }), {}, { label: ['axios', 'ERR_FR_TOO_MANY_REDIRECTS'] });
    expect(summary(r)).toEqual({
      class: 'unrecoverable',
      reason: 'unspecified',
      action: 'escalate',
      retryAfterMs: undefined,
      phase: 'dispatch',
    });
  });

  test('503 with Retry-After through response.status/headers → retry after 3000 ms', async () => {
    answer = { status: 503, headers: { 'retry-after': '3' }, body: { message: 'down' } };
    const r = await invoke(get(), {}, { label: ['axios', '503 Retry-After'] });
    expect(summary(r)).toEqual({
      class: 'transient',
      reason: 'unavailable',
      action: 'retry',
      retryAfterMs: 3000,
      phase: 'dispatch',
    });
  });

  test('ECONNREFUSED → not sent → retry', async () => {
    const r = await invoke(get({}, closedUrl), {}, { label: ['axios', 'ECONNREFUSED'] });
    expect(summary(r)).toEqual({
      class: 'transient',
      reason: 'network',
      action: 'retry',
      retryAfterMs: undefined,
      phase: 'dispatch',
    });
  });
});
