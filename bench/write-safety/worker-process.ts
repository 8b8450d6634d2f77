/**
 * A RecoveryPlugin worker with the `pay` tool in its own OS process, for the cells that SIGKILL a worker or time its
 * shutdown (bench/write-safety/drivers.ts). Run with `node -r ./test/setup/swc-register.js bench/write-safety/worker-process.ts`.
 *
 * Environment: `TEMPORAL_ADDRESS`, `TASK_QUEUE`, `PAY_RECIPE` (JSON `PayRecipe`) and `WORKFLOW_BUNDLE` (the path of a
 * prebuilt bundle) are required; `SLOTS` sets `maxConcurrentActivityTaskExecutions`. Prints `worker ready` once it
 * polls. SIGTERM makes the SDK's Runtime call `Worker.shutdown()` (its default shutdown signals; grace time `SHUTDOWN_GRACE_MS`, 2 000 ms) and prints `worker stopped`
 * when `run()` has returned; the process then exits.
 */
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { RecoveryPlugin } from '../../plugin/recovery-plugin';
import { toolsOf, type PayRecipe } from './pay-tools';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`worker-process: ${name} is not set`);
  return value;
}

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('ERROR', (e) => process.stderr.write(`[worker] ${e.message}\n`)) });
  const taskQueue = required('TASK_QUEUE');
  const recipe = JSON.parse(required('PAY_RECIPE')) as PayRecipe;
  const connection = await NativeConnection.connect({ address: required('TEMPORAL_ADDRESS') });
  const slots = process.env.SLOTS ? Number(process.env.SLOTS) : undefined;
  const worker = await Worker.create({
    connection,
    taskQueue,
    plugins: [new RecoveryPlugin({ tools: toolsOf(recipe), config: { taskQueue } })],
    workflowBundle: { codePath: required('WORKFLOW_BUNDLE') },
    shutdownGraceTime: Number(required('SHUTDOWN_GRACE_MS')),
    stickyQueueScheduleToStartTimeout: '1s',
    ...(slots ? { maxConcurrentActivityTaskExecutions: slots } : {}),
  });
  const running = worker.run();
  process.stdout.write(`worker ready pid=${process.pid}\n`);
  await running;
  process.stdout.write('worker stopped\n');
  await connection.close();
  process.exit(0);
}

main().catch((err: unknown) => {
  process.stderr.write(`worker-process failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
