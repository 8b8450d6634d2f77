/** Workflows for the attack probes: the plugin's own, plus a router driven with values JSON input cannot carry. */
import { createToolRouter, type ToolOutcome } from '../../../workflows/tool-router';
import type { ToolSpec } from '../../../recovery/tool-spec';
export { toolPlanWorkflow } from '../../../workflows/tool-plan';
export { reconcileOperationWorkflow } from '../../../workflows/reconcile';

export type ArgsKind = 'cyclic' | 'bigint' | 'throwing_getter' | 'deep300' | 'huge3mb' | 'json';

function build(kind: ArgsKind, json: unknown): unknown {
  switch (kind) {
    case 'cyclic': {
      const o: Record<string, unknown> = { a: 'x' };
      o.self = o;
      return o;
    }
    case 'bigint':
      return { a: 1n };
    case 'throwing_getter':
      return Object.defineProperty({}, 'a', {
        enumerable: true,
        get() {
          throw new Error('getter exploded');
        },
      });
    case 'deep300': {
      let d: unknown = 'x';
      for (let i = 0; i < 300; i++) d = { d };
      return { a: d };
    }
    case 'huge3mb':
      return { a: 'x'.repeat(3_000_000) };
    default:
      return json;
  }
}

/** Calls through createToolRouter directly (no toolPlanWorkflow filtering of stepId etc.). */
export async function routerProbe(input: {
  catalog: ToolSpec[];
  calls: { tool: string; args?: unknown; kind?: ArgsKind; stepId?: unknown; sameTurn?: boolean }[];
  budgets?: Record<string, number>;
  approvalTimeoutMs?: number;
}): Promise<ToolOutcome[]> {
  const router = createToolRouter({
    catalog: input.catalog,
    searchAttributes: false,
    ...(input.budgets ? { budgets: input.budgets } : {}),
    ...(input.approvalTimeoutMs !== undefined ? { approvalTimeoutMs: input.approvalTimeoutMs } : {}),
  });
  const out: ToolOutcome[] = [];
  for (const [i, c] of input.calls.entries()) {
    if (i === 0 || !c.sameTurn) router.startTurn();
    out.push(
      await router.callTool(
        c.tool,
        build(c.kind ?? 'json', c.args),
        c.stepId === undefined ? {} : { stepId: c.stepId as string },
      ),
    );
  }
  return out;
}
