/**
 * The tool activity's last step: the result passes the output schema and the `validate.after` invariants, or the
 * call is `invalid_result` (route: reject) — a 200 whose result is not a usable fact is never passed on. A throwing
 * transform or invariant is a bug in the tool's declaration, after the call ran.
 * Node-side only.
 */
import { classify, classifyInvalidResult, type CallContext } from '../../recovery/classify';
import type { AnyTool } from '../define-tool';
import { CallStopped } from './stop';

/** The validated output. @throws CallStopped when it is not a usable result. */
export function postcheck(tool: AnyTool, raw: unknown, args: unknown, ctx: CallContext): unknown {
  let output: ReturnType<typeof tool.output.safeParse>;
  let broken: string | undefined;
  try {
    output = tool.output.safeParse(raw);
    broken = output.success ? tool.validate?.after?.(output.data, args) : undefined;
  } catch (err) {
    throw new CallStopped(
      classify({ kind: 'thrown', error: err, requestSent: true }, { ...ctx, effect: tool.effect }),
      err,
    );
  }
  if (!output.success)
    throw new CallStopped(classifyInvalidResult({ error: output.error, received: raw }, ctx), output.error);
  if (broken) throw new CallStopped(classifyInvalidResult({ invariant: broken, received: raw }, ctx), broken);
  return output.data;
}
