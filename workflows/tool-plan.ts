/**
 * `toolPlanWorkflow`: runs a fixed list of tool calls through the router, one turn each unless a step says
 * `sameTurn`, and returns every outcome. The main job's scenarios and the tests use it; an agent workflow drives
 * the same router from a planner instead (issue 5).
 */
import type { BackoffPolicy } from '../recovery/backoff';
import type { BudgetPolicy } from '../recovery/budgets';
import type { RecoveryRecord } from '../recovery/records';
import type { ToolSpec } from '../recovery/tool-spec';
import { createToolRouter, type ToolOutcome } from './tool-router';

export interface PlannedCall {
  tool: string;
  args: unknown;
  /** Stable step id (see CallToolOptions.stepId). */
  stepId?: string;
  /** Run in the same turn as the previous call instead of opening a new one. @default false */
  sameTurn?: boolean;
}

export interface ToolPlanInput {
  catalog: ToolSpec[];
  calls: PlannedCall[];
  grantedScopes?: string[];
  budgets?: Partial<BudgetPolicy>;
  backoff?: Partial<BackoffPolicy>;
  approvalTimeoutMs?: number;
  /** Stop at the first terminal outcome. @default true */
  stopOnTerminal?: boolean;
}

export interface ToolPlanResult {
  outcomes: ToolOutcome[];
  records: RecoveryRecord[];
}

export async function toolPlanWorkflow(input: ToolPlanInput): Promise<ToolPlanResult> {
  const router = createToolRouter({
    catalog: input.catalog,
    ...(input.grantedScopes ? { grantedScopes: input.grantedScopes } : {}),
    ...(input.budgets ? { budgets: input.budgets } : {}),
    ...(input.backoff ? { backoff: input.backoff } : {}),
    ...(input.approvalTimeoutMs !== undefined ? { approvalTimeoutMs: input.approvalTimeoutMs } : {}),
  });
  const outcomes: ToolOutcome[] = [];
  for (const [i, call] of input.calls.entries()) {
    if (i === 0 || !call.sameTurn) router.startTurn();
    const outcome = await router.callTool(call.tool, call.args, call.stepId ? { stepId: call.stepId } : {});
    outcomes.push(outcome);
    if (!outcome.ok && outcome.terminal && (input.stopOnTerminal ?? true)) break;
  }
  return { outcomes, records: [...router.records()] };
}
