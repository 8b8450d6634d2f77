/**
 * Replaying recorded histories against the current workflow code, so a non-deterministic change fails a test
 * instead of a production workflow (Temporal docs: "Replay testing", `Worker.runReplayHistories`).
 *
 *   const results = await replayHistoryFiles(['test/histories/checkout.json']);
 *   const failed = results.filter((r) => r.error);
 *
 * Histories are JSON files in the form `temporal workflow show --output json` and `historyToJSON` write.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Client } from '@temporalio/client';
import type { ReplayWorkerOptions } from '@temporalio/worker';
import { historyFromJson, historyToJson } from './history-json';
import { RECOVERY_WORKFLOWS_PATH } from './recovery-plugin';
import { NO_TELEMETRY } from './telemetry';
import { traceSinks } from './trace-sinks';

/** The replay of one history: its workflow id, and the error when it does not replay. */
export interface ReplayOutcome {
  workflowId: string;
  /** Set when the history does not replay: a `DeterminismViolationError` or another workflow task failure. */
  error?: Error;
}

/**
 * Replays each file; one outcome per file, in order. The workflow id is the file name without `.json`.
 * @param options replay worker options. @default { workflowsPath: the plugin's workflows }; the router's telemetry
 *   and trace sinks are always registered (as no-ops, before `options.sinks`)
 * @throws Error when a file cannot be read or is not a history (its path is in the message).
 */
export async function replayHistoryFiles(
  paths: readonly string[],
  options?: Partial<ReplayWorkerOptions>,
): Promise<ReplayOutcome[]> {
  const histories = paths.map((path) => {
    try {
      return { workflowId: basename(path, '.json'), history: historyFromJson(JSON.parse(readFileSync(path, 'utf8'))) };
    } catch (err) {
      throw new Error(`${path}: not a readable JSON history (${(err as Error).message})`);
    }
  });
  return replay(histories, options);
}

/**
 * Fetches each workflow's history from a server and replays it against the current workflow code: the check to run
 * before deploying a change to workflows that are still running (Temporal docs, "Replay testing"). One outcome per
 * id, in order; the latest run of each (after continue-as-new, the run that continued).
 * @param options as `replayHistoryFiles`.
 * @throws the client's error when a workflow does not exist or the server cannot be reached.
 */
export async function replayWorkflowsFromServer(
  client: Client,
  workflowIds: readonly string[],
  options?: Partial<ReplayWorkerOptions>,
): Promise<ReplayOutcome[]> {
  const histories = [];
  for (const workflowId of workflowIds) {
    histories.push({ workflowId, history: await client.workflow.getHandle(workflowId).fetchHistory() });
  }
  return replay(histories, options);
}

async function replay(
  histories: { workflowId: string; history: unknown }[],
  options?: Partial<ReplayWorkerOptions>,
): Promise<ReplayOutcome[]> {
  const outcomes: ReplayOutcome[] = [];
  const workerOptions = {
    workflowsPath: RECOVERY_WORKFLOWS_PATH,
    ...options,
    sinks: { ...NO_TELEMETRY.sinks(), ...traceSinks(undefined), ...options?.sinks },
  } as ReplayWorkerOptions;
  // Loaded here, not at the top: a client-only process that imports the package never loads the worker (webpack,
  // the native bridge).
  const { Worker } = await import('@temporalio/worker');
  for await (const result of Worker.runReplayHistories(workerOptions, histories as never)) {
    outcomes.push(
      result.error ? { workflowId: result.workflowId, error: result.error } : { workflowId: result.workflowId },
    );
  }
  return outcomes;
}

/** The history of a workflow on a server, as the JSON text `replayHistoryFiles` reads. */
export async function fetchHistoryJSON(client: Client, workflowId: string, runId?: string): Promise<string> {
  return historyToJson(await client.workflow.getHandle(workflowId, runId).fetchHistory());
}
