/**
 * What a framework's tool hands back to its model for one routed call, shared by the AI SDK and OpenAI Agents
 * adapters (./ai-sdk.ts, ./openai-agents.ts). Sandbox-safe: plain functions over `callTool`'s outcome.
 *
 * A success is the tool's validated value; a routed failure is the router's model feedback (class, action, next
 * step, field issues, capabilities, observed state: recovery/feedback.ts) — never a thrown error, so the
 * framework's loop goes on and the model reads what to do next.
 */
import { ApplicationFailure } from '@temporalio/workflow';
import type { Capability } from '../../recovery/tool-spec';
import type { ToolOutcome, ToolRouterBase } from '../tool-router-types';
import { ApplicationFailureType } from '../../recovery/failure-types';
import { normalisedJson } from '../../recovery/untrusted';

/**
 * What the model receives: the value of a success (without control, bidi or zero-width characters:
 * recovery/untrusted.ts), or the router's feedback for a routed failure.
 */
export function toolResultFor(outcome: ToolOutcome): unknown {
  return outcome.ok ? normalisedJson(outcome.value) : outcome.feedback;
}

/** A framework's tool call id as the router's `callId` (1 to 128 characters), or `undefined` to use the step id. */
export function routerCallId(id: unknown): string | undefined {
  return typeof id === 'string' && id.length > 0 && id.length <= 128 ? id : undefined;
}

/** Called with every outcome a framework tool got from the router, in call order. */
export type OutcomeListener = (outcome: ToolOutcome) => void;

/** Options both adapters take. */
export interface RoutedToolsOptions {
  /** The router tools to expose, by name, in this order. @default every tool the run's scopes grant */
  include?: readonly string[];
  /** Sees each outcome after the router settled it (e.g. to print the routed recoveries). */
  onOutcome?: OutcomeListener;
}

/**
 * Runs one framework tool call through the router and returns the model's result. Never throws for a routable
 * failure (the router does not); cancellation and a workflow-level `ApplicationFailure` propagate.
 */
export async function routedCall(
  router: ToolRouterBase,
  name: string,
  args: unknown,
  callId: unknown,
  onOutcome: OutcomeListener | undefined,
): Promise<unknown> {
  const id = routerCallId(callId);
  const outcome = await router.callToolByName(name, args, id === undefined ? {} : { callId: id });
  onOutcome?.(outcome);
  return toolResultFor(outcome);
}

/**
 * The capabilities to expose: those named in `include`, in its order, or every tool the run may use.
 * @throws ApplicationFailure `invalid_input` (non-retryable: the run fails, not its workflow task) when `include`
 *   names a tool the run may not use (unknown, or outside its scopes).
 */
export function exposedCapabilities(router: ToolRouterBase, include: readonly string[] | undefined): Capability[] {
  const all = router.capabilities();
  if (include === undefined) return all;
  return include.map((name) => {
    const found = all.find((c) => c.name === name);
    if (!found) {
      throw ApplicationFailure.nonRetryable(
        `include: ${JSON.stringify(String(name).slice(0, 64))} is not a tool this run may use`,
        ApplicationFailureType.INVALID_INPUT,
      );
    }
    return found;
  });
}
