/** The run's dev server is real: a workflow executes on it and its history holds the expected events. */
import { Worker } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { testEnv, uniqueTaskQueue } from '../setup/env';

let env: TestWorkflowEnvironment;
beforeAll(async () => {
  env = await testEnv();
});
afterAll(async () => {
  await env?.teardown();
});

test('dev server: a workflow runs and its history starts with WorkflowExecutionStarted', async () => {
  const taskQueue = uniqueTaskQueue('smoke');
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowsPath: require.resolve('./fixtures/smoke-workflow'),
  });
  const result = await worker.runUntil(
    env.client.workflow.execute('echo', { taskQueue, workflowId: taskQueue, args: ['hello'] }),
  );
  expect(result).toBe('echo: hello');
  const history = await env.client.workflow.getHandle(taskQueue).fetchHistory();
  expect(history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name).toBe('echo');
});
