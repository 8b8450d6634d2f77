/**
 * `@modelcontextprotocol/server-everything`, the MCP reference server, on the real dev server: over stdio, over
 * streamable HTTP, and over the old HTTP+SSE transport (reached by the fallback from one URL), its tools declared
 * by `mcpTools`; then, behind a proxy, the HTTP server's process replaced while a session is open. Failures are read from the
 * workflow's outcomes and from the history Temporal recorded (an activity's `lastFailure` is its earlier attempt's
 * ToolFailure).
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { AnyTool } from '../../activities/define-tool';
import { connectMcp, mcpTools, type McpConnection, type McpServerTarget } from '../../mcp';
import type { ToolFailure } from '../../recovery/failure';
import { everythingStdio, startEverythingHttp, type EverythingHttp } from '../fixtures/everything-server';
import { startTcpProxy, type TcpProxy } from '../fixtures/tcp-proxy';
import { testEnv } from '../setup/env';
import { eventTypes, failedOutcome, harness, okOutcome, type Harness } from './harness';

let env: TestWorkflowEnvironment;
let http: EverythingHttp;
let sse: EverythingHttp;

beforeAll(async () => {
  env = await testEnv();
  [http, sse] = await Promise.all([startEverythingHttp('streamableHttp'), startEverythingHttp('sse')]);
});
afterAll(async () => {
  await Promise.all([http?.close(), sse?.close()]);
  await env?.teardown();
});

/** Each ToolFailure Temporal recorded as an activity's previous attempt (`ActivityTaskStarted.lastFailure`). */
async function earlierAttempts(h: Harness, workflowId: string): Promise<ToolFailure[]> {
  return (await h.history(workflowId))
    .map((e) => e.activityTaskStartedEventAttributes?.lastFailure?.applicationFailureInfo?.details?.payloads?.[0])
    .filter((p) => p?.data)
    .map((p) => JSON.parse(Buffer.from(p!.data!).toString('utf8')) as ToolFailure);
}

const TOOLS = [
  ['echo', 'read', 'none'],
  ['get-annotated-message', 'read', 'none'],
  ['get-env', 'read', 'none'],
  ['get-resource-links', 'read', 'none'],
  ['get-resource-reference', 'read', 'none'],
  ['get-structured-content', 'read', 'none'],
  ['get-sum', 'read', 'none'],
  ['get-tiny-image', 'read', 'none'],
  ['gzip-file-as-resource', 'write', 'arguments'], // readOnlyHint false, idempotentHint true: a replay-safe write
  ['toggle-simulated-logging', 'write', 'none'],
  ['toggle-subscriber-updates', 'write', 'none'],
  ['trigger-long-running-operation', 'read', 'none'],
  ['simulate-research-query', 'write', 'none'],
];

describe.each([
  ['stdio', () => everythingStdio(), 'stdio'],
  ['streamable HTTP', () => ({ url: http.url }), 'streamable-http'],
  ['HTTP+SSE, by the fallback from a POST answered 404', () => ({ url: sse.url }), 'sse'],
] as [string, () => McpServerTarget, string][])('server-everything over %s', (_label, target, kind) => {
  let connection: McpConnection;
  let tools: AnyTool[];
  beforeAll(async () => {
    connection = await connectMcp(target());
    tools = await mcpTools(connection, { trustAnnotations: true });
  });
  afterAll(async () => {
    await connection?.close();
  });

  test('connects; 13 tools whose trusted annotations decide effect and replay safety; untrusted, all are writes', async () => {
    expect(connection.transport).toBe(kind);
    expect(connection.serverName).toBe('mcp-servers/everything');
    expect(tools.map((t) => [t.name, t.effect, t.idempotency.carrier])).toEqual(TOOLS);
    const untrusted = await mcpTools(connection);
    expect(new Set(untrusted.map((t) => `${t.effect}/${t.idempotency.carrier}`))).toEqual(new Set(['write/none']));
  });

  test('get-sum → ok; its error tool (resourceId 0) → isError "Invalid resourceId" → repair (an argument to change); a value outside its enum → repair, nothing sent', async () => {
    const h = await harness(env, tools);
    const r = await h.run(() =>
      h.runPlan({
        calls: [
          { tool: 'get-sum', args: { a: 2, b: 3 } },
          { tool: 'get-resource-reference', args: { resourceType: 'Text', resourceId: 0 } },
          { tool: 'get-resource-reference', args: { resourceType: 'video', resourceId: 1 } },
        ],
        stopOnTerminal: false,
      }),
    );
    expect(okOutcome(r.outcomes[0])).toMatchObject({
      value: { content: [{ type: 'text', text: 'The sum of 2 and 3 is 5.' }] },
      attempts: 1,
    });
    const rejected = failedOutcome(r.outcomes[1]);
    // The server's words say an argument was invalid (docs/DESIGN.md, "Facts, not libraries"): the model changes it.
    expect(rejected).toMatchObject({
      action: 'repair',
      attempts: 1,
      failure: { class: 'invalid_arguments', reason: 'schema', phase: 'dispatch', replaySafe: true },
    });
    expect([rejected.failure.publicMessage, rejected.failure.serverSaid]).toEqual([
      'get-resource-reference: the MCP server rejected the arguments.',
      'Invalid resourceId: 0. Must be a finite positive integer.',
    ]);
    expect(failedOutcome(r.outcomes[2])).toMatchObject({
      action: 'repair',
      failure: { class: 'invalid_arguments', reason: 'schema', phase: 'preflight' },
    });
  });
});

describe('server-everything over streamable HTTP behind a proxy: the process is replaced during a session', () => {
  // The client keeps one URL (the proxy's, as a load balancer's); the test swaps the process behind it, so no
  // number depends on how fast a process starts.
  let first: EverythingHttp;
  let second: EverythingHttp;
  let proxy: TcpProxy;
  let connection: McpConnection;
  beforeEach(async () => {
    [first, second] = await Promise.all([startEverythingHttp('streamableHttp'), startEverythingHttp('streamableHttp')]);
    proxy = await startTcpProxy(first.port);
    connection = await connectMcp({ url: `http://127.0.0.1:${proxy.port}/mcp` });
  });
  afterEach(async () => {
    await connection?.close();
    await proxy?.close();
    await Promise.all([first?.close(), second?.close()]);
  });

  test('killed while a read runs → transient/network, dispatch (maybe sent); the retry opens a new session on the new process: 2 attempts', async () => {
    const tools = await mcpTools(connection, { trustAnnotations: true, include: ['trigger-long-running-operation'] });
    const h = await harness(env, tools, { config: { backoff: { ...FIXED_BACKOFF, initialIntervalMs: 1_000 } } });
    const r = await h.run(async () => {
      const sent = proxy.sawClientSend('"name":"trigger-long-running-operation"');
      const id = await h.startPlan({
        calls: [{ tool: 'trigger-long-running-operation', args: { duration: 2, steps: 4 } }],
      });
      await sent; // the call is on its way: replace the process
      proxy.setTarget(second.port);
      await first.kill();
      return { ...(await env.client.workflow.getHandle(id).result()), workflowId: id };
    });
    expect(okOutcome(r.outcomes[0])).toMatchObject({
      value: { content: [{ type: 'text', text: 'Long running operation completed. Duration: 2 seconds, Steps: 4.' }] },
      attempts: 2,
      activities: 1,
    });
    expect(await earlierAttempts(h, r.workflowId)).toEqual([
      expect.objectContaining({ class: 'transient', reason: 'network', phase: 'dispatch', replaySafe: true }),
    ]);
    expect(connection.reconnects).toBe(1);
  });

  test('a write sent while the port refuses connections → transient, not sent, dispatch; the router retries it once the new process answers: 2 activities', async () => {
    const tools = await mcpTools(connection, { include: ['echo'] }); // untrusted: echo is a write
    const h = await harness(env, tools, { config: { backoff: FIXED_BACKOFF } });
    await first.kill();
    await proxy.down();
    const r = await h.run(async () => {
      const id = await h.startPlan({ calls: [{ tool: 'echo', args: { message: 'once' } }] });
      await until(async () => eventTypes(await h.history(id)).includes('ACTIVITY_TASK_FAILED')); // refused at once
      proxy.setTarget(second.port);
      await proxy.up();
      return env.client.workflow.getHandle(id).result();
    });
    expect(okOutcome(r.outcomes[0])).toMatchObject({
      value: { content: [{ type: 'text', text: 'Echo: once' }] },
      activities: 2,
    });
    expect(r.records[0]).toMatchObject({
      class: 'transient',
      reason: 'network',
      phase: 'dispatch',
      action: 'retry',
    });
    expect(connection.reconnects).toBe(1);
  });
});

/** A fixed 3 s backoff, no jitter: room for the test to act between two attempts. */
const FIXED_BACKOFF = { initialIntervalMs: 3_000, backoffCoefficient: 1, maximumIntervalMs: 3_000, jitterRatio: 0 };

/** Polls `check` every 100 ms until it holds (at most 30 s). */
async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (await check()) return;
    await new Promise((ok) => setTimeout(ok, 100));
  }
  throw new Error('until: the condition never held');
}
