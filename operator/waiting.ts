/** Workflows that wait for a person, as visibility lists them (`RecoveryStatus`, workflows/search-attributes.ts). */
import type { Client, WorkflowExecutionInfo } from '@temporalio/client';

/**
 * The visibility query of running workflows whose `RecoveryStatus` search attribute is `status`. Running only: a
 * workflow terminated while it waited keeps its last `RecoveryStatus`, yet nobody waits for a decision any more.
 */
function waitingQuery(status: 'AwaitingReview' | 'AwaitingApproval'): string {
  return `RecoveryStatus = "${status}" AND ExecutionStatus = "Running"`;
}

/** Running workflows whose `RecoveryStatus` is `status`, across the client's namespace. */
export async function listWaiting(
  client: Client,
  status: 'AwaitingReview' | 'AwaitingApproval',
): Promise<WorkflowExecutionInfo[]> {
  const found: WorkflowExecutionInfo[] = [];
  for await (const info of client.workflow.list({ query: waitingQuery(status) })) found.push(info);
  return found;
}
