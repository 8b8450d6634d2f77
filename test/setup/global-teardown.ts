import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { removeSharedBundle } from './shared-bundle';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __temporalEnv?: TestWorkflowEnvironment }).__temporalEnv?.teardown();
  removeSharedBundle();
}
