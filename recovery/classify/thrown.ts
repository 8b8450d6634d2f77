/**
 * Anything a tool threw → ToolFailure. In order: a ZodError (the tool validated something), a client library's
 * error read by its dialect (dialects/), an HTTP answer wrapped in the error (wrapped-http.ts), a transport error
 * (network.ts), and else a bug in the tool.
 * Never throws.
 * Pure: no I/O.
 */
import { FailureClass, FailureReason, Phase } from '../failure';
import type { ToolFailure } from '../failure';
import { buildFailure } from './build';
import type { CallContext } from './context';
import { classifyDialect } from './dialects';
import { classifyHttp } from './http';
import { classifyNetworkError } from './network';
import { classifyInvalidResult } from './result';
import { readString } from './safe';
import { wrappedHttp } from './wrapped-http';
import { isZodError, zodArgumentsDraft } from './zod';

/** `unrecoverable/tool_bug`: the tool threw something no rule recognises. */
export function toolBugFailure(error: unknown, requestSent: boolean | undefined, ctx: CallContext): ToolFailure {
  const name = readString(error, 'name');
  const shown = name !== undefined && /^[A-Za-z][A-Za-z0-9_]{0,40}$/.test(name) ? ` (${name})` : '';
  const mayHaveApplied = requestSent === true && ctx.effect === 'write' && !ctx.deduplicates;
  return buildFailure(ctx, {
    class: FailureClass.UNRECOVERABLE,
    reason: FailureReason.TOOL_BUG,
    phase: requestSent === true && ctx.effect === 'write' ? Phase.COMMIT_UNKNOWN : Phase.DISPATCH,
    retryable: false,
    replaySafe: requestSent === false || ctx.effect === 'read' || ctx.deduplicates,
    publicMessage: `${ctx.tool}: the tool failed with an internal error${shown}; changing the arguments will not fix it.${
      mayHaveApplied ? ' The write was sent and may have been applied.' : ''
    }`,
  });
}

/**
 * Classifies what a tool threw.
 * - ZodError: `requestSent === true` → the tool rejected what came back: `invalid_result/schema_violation`;
 *   otherwise the tool rejected its arguments: `invalid_arguments/schema` (phase `preflight`) with field issues.
 * - A client library's error (PostgreSQL, AWS SDK, Stripe, gRPC, …) → its dialect's table (dialects/index.ts).
 * - An HTTP answer inside the error (axios `response`, SDK `status`/`headers`, `HttpOutcomeError.outcome`) →
 *   the HTTP rules.
 * - A transport error → the network rules (`requestSent` wins over inference).
 * - Anything else → `unrecoverable/tool_bug`; replay-safe unless a non-deduplicated write was (or may have been) sent.
 * @param ctx the call (validated by the caller).
 */
export function classifyThrown(error: unknown, requestSent: boolean | undefined, ctx: CallContext): ToolFailure {
  if (isZodError(error)) {
    return requestSent === true
      ? classifyInvalidResult({ error }, ctx)
      : buildFailure(ctx, zodArgumentsDraft(error, ctx.tool, {}, Phase.PREFLIGHT));
  }
  const dialect = classifyDialect(error, requestSent, ctx);
  if (dialect) return dialect;
  const http = wrappedHttp(error);
  if (http) return classifyHttp(http.status, http.headers, http.body, ctx);
  return classifyNetworkError(error, requestSent, ctx) ?? toolBugFailure(error, requestSent, ctx);
}
