/** The call's arguments as a tool sees them, and the activity that runs a read it declares. Node-side only. */
import { Context } from '@temporalio/activity';
import { isPlainObject } from '../recovery/plain-object';
import { CallInterrupted, guardAttempt } from './attempt-guard';
import type { CredentialBroker } from './credentials';
import type { AnyTool } from './define-tool';
import { describe } from './failure-edge';
import { keepHeartbeating } from './heartbeat';
import type { ToolContext } from './tool-context';
import { toolContextOf } from './tool-context-of';

/**
 * The arguments as the tool sees them: parsed by its input schema, the operation id in the idempotency field when the
 * key travels there. That field is the router's: dropped before the parse (parsed with the key when the schema names
 * it), so a schema that refuses unknown keys (`.strict()`) passes, and set after (docs/tools.md, "Effects and idempotency").
 */
export function parseCallArgs(
  tool: AnyTool,
  args: unknown,
  operationId: string,
): ReturnType<AnyTool['input']['safeParse']> {
  if (tool.idempotency.carrier !== 'field' || !isPlainObject(args)) return tool.input.safeParse(args);
  const field = tool.idempotency.name;
  const named =
    isPlainObject(tool.spec.inputSchema.properties) && Object.hasOwn(tool.spec.inputSchema.properties, field);
  const rest = Object.fromEntries(Object.entries(args).filter(([key]) => key !== field));
  const parsed = tool.input.safeParse(named ? { ...rest, [field]: operationId } : rest);
  return parsed.success && isPlainObject(parsed.data)
    ? { ...parsed, data: { ...parsed.data, [field]: operationId } }
    : parsed;
}

/**
 * Runs `read` (a tool's `lookup` or `verify`) in this activity, heartbeating, against the attempt's cancellation and
 * deadline, with the credential and the arguments (`undefined` when absent or invalid). A throw is logged and answered
 * by `failed`; a cancellation the workflow asked for is thrown (the SDK's `CancelledFailure`).
 */
export async function runToolRead<A>(
  credentials: CredentialBroker,
  tool: AnyTool,
  req: { tool: string; callId: string; operationId: string; args?: unknown },
  read: (args: unknown, ctx: ToolContext) => Promise<A>,
  failed: (err: unknown, interrupted: boolean) => A,
): Promise<A> {
  const activity = Context.current();
  const stopHeartbeats = keepHeartbeating(activity, 1_000);
  const guard = guardAttempt(activity);
  try {
    const credential = tool.credential ? await credentials.current(tool.credential) : undefined;
    const parsed = req.args === undefined ? undefined : parseCallArgs(tool, req.args, req.operationId);
    const args: unknown = parsed?.success ? parsed.data : undefined;
    const ctx = toolContextOf(activity, tool, req, credential, undefined, guard.signal);
    return await guard.race(Promise.resolve().then(() => read(args, ctx)));
  } catch (err) {
    const interrupted = err instanceof CallInterrupted ? err : guard.interruption();
    if (interrupted?.why === 'cancel_requested') throw interrupted.cancellation ?? interrupted;
    activity.log.warn('tool read failed', { tool: req.tool, operationId: req.operationId, error: describe(err) });
    return failed(err, interrupted !== undefined);
  } finally {
    guard.dispose();
    stopHeartbeats();
  }
}
