// Keep worker logs at ERROR in tests so failures are readable. Runtime.install throws if a Runtime already exists
// in this process (jest may reuse a worker process across test files); then the installed one stays.
import { DefaultLogger, Runtime } from '@temporalio/worker';

try {
  Runtime.install({ logger: new DefaultLogger((process.env.RR_TEST_LOG_LEVEL as 'ERROR' | undefined) ?? 'ERROR') });
} catch {
  /* already installed in this process */
}
