/**
 * The demo's worker entry point: a Temporal worker with the RecoveryPlugin and the example tools.
 *
 *   npm run worker            # example tools against SUPPORT_SERVICE_URL (default http://127.0.0.1:8787)
 *
 * With `OPENAI_BASE_URL` set (and `OPENAI_API_KEY`, `OPENAI_MODEL`), the worker also runs the planner of
 * `agentWorkflow` on that OpenAI-compatible endpoint. With `RECOVERY_METRICS_PORT` set, it serves the recovery
 * metrics (Prometheus text) at `http://127.0.0.1:<port>/metrics`.
 *
 * In your own project, copy `createRecoveryWorker` with your tools (the README's quick start does the same with
 * `Worker.create`). Connection settings come from Temporal's environment configuration, else the embedded dev
 * server of temporal.config.json (config/connection.ts).
 */
import { NativeConnection, Worker } from '@temporalio/worker';
import { loadConfig } from './config/load';
import { resolveConnection } from './config/connection';
import { supportTools } from './examples/support-tools';
import { createOpenAIPlanner } from './activities/planners/openai';
import { RecoveryMetrics } from './plugin/metrics';
import { RecoveryPlugin, type RecoveryPluginOptions } from './plugin/recovery-plugin';

export interface RecoveryWorker {
  worker: Worker;
  plugin: RecoveryPlugin;
  connection: NativeConnection;
}

/** Creates (does not run) a worker on the plugin's task queue. @throws ConfigError, RecoveryPluginOptionsError. */
export async function createRecoveryWorker(
  options: RecoveryPluginOptions,
  connection?: NativeConnection,
  namespace?: string,
): Promise<RecoveryWorker> {
  const plugin = new RecoveryPlugin(options);
  const target = resolveConnection(plugin.config);
  const conn = connection ?? (await NativeConnection.connect(target.connectionOptions));
  const worker = await Worker.create({
    connection: conn,
    namespace: namespace ?? target.namespace,
    taskQueue: plugin.config.taskQueue,
    plugins: [plugin],
  });
  return { worker, plugin, connection: conn };
}

async function main(): Promise<void> {
  const baseUrl = process.env.SUPPORT_SERVICE_URL ?? 'http://127.0.0.1:8787';
  const telemetry = new RecoveryMetrics();
  const { worker, connection } = await createRecoveryWorker({
    tools: supportTools(baseUrl).all,
    config: loadConfig(),
    telemetry,
    ...(process.env.OPENAI_BASE_URL ? { planner: createOpenAIPlanner() } : {}),
  });
  const port = process.env.RECOVERY_METRICS_PORT;
  const metrics = port ? await telemetry.serve(Number(port)) : undefined;
  if (metrics) console.log(`recovery metrics: ${metrics.url}`);
  try {
    await worker.run();
  } finally {
    await metrics?.close();
    await connection.close();
  }
}

if (require.main === module) {
  main().catch((err) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
