/** Workflows that report what `workflowInfo()` holds, for notes/lifecycle-probes/facts.ts. */
import { ApplicationFailure, continueAsNew, proxyActivities, sleep, upsertMemo, workflowInfo } from '@temporalio/workflow';

const { report } = proxyActivities<{ report(tag: string, facts: object): Promise<void> }>({
  startToCloseTimeout: '10s',
});

function facts() {
  const i = workflowInfo();
  return {
    workflowId: i.workflowId,
    runId: i.runId,
    originalExecutionRunId: i.originalExecutionRunId,
    firstExecutionRunId: i.firstExecutionRunId,
    continuedFromExecutionRunId: i.continuedFromExecutionRunId ?? null,
    attempt: i.attempt,
    cronSchedule: i.cronSchedule ?? null,
    startTime: i.startTime.toISOString(),
    runStartTime: i.runStartTime.toISOString(),
    hasLastResult: i.lastResult !== undefined,
    hasLastFailure: i.lastFailure !== undefined,
    executionExpirationTime: i.executionExpirationTime?.toISOString() ?? null,
    searchAttributes: i.searchAttributes,
    memo: i.memo ?? null,
  };
}

/** Reports, then: fails when `failUntilAttempt` > attempt; continues as new `can` times; sleeps `sleepMs`. */
export async function probe(tag: string, o: { failUntilAttempt?: number; can?: number; sleepMs?: number; memo?: boolean } = {}) {
  await report(tag, facts());
  if (o.memo && workflowInfo().attempt === 1) upsertMemo({ intent: workflowInfo().runId });
  if (o.sleepMs) await sleep(o.sleepMs);
  if ((o.failUntilAttempt ?? 0) > workflowInfo().attempt) throw ApplicationFailure.retryable('fail this attempt');
  if ((o.can ?? 0) > 0) await continueAsNew<typeof probe>(tag, { ...o, can: (o.can ?? 0) - 1 });
  return workflowInfo().runId;
}

const { hangOnce } = proxyActivities<{ hangOnce(mode: string): Promise<string> }>({
  startToCloseTimeout: '3s',
  retry: { maximumAttempts: 1 },
});

/** Runs `hangOnce` (one attempt by policy), for the activity-reset probe (activity.ts). */
export async function hangProbe(mode: string): Promise<string> {
  return await hangOnce(mode);
}

const { beatOnce } = proxyActivities<{ beatOnce(mode: string): Promise<string> }>({
  startToCloseTimeout: '6s',
  heartbeatTimeout: '2s',
  retry: { maximumAttempts: 1 },
});

/** Runs `beatOnce` (heartbeats every 300 ms; one attempt by policy), for the activity-reset probe. */
export async function beatProbe(mode: string): Promise<string> {
  return await beatOnce(mode);
}
