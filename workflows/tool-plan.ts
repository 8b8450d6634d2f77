/**
 * `toolPlanWorkflow`: runs a fixed list of tool calls through the router, one turn each unless a step says
 * `sameTurn`, and returns every outcome. The main job's scenarios and the tests use it; an agent workflow drives
 * the same router from a planner instead (issue 5).
 */
import { ApplicationFailure } from '@temporalio/workflow';
import { shaped } from '../recovery/shape';
import { invalidInput } from './input-errors';
import { runInputFields } from './input-shapes';
import { boundedPlanResult, type ToolPlanResult } from './bounded-result';
import { buildToolRouter, type ToolOutcome } from './tool-router';
import { withWorkerDefaults } from './worker-supplied';
import type { ToolRouterOptions } from './tool-router-types';

export type { ToolPlanResult } from './bounded-result';

/** One call of a tool plan: tool, arguments and an optional stable step id. */
export interface PlannedCall {
  tool: string;
  args: unknown;
  /** Stable step id (see CallToolOptions.stepId). */
  stepId?: string;
  /** Run in the same turn as the previous call instead of opening a new one. @default false */
  sameTurn?: boolean;
}

/**
 * The input of `toolPlanWorkflow`: the calls, in order, and the router's options (`ToolRouterOptions`, without a
 * restored state: a plan runs whole in one run).
 */
export interface ToolPlanInput extends Omit<ToolRouterOptions, 'restore' | 'stepBudgetsAcrossTurns'> {
  calls: PlannedCall[];
  /**
   * Stop at the first terminal outcome, and after a success flagged `noProgress` (the same call returned the same
   * result again: no progress after 2 identical outcomes, docs/DESIGN.md, "The Change-before-Retry gate").
   * @default true
   */
  stopOnTerminal?: boolean;
  /**
   * Fail the run at the first terminal outcome instead of returning it: the workflow ends FAILED with a
   * non-retryable `ApplicationFailure` whose `type` is the failure class (e.g. `invalid_arguments` after the repair
   * budget ran out; `capability_missing` after too many unknown-tool turns) and whose details
   * hold `[the terminal outcome]`. Applies whatever `stopOnTerminal` says. @default false
   */
  failOnTerminal?: boolean;
}

/**
 * The input's shape, checked before anything runs: a bad input fails the run cleanly, never the workflow task;
 * after it, the run trusts the checked copy. Built on first use (recovery/shape.ts `shaped`).
 */
export const toolPlanInputSchema = shaped((s) =>
  s
    .object({
      ...runInputFields(),
      calls: s.array(
        s
          .object({
            tool: s.string(),
            args: s.unknown(),
            stepId: s.string().min(1).optional(),
            sameTurn: s.boolean().optional(),
          })
          .strict(),
      ),
      stopOnTerminal: s.boolean().optional(),
      failOnTerminal: s.boolean().optional(),
    })
    .strict(),
);

/**
 * Runs a fixed list of tool calls through the router, one turn each, and returns every outcome: a workflow for
 * tests, benchmarks and plans made elsewhere. @returns at most 1 MiB of JSON (larger values are replaced by
 * markers).
 */
export async function toolPlanWorkflow(rawInput: ToolPlanInput): Promise<ToolPlanResult> {
  const parsed = toolPlanInputSchema().safeParse(rawInput);
  if (!parsed.success) throw invalidInput('toolPlanWorkflow input ', parsed.error);
  const input = withWorkerDefaults(parsed.data, 'toolPlanWorkflow input');
  const { calls, stopOnTerminal, failOnTerminal, ...options } = input;
  const router = buildToolRouter(options);
  const outcomes: ToolOutcome[] = [];
  for (const [i, call] of calls.entries()) {
    if (i === 0 || !call.sameTurn) router.startTurn();
    const outcome = await router.callTool(call.tool, call.args, call.stepId ? { stepId: call.stepId } : {});
    outcomes.push(outcome);
    if (!outcome.ok && outcome.terminal && failOnTerminal) {
      // Thrown from workflow code, an ApplicationFailure fails the run (not the workflow task): a clean FAILED status.
      throw ApplicationFailure.create({
        type: outcome.failure.class,
        message: `${outcome.tool}: ${outcome.action}${outcome.exhausted ? ` (${outcome.exhausted})` : ''}: ${outcome.feedback.message}`,
        nonRetryable: true,
        details: [outcome],
      });
    }
    if (stopOnTerminal ?? true) {
      if (!outcome.ok && outcome.terminal) break;
      if (outcome.ok && outcome.noProgress) break;
    }
  }
  // Within the payload limit: a result over it would fail every workflow task that tries to complete the run.
  return boundedPlanResult({ outcomes, records: [...router.records()] }, input.catalog);
}
