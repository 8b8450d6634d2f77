// Keep worker logs at WARN in tests so failures are readable. Runtime.install throws if a Runtime already exists
// in this process (jest may reuse a worker process across test files); then the installed one stays.
import { DefaultLogger, Runtime } from '@temporalio/worker';

try {
  Runtime.install({ logger: new DefaultLogger('WARN') });
} catch {
  /* already installed in this process */
}
