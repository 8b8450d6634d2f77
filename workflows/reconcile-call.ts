/**
 * Runs the reconciliation of one operation as a child workflow whose id is `reconcile:<operationId>`, so a second
 * reconciliation of the same operation in this run joins the first instead of starting another.
 * The child's parent-close policy is ABANDON: a reconciliation outlives a cancelled or continued-as-new parent.
 * The map of running reconciliations belongs to the router of one run (never module state: workflow modules may be
 * shared across runs when preloaded).
 */
import { ParentClosePolicy, executeChild } from '@temporalio/workflow';
import { reconcileWorkflowId } from './definitions';
import { reconcileOperationWorkflow, type ReconcileInput, type ReconcileResult } from './reconcile';

/** The tunables of a reconciliation that the router passes through. */
export type ReconcileOptions = Pick<
  ReconcileInput,
  'lookupBudget' | 'lookupBackoff' | 'replayBudget' | 'lookupTimeoutMs' | 'reviewTimeoutMs' | 'searchAttributes'
>;

export { reconcileWorkflowId };

export function reconcileCall(
  running: Map<string, Promise<ReconcileResult>>,
  input: ReconcileInput,
): Promise<ReconcileResult> {
  const existing = running.get(input.operationId);
  if (existing) return existing;
  const started = executeChild(reconcileOperationWorkflow, {
    workflowId: reconcileWorkflowId(input.operationId),
    args: [input],
    parentClosePolicy: ParentClosePolicy.ABANDON,
  }).finally(() => running.delete(input.operationId));
  running.set(input.operationId, started);
  return started;
}
