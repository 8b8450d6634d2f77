/**
 * gRPC status codes from an in-process @grpc/grpc-js server (a generic service, JSON messages), read by the
 * grpc-js client and routed by the real `invokeTool` activity. RetryInfo and BadRequest travel as a binary
 * `google.rpc.Status` in `grpc-status-details-bin`, encoded here by hand (protobuf wire format).
 */
import * as grpc from '@grpc/grpc-js';
import { z } from 'zod';
import { defineTool } from '../../activities/define-tool';
import { expectClean, invoke, summary } from './invoke';

interface Ask {
  code?: number;
  details?: string;
  sleepMs?: number;
  pushbackMs?: string;
  retryDelay?: { seconds: number; nanos: number };
  violation?: { field: string; description: string };
}
const json = {
  serialize: (v: unknown) => Buffer.from(JSON.stringify(v)),
  deserialize: (b: Buffer) => JSON.parse(b.toString()) as Ask,
};
const service: grpc.ServiceDefinition = {
  call: {
    path: '/rr.Test/Call',
    requestStream: false,
    responseStream: false,
    requestSerialize: json.serialize,
    requestDeserialize: json.deserialize,
    responseSerialize: json.serialize,
    responseDeserialize: json.deserialize,
  },
};

// protobuf wire format: tag = field << 3 | wire type; length-delimited = 2, varint = 0.
const varint = (n: number): number[] => (n < 128 ? [n] : [n % 128 | 128, ...varint(Math.floor(n / 128))]);
const field = (no: number, bytes: Uint8Array | number[]): number[] => [
  ...varint((no << 3) | 2),
  ...varint(bytes.length),
  ...bytes,
];
const vfield = (no: number, n: number): number[] => [...varint(no << 3), ...varint(n)];
const str = (s: string) => [...Buffer.from(s)];
const any = (url: string, value: number[]) => field(3, [...field(1, str(url)), ...field(2, value)]);
function statusDetails(ask: Ask): Buffer {
  const parts: number[] = [...vfield(1, ask.code ?? 2)];
  if (ask.retryDelay) {
    const duration = [...vfield(1, ask.retryDelay.seconds), ...vfield(2, ask.retryDelay.nanos)];
    parts.push(...any('type.googleapis.com/google.rpc.RetryInfo', field(1, duration)));
  }
  if (ask.violation) {
    const v = [...field(1, str(ask.violation.field)), ...field(2, str(ask.violation.description))];
    parts.push(...any('type.googleapis.com/google.rpc.BadRequest', field(1, v)));
  }
  return Buffer.from(parts);
}

let server: grpc.Server;
let port: number;
let client: grpc.Client;
beforeAll(async () => {
  server = new grpc.Server();
  server.addService(service, {
    call: (call: grpc.ServerUnaryCall<Ask, Ask>, cb: grpc.sendUnaryData<Ask>) => {
      const ask = call.request;
      setTimeout(() => {
        const metadata = new grpc.Metadata();
        if (ask.pushbackMs) metadata.set('grpc-retry-pushback-ms', ask.pushbackMs);
        if (ask.retryDelay || ask.violation) metadata.set('grpc-status-details-bin', statusDetails(ask));
        cb({ code: ask.code ?? 0, details: ask.details ?? 'refused', metadata });
      }, ask.sleepMs ?? 0);
    },
  });
  port = await new Promise<number>((res, rej) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) => (e ? rej(e) : res(p))),
  );
  const Ctor = grpc.makeGenericClientConstructor(service, 'Test');
  client = new Ctor(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
});
afterAll(() => {
  client.close();
  server.forceShutdown();
});

function callTool(effect: 'read' | 'write', ask: Ask, target?: grpc.Client, deadlineMs = 2_000) {
  return defineTool({
    name: `grpc_${effect}`,
    description: 'Calls the gRPC service.',
    input: z.object({}),
    output: z.unknown(),
    effect,
    execute: () =>
      new Promise((resolve, reject) =>
        (target ?? client).makeUnaryRequest(
          '/rr.Test/Call',
          json.serialize,
          json.deserialize,
          ask,
          { deadline: Date.now() + deadlineMs },
          (e, v) => (e ? reject(e) : resolve(v)),
        ),
      ),
  });
}

test.each([
  [
    3,
    'INVALID_ARGUMENT',
    'write',
    { class: 'invalid_arguments', reason: 'schema', action: 'repair', phase: 'dispatch' },
  ],
  [5, 'NOT_FOUND', 'read', { class: 'semantic_rejection', reason: 'not_found', action: 'replan', phase: 'dispatch' }],
  [
    6,
    'ALREADY_EXISTS',
    'write',
    { class: 'semantic_rejection', reason: 'conflict', action: 'replan', phase: 'dispatch' },
  ],
  [7, 'PERMISSION_DENIED', 'write', { class: 'authorization', reason: 'forbidden', action: 'stop', phase: 'dispatch' }],
  [
    9,
    'FAILED_PRECONDITION',
    'write',
    { class: 'semantic_rejection', reason: 'precondition_failed', action: 'replan', phase: 'dispatch' },
  ],
  [10, 'ABORTED', 'write', { class: 'transient', reason: 'aborted', action: 'retry', phase: 'dispatch' }],
  [
    11,
    'OUT_OF_RANGE',
    'read',
    { class: 'semantic_rejection', reason: 'precondition_failed', action: 'replan', phase: 'dispatch' },
  ],
  [
    12,
    'UNIMPLEMENTED',
    'read',
    { class: 'unrecoverable', reason: 'unspecified', action: 'escalate', phase: 'dispatch' },
  ],
  [
    13,
    'INTERNAL',
    'write',
    { class: 'outcome_unknown', reason: 'unavailable', action: 'reconcile', phase: 'commit_unknown' },
  ],
  [13, 'INTERNAL', 'read', { class: 'transient', reason: 'unavailable', action: 'retry', phase: 'dispatch' }],
  [
    14,
    'UNAVAILABLE (from the server)',
    'write',
    { class: 'outcome_unknown', reason: 'network', action: 'reconcile', phase: 'commit_unknown' },
  ],
  [15, 'DATA_LOSS', 'read', { class: 'unrecoverable', reason: 'unspecified', action: 'escalate', phase: 'dispatch' }],
  [
    16,
    'UNAUTHENTICATED',
    'read',
    { class: 'authentication', reason: 'credential_missing', action: 'reauth', phase: 'dispatch' },
  ],
] as const)('status %i %s on a %s → %o', async (code, name, effect, expected) => {
  const r = await invoke(
    callTool(effect, { code, details: `at 127.0.0.1:${port} the call was refused` }),
    {},
    { label: ['@grpc/grpc-js', `${code} ${name} (${effect})`] },
  );
  expect(summary(r)).toEqual({ ...expected, retryAfterMs: undefined });
  expectClean(r.failure.publicMessage, [port]);
});

test('INVALID_ARGUMENT with a google.rpc.BadRequest field violation → a field issue', async () => {
  const r = await invoke(
    callTool('write', { code: 3, violation: { field: 'order.amount', description: 'must be positive' } }),
    {},
  );
  expect(r.failure.issues).toEqual([
    {
      path: ['order', 'amount'],
      expected: 'a value the server accepts',
      received: 'not reported',
      suggestion: 'fix order.amount and call again',
      serverSaid: 'must be positive',
    },
  ]);
});

test('RESOURCE_EXHAUSTED with grpc-retry-pushback-ms → transient/rate_limited → retry after 1500 ms', async () => {
  const r = await invoke(
    callTool('read', { code: 8, pushbackMs: '1500' }),
    {},
    { label: ['@grpc/grpc-js', '8 RESOURCE_EXHAUSTED (pushback)'] },
  );
  expect(summary(r)).toEqual({
    class: 'transient',
    reason: 'rate_limited',
    action: 'retry',
    retryAfterMs: 1500,
    phase: 'dispatch',
  });
});

test('RESOURCE_EXHAUSTED with a google.rpc.RetryInfo of 2.25 s → retry after 2250 ms', async () => {
  const r = await invoke(callTool('write', { code: 8, retryDelay: { seconds: 2, nanos: 250_000_000 } }), {});
  expect(summary(r)).toEqual({
    class: 'transient',
    reason: 'rate_limited',
    action: 'retry',
    retryAfterMs: 2250,
    phase: 'dispatch',
  });
});

test('DEADLINE_EXCEEDED: a write may have completed → reconcile; a read → retry', async () => {
  const w = await invoke(
    callTool('write', { code: 0, sleepMs: 500 }, undefined, 100),
    {},
    { label: ['@grpc/grpc-js', '4 DEADLINE_EXCEEDED (write)'] },
  );
  expect(summary(w)).toEqual({
    class: 'outcome_unknown',
    reason: 'timeout',
    action: 'reconcile',
    retryAfterMs: undefined,
    phase: 'commit_unknown',
  });
  const r = await invoke(callTool('read', { code: 0, sleepMs: 500 }, undefined, 100), {});
  expect(summary(r)).toEqual({
    class: 'transient',
    reason: 'timeout',
    action: 'retry',
    retryAfterMs: undefined,
    phase: 'dispatch',
  });
});

test('UNAVAILABLE because no connection could be established → not sent → retry, even for a write', async () => {
  const probe = new grpc.Server();
  const closedPort = await new Promise<number>((res, rej) =>
    probe.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) => (e ? rej(e) : res(p))),
  );
  probe.forceShutdown();
  const Ctor = grpc.makeGenericClientConstructor(service, 'Test');
  const nowhere = new Ctor(`127.0.0.1:${closedPort}`, grpc.credentials.createInsecure());
  try {
    const r = await invoke(
      callTool('write', {}, nowhere),
      {},
      { label: ['@grpc/grpc-js', '14 UNAVAILABLE (no connection)'] },
    );
    expect(summary(r)).toEqual({
      class: 'transient',
      reason: 'network',
      action: 'retry',
      retryAfterMs: undefined,
      phase: 'dispatch',
    });
    expectClean(r.failure.publicMessage, [closedPort]);
  } finally {
    nowhere.close();
  }
});
