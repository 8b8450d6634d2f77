/**
 * The shared circuit breaker under load, and what reaches workflow history: nothing secret.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { z } from 'zod';
import { defineTool } from '../../activities/define-tool';
import { startScriptedService, type ScriptedService } from '../../examples/scripted-service';
import type { ToolPlanResult } from '../../workflows/tool-plan';
import { testEnv, uniqueTaskQueue } from '../setup/env';
import { FAST_BACKOFF, harness } from './harness';

let env: TestWorkflowEnvironment;
let service: ScriptedService;
beforeAll(async () => {
  env = await testEnv();
  service = await startScriptedService({});
});
afterAll(async () => {
  await service?.close();
  await env?.teardown();
});

const statusTool = () =>
  defineTool({
    name: 'service_status',
    description: 'Status of the order service.',
    input: z.object({ region: z.string() }),
    output: z.object({ up: z.boolean() }),
    effect: 'read',
    downstream: 'orders',
    async execute(args, ctx) {
      return (await ctx.http.request({ url: `${service.url}/status?region=${args.region}` })).body as never;
    },
  });

test('200 concurrent workflows against a dead service: the downstream sees at most threshold + concurrency calls, every workflow ends routed', async () => {
  service.reset({ 'GET /status': [{ status: 503, body: { error: 'down' } }] });
  const threshold = 5;
  const concurrency = 10;
  const h = await harness(env, [statusTool()], {
    breaker: { threshold, halfOpenAfterMs: 60_000 },
    // The circuit stays open longer than this run waits for a Retry-After: circuit-open calls end at once.
    config: { backoff: { ...FAST_BACKOFF, maxRetryAfterMs: 5_000 } },
    maxConcurrentActivityTaskExecutions: concurrency,
  });
  const results = await h.run(async () => {
    const ids = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        h.startPlan({ calls: [{ tool: 'service_status', args: { region: `r${i % 3}` } }] }),
      ),
    );
    return Promise.all(ids.map((id) => env.client.workflow.getHandle(id).result() as Promise<ToolPlanResult>));
  });
  // Bound: the breaker opens after `threshold` consecutive faults; calls already in flight when it opens
  // (at most `concurrency` activity slots) still reach the service; half-open is 60 s away, so no trial call.
  expect(service.hits('GET /status')).toBeLessThanOrEqual(threshold + concurrency);
  expect(service.hits('GET /status')).toBeGreaterThanOrEqual(threshold);
  expect(results).toHaveLength(200);
  for (const r of results) {
    expect(r.outcomes[0]).toMatchObject({ ok: false, failure: { class: 'transient' } });
  }
  const circuitOpen = results.filter((r) => !r.outcomes[0]!.ok && r.outcomes[0]!.failure.reason === 'circuit_open');
  expect(circuitOpen.length).toBeGreaterThanOrEqual(200 - threshold - concurrency);
  expect(h.plugin.breakers.state('orders')).toBe('open');
});

test('a real history holds no planted secret: no token, header, host, path or stack reaches failures or feedback', async () => {
  const secrets = {
    token: 'sk-live-4242424242424242424242424242',
    jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZG1pbiJ9.c2lnbmF0dXJlLXNlY3JldA',
    host: 'db-primary.internal.corp',
    path: '/srv/app/secrets/prod.env',
  };
  service.reset({
    'GET /leaky': [
      {
        status: 409,
        headers: { 'set-cookie': `session=${secrets.token}` },
        body: {
          code: 'conflict',
          message: `conflict at ${secrets.host} reading ${secrets.path} with Bearer ${secrets.jwt}`,
          apiKey: secrets.token,
        },
      },
    ],
  });
  const leaky = defineTool({
    name: 'leaky_read',
    description: 'Reads something through a leaky service.',
    input: z.object({ id: z.string() }),
    output: z.object({ ok: z.boolean() }),
    effect: 'read',
    async execute(_args, ctx) {
      return (
        await ctx.http.request({ url: `${service.url}/leaky`, headers: { authorization: `Bearer ${secrets.jwt}` } })
      ).body as never;
    },
  });
  const thrower = defineTool({
    name: 'throwing_read',
    description: 'A tool with a bug.',
    input: z.object({ id: z.string() }),
    output: z.object({ ok: z.boolean() }),
    effect: 'read',
    async execute() {
      throw new Error(`ENOENT: no such file ${secrets.path} (token=${secrets.token}) at ${secrets.host}`);
    },
  });
  const h = await harness(env, [leaky, thrower]);
  const workflowId = uniqueTaskQueue('secrets');
  await h.run(() =>
    h.runPlan(
      {
        calls: [
          { tool: 'leaky_read', args: { id: '1' } },
          { tool: 'throwing_read', args: { id: '1' } },
        ],
        stopOnTerminal: false,
      },
      workflowId,
    ),
  );
  // Every payload decoded to text, so a secret inside a JSON payload is visible to the check.
  const decoded = JSON.stringify(await h.history(workflowId), (_k, v: unknown) =>
    ArrayBuffer.isView(v) ? Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('utf8') : v,
  );
  expect(decoded).toContain('conflict'); // the routed failure is in the history...
  for (const secret of Object.values(secrets)) expect(decoded).not.toContain(secret); // ...the secrets are not
  expect(decoded).not.toMatch(/\n\s+at .+:\d+:\d+/); // no stack frame
});
