/**
 * A script (the scripted planner's format) as the baselines' steps: each step's call, then the same call with its
 * fixes merged in one by one (they accumulate, as `fix_fields` merges them), then each alternative and its fixes.
 * The baselines try them in that order after each failure; the router's planner picks among them by the
 * failure's class. Pure.
 */
import type { Script, ScriptCall } from '../scenario';
import type { BaselineStep } from './workflow';

/** `call`'s arguments with its first `n` fixes shallow-merged in (non-object arguments are left as they are). */
export function argsWithFixes(call: ScriptCall, n: number): unknown {
  const args = call.args ?? {};
  if (n === 0 || typeof args !== 'object' || args === null || Array.isArray(args)) return args;
  return Object.assign({}, args, ...(call.fixes ?? []).slice(0, n));
}

/**
 * The steps of `script` with every variant spelled out.
 * @param startToCloseMs the StartToClose timeout of a tool, ms (the tool's own; a default for an unknown name).
 */
export function baselineSteps(script: Script, startToCloseMs: (tool: string) => number): BaselineStep[] {
  return script.steps.map((step, i) => ({
    id: step.id ?? `step-${i + 1}`,
    variants: [step, ...(step.alternatives ?? [])].flatMap((call) =>
      Array.from({ length: (call.fixes?.length ?? 0) + 1 }, (_, n) => ({
        tool: call.tool,
        args: argsWithFixes(call, n),
        startToCloseMs: startToCloseMs(call.tool),
      })),
    ),
  }));
}
