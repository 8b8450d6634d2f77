/**
 * The `ToolContext` a tool's `execute`, `lookup` and `verify` receive inside an activity: one builder, so the three
 * see the same ids, cancellation signal, credential and HTTP envelope (activities/http.ts).
 * Node-side only.
 */
import type { Context } from '@temporalio/activity';
import type { ApprovalGrant } from '../workflows/definitions';
import type { AnyTool } from './define-tool';
import { createToolHttp } from './http';
import type { HttpEvidence } from './http-evidence';
import type { ToolContext } from './tool-context';

export function toolContextOf(
  activity: Context,
  tool: AnyTool,
  call: { callId: string; operationId: string },
  credential: { token: string; version: number } | undefined,
  approval?: ApprovalGrant,
  /** Aborted when the attempt ends early (activities/attempt-guard.ts). @default the activity's cancellation signal */
  signal: AbortSignal = activity.cancellationSignal,
  /** Records what `ctx.http` saw, for an opaque error `execute` throws (activities/http-evidence.ts). */
  evidence?: HttpEvidence,
  /** How `ctx.heartbeat` records: the activity's heartbeat, or one that keeps the plugin's details. */
  beat: (details?: unknown) => void = (details) => activity.heartbeat(details),
): ToolContext {
  return {
    tool: tool.name,
    callId: call.callId,
    operationId: call.operationId,
    attempt: activity.info.attempt,
    signal,
    credential,
    approval,
    heartbeat: beat,
    http: createToolHttp({
      idempotency: tool.idempotency,
      operationId: call.operationId,
      credential,
      signal,
      ...(tool.secretHeaders ? { secretHeaders: tool.secretHeaders } : {}),
      ...(evidence ? { evidence } : {}),
    }),
  };
}
