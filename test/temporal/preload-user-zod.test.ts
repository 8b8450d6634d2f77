/**
 * The plugin preloads the router's modules into a bundle of the user's own workflows (RECOVERY_PRELOAD_MODULES), and
 * Temporal deep-freezes what preloading loads. The router loads zod only on first use inside a run
 * (recovery/zod-runtime.ts), so the user's zod is never frozen: string formats in the user's workflow code
 * (`z.email()`, `z.ipv4()`, `z.ulid()`, `z.iso.date()`), which reset `lastIndex` on zod's RegExps, keep working, run
 * after run in one reused V8 context.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { startScriptedService, type ScriptedService } from '../../examples/scripted-service';
import { supportTools } from '../../examples/support-tools';
import { RecoveryPlugin, RECOVERY_PRELOAD_MODULES } from '../../plugin/recovery-plugin';
import { testEnv, uniqueTaskQueue } from '../setup/env';

const INVENTORY = { items: [{ id: 'a1' }] };
const VALID = { email: 'ana@example.com', ip: '10.0.0.1', id: '01ARZ3NDEKTSV4RRFFQ69G5FAV', since: '2026-12-01' };

let env: TestWorkflowEnvironment;
let service: ScriptedService;
beforeAll(async () => {
  env = await testEnv();
  service = await startScriptedService({ 'GET /inventory': [{ status: 200, body: INVENTORY }] });
});
afterAll(async () => {
  await service?.close();
  await env?.teardown();
});

test("a user's workflow with zod string formats runs beside the preloaded router, three runs in one context", async () => {
  const taskQueue = uniqueTaskQueue('user-zod');
  const plugin = new RecoveryPlugin({ tools: [supportTools(service.url).checkInventory], config: { taskQueue } });
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowsPath: require.resolve('./fixtures/user-zod-workflow'),
    plugins: [plugin],
  });
  expect(worker.options.bundlerOptions?.preloadModules).toEqual([
    ...RECOVERY_PRELOAD_MODULES,
    require.resolve('../../workflows/own-workflows'),
  ]);
  const contacts = [VALID, { ...VALID, email: 'ana', ip: '10.0.0.999', since: '2026-13-01' }, VALID];
  const results = await worker.runUntil(async () => {
    const out = [];
    for (const [i, contact] of contacts.entries()) {
      out.push(
        await env.client.workflow.execute('userZodAgent', {
          taskQueue,
          workflowId: `${taskQueue}-${i}`,
          args: [plugin.workflowDefaults(), contact],
        }),
      );
    }
    return out;
  });
  expect(results).toEqual([
    { contactIssues: [], ok: true, value: INVENTORY },
    { contactIssues: ['email', 'ip', 'since'], ok: true, value: INVENTORY },
    { contactIssues: [], ok: true, value: INVENTORY },
  ]);
  expect(service.hits('GET /inventory')).toBe(3);
});
