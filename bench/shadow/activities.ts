/**
 * The eval's tools as plain Temporal activities, one per tool and named after it: what a Temporal user has before
 * adopting the router. Each runs the tool's own `execute` and nothing else (no schema, no classification, no
 * breaker, no refresh); the idempotency key is the workflow id and the activity id (Temporal docs,
 * "Idempotency"), stable across the activity's retries. `declarations` says what each does, as a user declares it
 * for shadow mode: its effect, whether its receiver deduplicates, and its lookup when it has one.
 */
import { Context, type Info } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { CredentialBroker } from '../../activities/credentials';
import type { AnyTool } from '../../activities/define-tool';
import { toolContextOf } from '../../activities/tool-context-of';
import type { ShadowActivityDeclaration } from '../../plugin/shadow/options';
import { isReplaySafe } from '../../recovery/tool-spec';

/** `<workflowId>:<activityId>`: the recorder tells runs apart by the part before the first `:`. */
export function operationIdOf(info: Info): string {
  return `${info.workflowExecution?.workflowId ?? 'standalone'}:${info.activityId}`;
}

async function contextFor(tool: AnyTool, credentials: CredentialBroker) {
  const activity = Context.current();
  const operationId = operationIdOf(activity.info);
  const credential = tool.credential ? await credentials.current(tool.credential) : undefined;
  return { operationId, ctx: toolContextOf(activity, tool, { callId: operationId, operationId }, credential) };
}

/** One activity per tool: `activities[tool.name](args)`. */
export function createPlainToolActivities(
  tools: readonly AnyTool[],
  credentials: CredentialBroker,
): Record<string, (args: unknown) => Promise<unknown>> {
  const one = (tool: AnyTool) => async (args: unknown) => {
    const { operationId, ctx } = await contextFor(tool, credentials);
    const withKey =
      tool.idempotency.carrier === 'field' && typeof args === 'object' && args !== null
        ? { ...args, [tool.idempotency.name]: operationId }
        : args;
    try {
      return await tool.execute(withKey, ctx);
    } catch (err) {
      if (err instanceof Error) throw err;
      throw ApplicationFailure.retryable(String(err), 'NonErrorThrown');
    }
  };
  return Object.fromEntries(tools.map((t) => [t.name, one(t)]));
}

/** Each tool's declaration: effect, deduplication and lookup, from its definition. */
export function declarations(
  tools: readonly AnyTool[],
  credentials: CredentialBroker,
): Record<string, ShadowActivityDeclaration> {
  const declare = (tool: AnyTool): ShadowActivityDeclaration => {
    const lookup = tool.lookup;
    return {
      effect: tool.effect,
      deduplicates: tool.effect === 'write' && isReplaySafe(tool.spec),
      ...(lookup
        ? {
            lookup: async ({ args }) => {
              const { operationId, ctx } = await contextFor(tool, credentials);
              const found = await lookup(operationId, ctx, args[0]);
              return found.state === 'applied' ? { state: 'applied', value: found.result } : { state: found.state };
            },
          }
        : {}),
    };
  };
  return Object.fromEntries(tools.map((t) => [t.name, declare(t)]));
}
