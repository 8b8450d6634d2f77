/**
 * The baseline workflow: one plain activity through `proxyActivities`, the floor the plugin's happy path is held
 * to. Sandbox-safe: imports only `@temporalio/workflow` and types.
 */
import { proxyActivities } from '@temporalio/workflow';
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
