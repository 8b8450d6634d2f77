/**
 * The workflows of the lifecycle rows (bench/write-safety/lifecycle.ts), beside the plugin's own: a plan whose run
 * fails once after its payment (its retry policy runs it again), and a call that continues as new, carrying the
 * router's state, while its reconciliation still waits. Sandbox-safe.
 */
import { ApplicationFailure, condition, continueAsNew, workflowInfo } from '@temporalio/workflow';
import { createToolRouter, type ToolOutcome, type ToolRouterState } from '../../workflow';
import { toolPlanWorkflow, type ToolPlanInput, type ToolPlanResult } from '../../workflows/tool-plan';

export * from '../../workflows';

/** `toolPlanWorkflow(plan)`, then a retryable failure on the run's first attempt. */
export async function payThenFailOnce(plan: ToolPlanInput): Promise<ToolPlanResult> {
  const result = await toolPlanWorkflow(plan);
  if (workflowInfo().attempt === 1) {
    const failure = ApplicationFailure.retryable('the step after the payment failed');
    failure.stack = ''; // the bench's own failure: no stack or path in history (the LEAK scan reads it)
    throw failure;
  }
  return result;
}

/**
 * The plan's first call; when it has not ended `rotateMs` ms later (its write awaits review), the run continues as
 * new with `router.state()` and makes the same call there.
 */
export async function payRotating(
  plan: ToolPlanInput,
  rotateMs: number,
  carried?: ToolRouterState,
): Promise<{ outcomes: ToolOutcome[] }> {
  const router = createToolRouter({
    ...(plan.catalog ? { catalog: plan.catalog } : {}),
    ...(plan.reconcile ? { reconcile: plan.reconcile } : {}),
    ...(carried ? { restore: carried } : {}),
  });
  const call = plan.calls[0]!;
  let outcome: ToolOutcome | undefined;
  const called = router.callTool(call.tool, call.args, call.stepId ? { stepId: call.stepId } : {});
  void called.then((o) => (outcome = o));
  if (!carried && !(await condition(() => outcome !== undefined, rotateMs))) {
    await continueAsNew<typeof payRotating>(plan, rotateMs, router.state());
  }
  return { outcomes: [await called] };
}
