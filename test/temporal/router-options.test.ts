/**
 * `createToolRouter` in a user's workflow checks the options it is given (workflows/router-options.ts): malformed
 * ones fail the run with a non-retryable `invalid_input` naming the field, on its first workflow task, instead of a
 * workflow task that fails on every attempt (a TypeError, a RecoveryInputError) or options taken as they come (a
 * scope list given as a string).
 */
import { WorkflowFailedError } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { startScriptedService, type ScriptedService } from '../../examples/scripted-service';
import { supportTools } from '../../examples/support-tools';
import { RecoveryPlugin } from '../../plugin/recovery-plugin';
import { testEnv, uniqueTaskQueue } from '../setup/env';

let env: TestWorkflowEnvironment;
let service: ScriptedService;
beforeAll(async () => {
  env = await testEnv();
  service = await startScriptedService({ 'GET /inventory': [{ status: 200, body: { items: [{ id: 'a1' }] } }] });
});
afterAll(async () => {
  await service?.close();
  await env?.teardown();
});

test('bad options fail the run (invalid_input, naming the field); the plugin’s defaults, no argument or no catalog (the worker’s) run the call', async () => {
  const taskQueue = uniqueTaskQueue('router-options');
  const plugin = new RecoveryPlugin({ tools: [supportTools(service.url).checkInventory], config: { taskQueue } });
  const defaults = plugin.workflowDefaults();
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowsPath: require.resolve('./fixtures/router-options-workflow'),
    plugins: [plugin],
  });
  const cases: [string, unknown[], string][] = [
    ['options that are a string', ['billing'], 'createToolRouter options: must be an object'],
    ['a catalog of numbers', [{ ...defaults, catalog: [1, 2] }], 'createToolRouter options.catalog.0: '],
    ['scopes as a string', [{ ...defaults, grantedScopes: 'billing' }], 'createToolRouter options.grantedScopes: '],
    [
      'a negative budget',
      [{ ...defaults, budgets: { perCallRetries: -1 } }],
      'createToolRouter options.budgets.perCallRetries: ',
    ],
    [
      'a restore that is not a router state',
      [{ ...defaults, restore: { records: 5 } }],
      'createToolRouter options.restore.',
    ],
  ];
  const { failures, ok } = await worker.runUntil(async () => {
    const failures: [string, string | undefined, string | undefined, boolean | undefined][] = [];
    for (const [name, args] of cases) {
      const run = env.client.workflow.execute('routerFromInput', {
        taskQueue,
        workflowId: uniqueTaskQueue('router-options-run'),
        args,
        workflowTaskTimeout: '10s',
      });
      const err = await run.then(
        () => undefined,
        (e: unknown) => e,
      );
      const cause =
        err instanceof WorkflowFailedError
          ? (err.cause as { type?: string; message?: string; nonRetryable?: boolean })
          : undefined;
      failures.push([name, cause?.type, cause?.message, cause?.nonRetryable]);
    }
    // The plugin's defaults in the input; no argument and no catalog: the worker's (docs/workflows.md).
    const ok = [];
    for (const args of [[defaults], [], [{ ...defaults, catalog: undefined }]]) {
      ok.push(
        await env.client.workflow.execute('routerFromInput', {
          taskQueue,
          workflowId: uniqueTaskQueue('router-options-ok'),
          args,
        }),
      );
    }
    return { failures, ok };
  });
  failures.forEach(([name, type, message, nonRetryable], i) => {
    expect([name, type, nonRetryable]).toEqual([cases[i]![0], 'invalid_input', true]);
    expect(message?.startsWith(cases[i]![2])).toBe(true);
  });
  expect(ok).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
});
