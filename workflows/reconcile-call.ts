/**
 * Runs the reconciliation of one operation as a child workflow whose id is `reconcile:<operationId>`, so a second
 * reconciliation of the same operation in this run joins the first instead of starting another, and one left open by
 * a run this one replaced ends before this run's starts.
 * The child's parent-close policy is ABANDON: a reconciliation outlives a cancelled or continued-as-new parent.
 * The map of running reconciliations belongs to the router of one run (never module state: workflow modules may be
 * shared across runs when preloaded).
 */
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { ParentClosePolicy, executeChild, getExternalWorkflowHandle, patched, sleep } from '@temporalio/workflow';
import { checkOwnerSignal, reconcileWorkflowId } from './definitions';
import { reconcileOperationWorkflow, type ReconcileInput, type ReconcileResult } from './reconcile';
import { RECONCILE_OWNER_PATCH } from './reconcile-owner';

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
  const started = startReconciliation(input).finally(() => running.delete(input.operationId));
  running.set(input.operationId, started);
  return started;
}

/**
 * A run that replaced another (a reset, continue-as-new) may find the operation's reconciliation still open under its
 * id: it asks that one to check its owner — it finds it gone and ends, replaying nothing (workflows/reconcile-owner.ts)
 * — and starts its own once the id is free, within 5 tries (1 + 2 + 4 + 8 + 16 s).
 */
async function startReconciliation(input: ReconcileInput, tries = 0): Promise<ReconcileResult> {
  const workflowId = reconcileWorkflowId(input.operationId);
  try {
    return await executeChild(reconcileOperationWorkflow, {
      workflowId,
      args: [input],
      parentClosePolicy: ParentClosePolicy.ABANDON,
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError) || tries >= 5 || !patched(RECONCILE_OWNER_PATCH))
      throw err;
    await getExternalWorkflowHandle(workflowId)
      .signal(checkOwnerSignal)
      .catch(() => undefined);
    await sleep(1_000 * 2 ** tries);
    return startReconciliation(input, tries + 1);
  }
}
