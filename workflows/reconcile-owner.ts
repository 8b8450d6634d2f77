/**
 * A reconciliation replays only where its result can land (docs/DESIGN.md, "Reconcile"): before a replay, when its
 * case reaches review, and before it takes a decision, it asks whether the run that started it (`parent`) is still
 * the running run of its workflow id (activities/operation-owner.ts). A run reset, continued as new or started again
 * under the id has an owner of the write that looks it up itself; a terminated or closed run reads no result. Then
 * the case ends (`owner_gone`), replaying nothing, and says why. Runs recorded before this check have no marker of
 * `RECONCILE_OWNER_PATCH` and replay without it. Sandbox-safe.
 */
import { patched, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { ToolActivities } from './router/dispatch';

export const RECONCILE_OWNER_PATCH = 'recovery-router:reconcile-owner';

/**
 * Why the run that started this reconciliation cannot receive its result, or `undefined` when it can (or when the
 * reconciliation has no parent, or was recorded before the check). An owner the activity could not read is not
 * taken for one that can: nothing is replayed on a guess.
 */
export function ownerCheck(): () => Promise<string | undefined> {
  const { operationOwner: ask } = proxyActivities<ToolActivities>({
    startToCloseTimeout: 10_000,
    retry: { maximumAttempts: 3, initialInterval: 1_000 },
  });
  return async () => {
    const parent = workflowInfo().parent;
    if (!parent || !patched(RECONCILE_OWNER_PATCH)) return undefined;
    const state = await ask({ workflowId: parent.workflowId, runId: parent.runId }).catch(() => 'unreadable');
    if (state === 'current') return undefined;
    if (state === 'replaced')
      return 'The run that started this reconciliation was replaced (reset, continued as new, or its workflow id started again): nothing is replayed here; the run that owns the write now looks it up itself.';
    return `The run that started this reconciliation is ${state === 'unreadable' ? 'not known to be running' : state.replace('_', ' ')}: nothing is replayed here, since no run would read the result; check the write in the service.`;
  };
}
