/**
 * The baseline workflows, the floors the plugin is held to: `bareActivityWorkflow`, one plain activity through
 * `proxyActivities` (the floor of one router call); `bareAgentWorkflow`, the planner → tool → planner loop of an
 * agent without the router (the floor of `agentWorkflow`). Sandbox-safe: imports only `@temporalio/workflow` and
 * types.
 */
import { ApplicationFailure, proxyActivities } from '@temporalio/workflow';
import type { Capability } from '../recovery/tool-spec';
import type { PlannerActivities } from '../workflows/agent-types';
import type { Observation } from '../workflows/planner-contract';
import type { BaselineActivities, Inventory } from './activities';

/** A plain retry policy (durations in ms). */
export interface PlainRetryPolicy {
  maximumAttempts: number;
  initialInterval: number;
  backoffCoefficient: number;
  maximumInterval: number;
}

export interface BareActivityInput {
  sku: string;
  /** Activity start-to-close timeout, in ms. */
  startToCloseTimeoutMs: number;
  retry: PlainRetryPolicy;
}

export async function bareActivityWorkflow(input: BareActivityInput): Promise<Inventory> {
  const { fetchInventory } = proxyActivities<BaselineActivities>({
    startToCloseTimeout: input.startToCloseTimeoutMs,
    retry: input.retry,
  });
  return fetchInventory(input.sku);
}

/** Options of `bareAgentWorkflow`: what `agentWorkflow` gets from the plugin, passed in by hand. */
export interface BareAgentOptions {
  /** What the planner is shown each turn (the catalog's capabilities, as `agentWorkflow` shows them). */
  capabilities: Capability[];
  /** The planner activity: StartToClose and heartbeat timeouts in ms, attempts (agentWorkflow's defaults). */
  planner: { startToCloseTimeoutMs: number; heartbeatTimeoutMs: number; maximumAttempts: number };
  /** Each tool call's plain activity. */
  tool: { startToCloseTimeoutMs: number; retry: PlainRetryPolicy };
}

/**
 * The planner's answer to one call, as the planner contract (workflows/planner-contract.ts) wants it. `empty` is
 * only "no value" here: a bare loop does not judge results.
 */
export function toolResultObservation(
  call: { callId: string; tool: string; args: unknown },
  value: unknown,
  turn: number,
): Observation {
  return { kind: 'tool_result', ...call, value, empty: value === null || value === undefined, turn };
}

/**
 * The agent loop without the router, the baseline of `agentWorkflow`: ask the planner (the plugin's own
 * `planNextStep` activity), run each call it asks for through a plain activity, hand the results back as
 * observations, until it submits. No validation, no budgets, no recovery: an unknown tool or a `stop` fails the run.
 * @returns the submitted value.
 */
export async function bareAgentWorkflow(goal: string, options: BareAgentOptions): Promise<unknown> {
  const { planNextStep } = proxyActivities<PlannerActivities>({
    startToCloseTimeout: options.planner.startToCloseTimeoutMs,
    heartbeatTimeout: options.planner.heartbeatTimeoutMs,
    retry: { maximumAttempts: options.planner.maximumAttempts, initialInterval: '1s' },
  });
  const { fetchInventory } = proxyActivities<BaselineActivities>({
    startToCloseTimeout: options.tool.startToCloseTimeoutMs,
    retry: options.tool.retry,
  });
  const tools: Record<string, (args: unknown) => Promise<unknown>> = {
    check_inventory: (args) => fetchInventory((args as { sku: string }).sku),
  };
  const observations: Observation[] = [];
  for (let turn = 1; ; turn++) {
    const decision = await planNextStep({ goal, turn, capabilities: options.capabilities, observations });
    if (decision.kind === 'submit') return decision.result;
    if (decision.kind === 'stop') throw ApplicationFailure.nonRetryable(`planner stopped: ${decision.reason}`);
    for (const call of decision.calls) {
      const run = tools[call.tool];
      if (!run) throw ApplicationFailure.nonRetryable(`unknown tool ${call.tool}`);
      observations.push(toolResultObservation(call, await run(call.args), turn));
    }
  }
}
