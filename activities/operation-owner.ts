/**
 * The `operationOwner` activity: is the run that started a reconciliation still the running run of its workflow id?
 * A replay is made only where its result can land (docs/DESIGN.md, "Reconcile"): a reset, a continue-as-new or a new
 * start of the id replaces the run (`replaced`); a terminate, cancel, failure or timeout closes it. Uses the worker's
 * client (`Context.client`). Node-side only.
 */
import { Context } from '@temporalio/activity';
import { WorkflowNotFoundError } from '@temporalio/client';

/** `current`, or why not: `replaced`, `not_found`, or the closed run's status in lower case (`terminated`, …). */
export type OwnerState = 'current' | 'replaced' | 'not_found' | Lowercase<string>;

export async function operationOwner(owner: { workflowId: string; runId: string }): Promise<OwnerState> {
  try {
    const run = await Context.current().client.workflow.getHandle(owner.workflowId).describe();
    if (run.runId !== owner.runId) return 'replaced';
    return run.status.name === 'RUNNING' ? 'current' : (run.status.name.toLowerCase() as Lowercase<string>);
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return 'not_found';
    throw err;
  }
}
