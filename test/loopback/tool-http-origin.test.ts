/**
 * `ctx.http` on two real loopback origins: one origin per request (a redirect is followed only by a safe method,
 * within its origin, at most `MAX_REDIRECTS` times; RFC 9110 §15.4), bodies read to a bound (a 2xx over it is
 * `HttpBodyError`, any other answer keeps a 64 KiB prefix), and secret header values never come back in a body.
 * Asserts the requests each origin received, and the headers the second origin got: none.
 */
import { gzipSync } from 'node:zlib';
import {
  createToolHttp,
  HttpBodyError,
  HttpOutcomeError,
  MAX_REDIRECTS,
  ToolHttpRequestError,
} from '../../activities/http';
import { MAX_ERROR_BODY_BYTES } from '../../activities/http-body';
import { HttpEvidence } from '../../activities/http-evidence';
import { closeOrigins, json, origin, redirect, type Handler, type Origin } from '../fixtures/origins';

let a: Origin;
let b: Origin;
beforeAll(async () => {
  a = await origin('127.0.0.1');
  b = await origin('0.0.0.0');
});
afterAll(() => closeOrigins([a, b]));
beforeEach(() => {
  for (const o of [a, b]) {
    o.got = [];
    o.routes = {};
  }
});

/** 50 MB of zeros, gzip-compressed (about 50 KB). */
const BOMB = gzipSync(Buffer.alloc(50_000_000));
const API_KEY = 'ak_live_7Hq2Lm9Xz4Pw8Rt3';
const TOKEN = 'tok-Bearer-5f4e3d2c1b0a';
const http = createToolHttp({
  idempotency: { carrier: 'header', name: 'Idempotency-Key', deduplicates: false },
  operationId: 'wf-1:pay-1',
  credential: { token: TOKEN },
  signal: new AbortController().signal,
  secretHeaders: ['X-Api-Key'],
});
const headers = { 'x-api-key': API_KEY };
const ALL = '[idempotency-key, x-api-key, authorization]';
const failed = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

describe('a write never follows a redirect', () => {
  test.each([
    [302, () => '/login'],
    [303, () => '/receipts/pay_1'],
    [307, () => '/payments'],
    [308, () => `http://127.0.0.2:${b.port}/payments`],
    [307, () => `http://127.0.0.1:${b.port}/payments`],
  ])(
    'POST answered %i → HttpOutcomeError with that status; one POST, nothing else sent anywhere',
    async (status, to) => {
      a.routes['POST /payments'] = redirect(status, to());
      a.routes['GET /login'] = (_q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>Sign in</p>');
      const err = await failed(http.request({ method: 'POST', url: `${a.url}/payments`, json: { n: 1 }, headers }));
      expect([HttpOutcomeError.is(err), (err as HttpOutcomeError).outcome.status]).toEqual([true, status]);
      expect([a.got, b.got]).toEqual([[`POST /payments ${ALL.replace(']', ', body]')}`], []]);
    },
  );

  test('a redirect the write lists in accept is its answer: the tool handles it', async () => {
    a.routes['POST /payments'] = redirect(303, '/payments/pay_1');
    const res = await http.request({ method: 'POST', url: `${a.url}/payments`, json: {}, accept: [303] });
    expect([res.status, res.headers.location, a.got.length]).toEqual([303, '/payments/pay_1', 1]);
  });
});

describe('a read follows redirects within its origin only, at most MAX_REDIRECTS', () => {
  test.each(['GET', 'HEAD', 'OPTIONS'])('%s 301 → the same origin: followed, with the same headers', async (method) => {
    a.routes[`${method} /v1/items`] = redirect(301, '/v2/items#page');
    a.routes[`${method} /v2/items`] = json(200, '{"items":[]}');
    const res = await http.request({ method, url: `${a.url}/v1/items`, headers });
    expect([res.status, a.got]).toEqual([200, [`${method} /v1/items ${ALL}`, `${method} /v2/items ${ALL}`]]);
  });

  test.each([
    ['another host', () => `http://127.0.0.2:${b.port}/items`],
    ['the same host on another port', () => `http://127.0.0.1:${b.port}/items`],
    ['another scheme (https) on the same host and port', () => `https://127.0.0.1:${a.port}/items`],
    ['the same origin with credentials', () => `http://user:pw@127.0.0.1:${a.port}/items`],
  ])('302 to %s: not followed, HttpOutcomeError 302; the other origin got nothing', async (_what, to) => {
    a.routes['GET /items'] = redirect(302, to());
    const err = await failed(http.request({ url: `${a.url}/items`, headers }));
    expect([(err as HttpOutcomeError).outcome.status, a.got.length, b.got]).toEqual([302, 1, []]);
  });

  test(`a loop within the origin: ${MAX_REDIRECTS} redirects followed, then the redirect is the answer`, async () => {
    a.routes['GET /loop'] = redirect(302, '/loop');
    const err = await failed(http.request({ url: `${a.url}/loop` }));
    expect([(err as HttpOutcomeError).outcome.status, a.got.length]).toEqual([302, MAX_REDIRECTS + 1]);
  });
});

describe('bodies are read to a bound', () => {
  test('a 503 with a 1 MB body: the error keeps its status and the first 64 KiB', async () => {
    a.routes['GET /big'] = json(503, `{"error":"${'x'.repeat(1_000_000)}"}`);
    const err = await failed(http.request({ url: `${a.url}/big` }));
    const { status, body } = (err as HttpOutcomeError).outcome;
    expect([status, (body as string).length]).toEqual([503, MAX_ERROR_BODY_BYTES]);
  });

  test('a 2xx over maxBodyBytes, and a gzip bomb, are HttpBodyError too_large: decoded bytes count', async () => {
    a.routes['GET /big'] = json(200, `{"items":"${'x'.repeat(2_000)}"}`);
    a.routes['GET /bomb'] = (_q, res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end(BOMB);
    const big = await failed(http.request({ url: `${a.url}/big`, maxBodyBytes: 1_000 }));
    const bomb = await failed(http.request({ url: `${a.url}/bomb`, maxBodyBytes: 1_000_000 }));
    expect([big, bomb].map((e) => [HttpBodyError.is(e), (e as HttpBodyError).why, (e as HttpBodyError).limit])).toEqual(
      [
        [true, 'too_large', 1_000],
        [true, 'too_large', 1_000_000],
      ],
    );
  });

  test("a Content-Length over the body: a write's 2xx is HttpBodyError cut, a read's the network error", async () => {
    const overstated: Handler = (_q, res) => {
      res.writeHead(201, { 'content-type': 'application/json', 'content-length': '100' }).write('{"id":');
      setTimeout(() => res.socket?.destroy(), 20);
    };
    a.routes['POST /payments'] = overstated;
    a.routes['GET /payments'] = overstated;
    const write = await failed(http.request({ method: 'POST', url: `${a.url}/payments`, json: {} }));
    const read = await failed(http.request({ url: `${a.url}/payments` }));
    expect([HttpBodyError.is(write) && write.why, HttpBodyError.is(read), (read as Error).name]).toEqual([
      'cut',
      false,
      'TypeError',
    ]);
  });

  test.each([0, 1.5, -1, 2 ** 30 + 1, '10'])('maxBodyBytes %p → ToolHttpRequestError, nothing sent', async (max) => {
    const err = await failed(http.request({ url: `${a.url}/x`, maxBodyBytes: max as number }));
    expect([ToolHttpRequestError.is(err), (err as Error).message, a.got]).toEqual([
      true,
      'ctx.http.request: maxBodyBytes must be an integer from 1 to 1073741824 (bytes)',
      [],
    ]);
  });
});

test('an answer that echoes the credential or a secret header hands on [redacted], not the value', async () => {
  a.routes['POST /payments'] = json(400, JSON.stringify({ error: `bad key ${API_KEY} for Bearer ${TOKEN}` }));
  const err = await failed(http.request({ method: 'POST', url: `${a.url}/payments`, json: {}, headers }));
  expect((err as HttpOutcomeError).outcome.body).toEqual({ error: 'bad key [redacted] for Bearer [redacted]' });
});

test("evidence: a write's 2xx is writeAccepted, also when its body cannot be read; a read's or a 4xx is not", async () => {
  a.routes['GET /ok'] = json(200, '{}');
  a.routes['POST /refused'] = json(409, '{}');
  a.routes['POST /accepted'] = json(202, '{"status":"pending"}');
  const e = new HttpEvidence();
  const tracked = createToolHttp({
    idempotency: { carrier: 'none' },
    operationId: 'o',
    credential: undefined,
    signal: new AbortController().signal,
    evidence: e,
  });
  await tracked.request({ url: `${a.url}/ok` });
  await failed(tracked.request({ method: 'POST', url: `${a.url}/refused` }));
  const before = e.writeAccepted;
  await tracked.request({ method: 'POST', url: `${a.url}/accepted` });
  expect([before, e.writeAccepted]).toEqual([false, true]);
});
