/**
 * The traces example's OTLP/HTTP export (examples/traces/otel-setup.ts) against a loopback collector: the router's
 * spans leave as OTLP JSON (`POST /v1/traces`), with the service name, their attributes, status and events. No
 * Temporal server: the spans come from the trace sink's worker side, as a recovery's do.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTracing } from '../../activities/tracing/tracing';
import { startTracing } from '../../examples/traces/otel-setup';
import { emitGroup } from '../../plugin/trace-sinks';

type OtlpValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean };
type OtlpSpan = {
  name: string;
  attributes: { key: string; value: OtlpValue }[];
  status?: { code?: number };
  events?: { name: string }[];
};
type OtlpBody = {
  resourceSpans: {
    resource: { attributes: { key: string; value: OtlpValue }[] };
    scopeSpans: { scope: { name: string }; spans: OtlpSpan[] }[];
  }[];
};

let server: Server;
let url: string;
const received: { path: string | undefined; type: string | undefined; body: OtlpBody }[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ path: req.url, type: req.headers['content-type'], body: JSON.parse(body) as OtlpBody });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

test('a recovery’s spans reach the collector as OTLP JSON: names, attributes, ERROR status, the exception event', async () => {
  const example = startTracing({ serviceName: 'otlp-test', otlpUrl: `${url}/v1/traces` });
  const tracing = createTracing({ tracerProvider: example.tracerProvider })!;
  const t = Date.parse('2026-05-01T00:00:00Z');
  emitGroup(tracing, {
    spans: [
      {
        name: 'recover issue_refund',
        startMs: t,
        endMs: t + 2_000,
        attributes: { 'error.type': 'outcome_unknown', 'recovery_router.action': 'escalate' },
        error: { type: 'outcome_unknown', message: 'The refund may have been applied.' },
        parent: -1,
      },
      { name: 'reconcile issue_refund', startMs: t + 100, endMs: t + 1_900, attributes: {}, parent: 0 },
    ],
  });
  await example.flush();
  await example.shutdown();
  expect(received.map((r) => [r.path, r.type])).toEqual([['/v1/traces', 'application/json']]);
  const [resource] = received[0]!.body.resourceSpans;
  expect(resource!.resource.attributes).toContainEqual({ key: 'service.name', value: { stringValue: 'otlp-test' } });
  const spans = resource!.scopeSpans.flatMap((s) => s.spans);
  expect(spans.map((s) => [s.name, s.status?.code ?? 0, (s.events ?? []).map((e) => e.name)])).toEqual([
    ['recover issue_refund', 2, ['gen_ai.client.operation.exception']],
    ['reconcile issue_refund', 0, []],
  ]);
  expect(spans[0]!.attributes).toContainEqual({ key: 'error.type', value: { stringValue: 'outcome_unknown' } });
  expect(resource!.scopeSpans.map((s) => s.scope.name)).toEqual(['recovery-router']);
});
