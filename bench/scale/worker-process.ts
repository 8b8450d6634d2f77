/**
 * One worker of the scale benchmark in its own process, so its CPU time and resident memory are its own
 * (bench/scale.ts forks it with `-r ts-node/register`). Environment:
 * - `TEMPORAL_ADDRESS`, `TASK_QUEUE`, `SERVICE_URL`, `WORKFLOW_BUNDLE` (a prebuilt bundle's code path);
 * - `ARM`: `bare` (the plain activity of bench/activities.ts and the planner activity, for bench/workflows.ts) or
 *   `plugin` (RecoveryPlugin with `check_inventory`); both with the same scripted planner, behind the planner
 *   activity of activities/planners/planner.ts (the plugin registers it itself).
 * IPC: on `{ type: 'report' }` it answers `{ type: 'report', cpuMs, peakRssMiB, meanRssMiB }` (since the last report:
 * CPU in ms; the highest and the mean of the RSS sampled every 100 ms, in MiB); on `{ type: 'stop' }` it shuts down.
 * It sends `{ type: 'ready' }` once it polls.
 */
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { createPlannerActivities } from '../../activities/planners/planner';
import { supportTools } from '../../examples/support-tools';
import { RecoveryPlugin } from '../../plugin/recovery-plugin';
import { createBaselineActivities } from '../activities';
import { rssSampler } from './rss-sampler';
import { scalePlanner } from './workloads';

/**
 * This process runs under ts-node, as the rest of the bench does, but it measures what a production worker (compiled
 * JavaScript) costs. ts-node installs `@cspotcode/source-map-support`, whose `Error.prepareStackTrace` decodes the
 * inline source map of any script a stack trace passes through and keeps it decoded: the first stack in the main
 * thread with a frame in the workflow bundle costs the bundle's whole map (the plugin's bundle carries a 2.7 MB map,
 * the bare one 1.1 MB; measured: +24 MiB of main-thread heap after GC with it, +9 MiB without). V8's own stack
 * format is restored for both arms, so the RSS column compares the workers, not their source maps.
 */
function withoutTsNodeStackMapping(): void {
  Reflect.deleteProperty(Error, 'prepareStackTrace');
}

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`scale worker: ${name} is not set`);
  return value;
}

async function main(): Promise<void> {
  withoutTsNodeStackMapping();
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const connection = await NativeConnection.connect({ address: env('TEMPORAL_ADDRESS') });
  const taskQueue = env('TASK_QUEUE');
  const serviceUrl = env('SERVICE_URL');
  const workflowBundle = { codePath: env('WORKFLOW_BUNDLE') };
  const planner = scalePlanner();
  const worker =
    env('ARM') === 'bare'
      ? await Worker.create({
          connection,
          taskQueue,
          workflowBundle,
          activities: { ...createBaselineActivities(serviceUrl), ...createPlannerActivities(planner) },
        })
      : await Worker.create({
          connection,
          taskQueue,
          workflowBundle,
          plugins: [
            new RecoveryPlugin({ tools: [supportTools(serviceUrl).checkInventory], planner, config: { taskQueue } }),
          ],
        });
  const rss = rssSampler();
  let cpuFrom = process.cpuUsage();
  process.on('message', (m: { type?: string }) => {
    if (m?.type === 'report') {
      const cpu = process.cpuUsage(cpuFrom);
      process.send?.({ type: 'report', cpuMs: (cpu.user + cpu.system) / 1000, ...rss.take() });
      cpuFrom = process.cpuUsage();
    }
    if (m?.type === 'stop') worker.shutdown();
  });
  const running = worker.run();
  process.send?.({ type: 'ready' });
  await running;
  rss.stop();
  await connection.close();
  process.exit(0);
}

// Runs only as the forked worker.
if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`scale worker failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
