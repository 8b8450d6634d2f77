/**
 * The baselines' one activity: the tool's own `execute`, with nothing around it — no input or output schema, no
 * classification, no circuit breaker, no credential refresh. What it throws, Temporal's retry policy retries. The
 * context carries what `execute` needs: the idempotency key (`operationId`, sent by `ctx.http` as the tool
 * declares), and the current credential from the broker as it is (expired or not: refreshing on a 401 is the
 * router's re-auth route).
 */
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { CredentialBroker } from '../../../activities/credentials';
import type { AnyTool } from '../../../activities/define-tool';
import { toolContextOf } from '../../../activities/tool-context-of';

export interface PlainInvocation {
  tool: string;
  args: unknown;
  operationId: string;
  /** Retries inside this attempt after these waits, ms (the naive policy's loop). @default none */
  inProcessDelaysMs?: number[];
}

const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((done, fail) => {
    const t = setTimeout(done, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), fail(signal.reason)), { once: true });
  });

export function createBaselineActivities(
  tools: readonly AnyTool[],
  credentials: CredentialBroker,
  /** Told of each attempt at a tool that does not exist (it has no `execute` to record). */
  onUnknownTool: (inv: PlainInvocation) => void = () => undefined,
) {
  const byName = new Map(tools.map((t) => [t.name, t]));
  return {
    /** @throws whatever the tool throws; `Error('no tool named …')` for an unknown tool (retried like the rest). */
    async runToolPlain(inv: PlainInvocation): Promise<unknown> {
      const activity = Context.current();
      /** One try: find the tool, take the current credential, run `execute`. */
      const once = async () => {
        const tool = byName.get(inv.tool);
        if (!tool) {
          onUnknownTool(inv);
          throw new Error(`no tool named ${inv.tool}`);
        }
        const credential = tool.credential ? await credentials.current(tool.credential) : undefined;
        const ctx = toolContextOf(
          activity,
          tool,
          { callId: inv.operationId, operationId: inv.operationId },
          credential,
        );
        const args =
          tool.idempotency.carrier === 'field' && typeof inv.args === 'object' && inv.args !== null
            ? { ...inv.args, [tool.idempotency.name]: inv.operationId }
            : inv.args;
        return tool.execute(args, ctx);
      };
      const delays = inv.inProcessDelaysMs ?? [];
      for (let i = 0; ; i++) {
        try {
          return await once();
        } catch (err) {
          if (i < delays.length) {
            await wait(delays[i]!, activity.cancellationSignal);
            continue;
          }
          // A thrown non-Error (a string) would fail the activity without a message; wrap it, still retryable.
          if (err instanceof Error) throw err;
          throw ApplicationFailure.retryable(String(err), 'NonErrorThrown');
        }
      }
    },
  };
}

export type BaselineActivities = ReturnType<typeof createBaselineActivities>;
