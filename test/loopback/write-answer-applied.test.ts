/**
 * What the tool activity (`invokeTool` under `MockActivityEnvironment`, on a loopback origin) makes of a write's
 * answer (issue 35): a 2xx applied is applied — an unusable 2xx ends `ok` with the record the tool's lookup fetches,
 * or the marker `{ omitted, applied, why, note }` — while a read's unusable 2xx stays `invalid_result` → reject; a
 * redirect answer to a write is `outcome_unknown` → reconcile (one POST, the sign-in page never asked); an unknown
 * outcome after the receiver accepted the write (202) is `accepted`.
 */
import { gzipSync } from 'node:zlib';
import { type ApplicationFailure } from '@temporalio/common';
import { activityEnv } from '../fixtures/activity-env';
import { z } from 'zod';
import { defineTool, type AnyTool, type LookupResult } from '../../activities/define-tool';
import { createToolActivities, type ToolInvocationResult } from '../../activities/invoke-tool';
import { DEFAULT_BACKOFF_POLICY } from '../../recovery/backoff';
import type { ToolFailure } from '../../recovery/failure';
import { routeFor } from '../../recovery/routes';
import { closeOrigins, json, origin, redirect, type Handler, type Origin } from '../fixtures/origins';

const silent = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };
const Payment = z.object({ paymentId: z.string(), amountCents: z.number() });
const RECORD = { paymentId: 'pay_1', amountCents: 5 };
/** 20 MB of zeros, gzip-compressed (about 20 KB): more than the 8 MiB a body is read to. */
const BOMB = gzipSync(Buffer.alloc(20_000_000));

let a: Origin;
beforeAll(async () => {
  a = await origin('127.0.0.1');
});
afterAll(() => closeOrigins([a]));
beforeEach(() => {
  a.got = [];
  a.routes = { 'GET /payments/by-key/op-1': json(200, JSON.stringify(RECORD)) };
});

/** `pay` (a write, or a read when `effect` says so) POSTs through ctx.http; `then` runs after a 2xx. */
function payTool(o: { effect?: 'read' | 'write'; lookup?: boolean; then?: (body: unknown) => unknown } = {}): AnyTool {
  return defineTool({
    name: 'pay',
    description: 'Captures a payment.',
    input: z.object({}),
    output: Payment,
    effect: o.effect ?? 'write',
    idempotency: { carrier: 'header', name: 'Idempotency-Key', deduplicates: false },
    async execute(_args, ctx) {
      const res = await ctx.http.request({ method: 'POST', url: `${a.url}/payments`, json: { amountCents: 5 } });
      return (o.then ? o.then(res.body) : res.body) as z.input<typeof Payment>;
    },
    ...(o.lookup === false
      ? {}
      : {
          async lookup(op: string, ctx: Parameters<NonNullable<AnyTool['lookup']>>[1]) {
            const res = await ctx.http.request({ url: `${a.url}/payments/by-key/${op}`, accept: [404] });
            return (
              res.status === 404 ? { state: 'not_applied' } : { state: 'applied', result: res.body }
            ) as LookupResult<z.output<typeof Payment>>;
          },
        }),
  });
}

/** Runs one call: its value, or its failure and route. */
async function call(tool: AnyTool) {
  const { invokeTool } = createToolActivities({ tools: [tool], backoff: DEFAULT_BACKOFF_POLICY });
  const env = activityEnv({ activityId: 'act-1' }, { logger: silent });
  const out = await env.run(invokeTool, { tool: 'pay', args: {}, callId: 'call-1', operationId: 'op-1' }).then(
    (r) => ({ ok: true as const, value: (r as ToolInvocationResult).value }),
    (e: unknown) => {
      const f = (e as ApplicationFailure).details?.[0] as ToolFailure;
      return { ok: false as const, class: f.class, reason: f.reason, status: f.status, action: routeFor(f).action };
    },
  );
  return { ...out, got: a.got };
}

const WITH_LOOKUP = ['POST /payments [idempotency-key, body]', 'GET /payments/by-key/op-1 [idempotency-key]'];
const POST_ONLY = ['POST /payments [idempotency-key, body]'];

describe('a committed write with an unusable 2xx is applied', () => {
  test.each([
    ['truncated JSON', json(201, '{"paymentId":"pay_1","amou')],
    ['corrupt JSON', json(201, "{'paymentId':'pay_1'}")],
    ['JSON labelled text/html', json(201, JSON.stringify(RECORD), { 'content-type': 'text/html' })],
    ['a 204', (_q, res) => res.writeHead(204).end()],
    ['a 201 with an empty body', json(201, '')],
    ['a 201 with a Location and no body', (_q, res) => res.writeHead(201, { location: '/payments/pay_1' }).end()],
    ['a gzip bomb', (_q, res) => res.writeHead(201, { 'content-encoding': 'gzip' }).end(BOMB)],
  ] as [string, Handler][])('%s, with a lookup → ok with the record the lookup fetches', async (_what, answer) => {
    a.routes['POST /payments'] = answer;
    expect(await call(payTool())).toEqual({ ok: true, value: RECORD, got: WITH_LOOKUP });
  });

  test.each([
    ['truncated JSON', json(201, '{"paymentId":"pay_1","amou'), "its answer does not match the tool's output schema"],
    ['a 204', (_q, res) => res.writeHead(204).end(), 'its answer was empty where the output schema expects content'],
    [
      'a gzip bomb',
      (_q, res) => res.writeHead(201, { 'content-encoding': 'gzip' }).end(BOMB),
      'its answer is larger than a body is read to',
    ],
  ] as [string, Handler, string][])(
    '%s, without a lookup → ok with the applied marker and why',
    async (_what, answer, why) => {
      a.routes['POST /payments'] = answer;
      expect(await call(payTool({ lookup: false }))).toEqual({
        ok: true,
        value: {
          omitted: true,
          why: `the write was applied, but ${why}`,
          applied: true,
          note: 'The write was applied; only its result could not be carried back. Do not repeat it.',
        },
        got: POST_ONLY,
      });
    },
  );

  test('a lookup that does not find it yet (a lagging replica) leaves the marker', async () => {
    a.routes['POST /payments'] = json(201, '');
    a.routes['GET /payments/by-key/op-1'] = json(404, '{}');
    const out = await call(payTool());
    expect([out.ok, out.ok && (out.value as { applied?: boolean }).applied, out.got]).toEqual([
      true,
      true,
      WITH_LOOKUP,
    ]);
  });

  test('a JSON SyntaxError the tool throws after the 2xx is applied too', async () => {
    a.routes['POST /payments'] = json(201, '<html>');
    const out = await call(payTool({ then: (body) => JSON.parse(body as string) }));
    expect(out).toEqual({ ok: true, value: RECORD, got: WITH_LOOKUP });
  });
});

test("a read's unusable 2xx stays invalid_result → reject", async () => {
  a.routes['POST /payments'] = json(200, '{"paymentId":"pay_1","amou');
  expect(await call(payTool({ effect: 'read', lookup: false }))).toEqual({
    ok: false,
    class: 'invalid_result',
    reason: 'schema_violation',
    status: undefined,
    action: 'reject',
    got: POST_ONLY,
  });
});

test.each([
  [302, '/login'],
  [303, '/receipts/pay_1'],
  [307, '/payments'],
  [308, 'http://127.0.0.2:1/payments'],
])(
  'POST answered %i → %s: outcome_unknown/redirected → reconcile; one POST, the target never asked',
  async (status, to) => {
    a.routes['POST /payments'] = redirect(status, to);
    a.routes['GET /login'] = json(200, JSON.stringify(RECORD));
    expect(await call(payTool())).toEqual({
      ok: false,
      class: 'outcome_unknown',
      reason: 'redirected',
      status,
      action: 'reconcile',
      got: POST_ONLY,
    });
  },
);

test('202 Accepted, then the tool throws while polling: outcome_unknown/accepted → reconcile', async () => {
  a.routes['POST /payments'] = json(202, '{"status":"pending"}');
  const out = await call(
    payTool({
      then: () => {
        throw new Error('the payment failed');
      },
    }),
  );
  expect(out).toEqual({
    ok: false,
    class: 'outcome_unknown',
    reason: 'accepted',
    status: undefined,
    action: 'reconcile',
    got: POST_ONLY,
  });
});

test('a write whose answer the router never saw (its own fetch, then res.json() throws) is outcome_unknown', async () => {
  const tool = defineTool({
    name: 'pay',
    description: 'Captures a payment.',
    input: z.object({}),
    output: Payment,
    effect: 'write',
    async execute() {
      return (await (await fetch(`${a.url}/html`, { method: 'POST' })).json()) as z.input<typeof Payment>;
    },
  });
  a.routes['POST /html'] = (_q, res) => res.writeHead(500, { 'content-type': 'text/html' }).end('<p>error</p>');
  expect(await call(tool)).toEqual({
    ok: false,
    class: 'outcome_unknown',
    reason: 'unrecognized',
    status: undefined,
    action: 'reconcile',
    got: ['POST /html []'],
  });
});
