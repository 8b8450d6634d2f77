/**
 * `ctx.http.request({ accept })` on a real loopback service: a listed status is an answer (returned), any other
 * non-2xx a failure (`HttpOutcomeError`); a malformed `accept` is refused before anything is sent.
 */
import { createToolHttp, HttpOutcomeError, ToolHttpRequestError } from '../../activities/http';
import { startScriptedService, type ScriptedService } from '../../examples/scripted-service';

let service: ScriptedService;
beforeAll(async () => {
  service = await startScriptedService({});
});
afterAll(async () => {
  await service.close();
});
beforeEach(() => {
  service.reset({
    'GET /payments/op-1': [{ status: 404, body: { error: 'not_found' } }],
    'GET /payments/op-2': [{ status: 503, body: { error: 'busy' } }],
  });
});

const http = createToolHttp({
  idempotency: { carrier: 'none' },
  operationId: 'op-1',
  credential: undefined,
  signal: new AbortController().signal,
});

test('tool http: accept [404] → the 404 is returned with its parsed body, not thrown', async () => {
  const res = await http.request({ url: `${service.url}/payments/op-1`, accept: [404] });
  expect([res.status, res.body]).toEqual([404, { error: 'not_found' }]);
  expect(service.hits('GET /payments/op-1')).toBe(1);
});

test('tool http: without accept, a 404 throws HttpOutcomeError with status and body', async () => {
  const err: unknown = await http.request({ url: `${service.url}/payments/op-1` }).catch((e: unknown) => e);
  expect(HttpOutcomeError.is(err)).toBe(true);
  expect((err as HttpOutcomeError).outcome).toMatchObject({ status: 404, body: { error: 'not_found' } });
});

test('tool http: accept [404] does not accept a 503: it still throws', async () => {
  const err: unknown = await http.request({ url: `${service.url}/payments/op-2`, accept: [404] }).catch((e) => e);
  expect([HttpOutcomeError.is(err), (err as HttpOutcomeError).outcome.status]).toEqual([true, 503]);
});

test.each([[[600]], [[99]], [[404.5]], [['404']], ['404'], [{ 0: 404 }]])(
  'tool http: accept %j → ToolHttpRequestError naming accept, nothing sent',
  async (accept) => {
    const req = { url: `${service.url}/payments/op-1`, accept: accept as number[] };
    const err: unknown = await http.request(req).catch((e: unknown) => e);
    expect([ToolHttpRequestError.is(err), (err as Error).message]).toEqual([
      true,
      'ctx.http.request: accept must be an array of HTTP status codes (integers from 100 to 599), e.g. [404]',
    ]);
    expect(service.received).toEqual([]);
  },
);
