/**
 * Anything a tool threw → ToolFailure. In order: a ZodError (the tool validated something), a client library's
 * error read by its dialect (dialects/), an HTTP answer wrapped in the error (wrapped-http.ts), a transport error
 * (network.ts), and else a bug in the tool.
 * Never throws.
 * Pure: no I/O.
 */
import { FailureClass, FailureReason, Phase } from '../failure';
import { draftBySend } from './sent';
import type { ToolFailure } from '../failure';
import { buildFailure } from './build';
import type { CallContext } from './context';
import { classifyDialect } from './dialects';
import { classifyHttp } from './http';
import { classifyByFacts } from './by-facts';
import { fingerprintOf } from './rules';
import { errorChain } from './network';
import { classifyInvalidResult } from './result';
import { readString } from './safe';
import { wrappedHttp } from './wrapped-http';
import { isZodError, zodArgumentsDraft } from './zod';

/**
 * What no fact speaks for (docs/DESIGN.md, "Facts, not libraries": unknown is not a bug). It carries its stable
 * fingerprint (recovery/classify/rules.ts), which operators route with `classify.rules`. Before the request left
 * (`requestSent === false`) it is `unrecoverable/unrecognized`, replay-safe; otherwise the request may have left (an
 * unknown `requestSent` included), and the one phase decision (recovery/classify/sent.ts) makes a write
 * `outcome_unknown`: never reported as a bug in the tool, never replayed blind. A read is escalated with its
 * fingerprint.
 */
export function toolBugFailure(error: unknown, requestSent: boolean | undefined, ctx: CallContext): ToolFailure {
  const name = readString(error, 'name');
  const shown = name !== undefined && /^[A-Za-z][A-Za-z0-9_]{0,40}$/.test(name) ? ` (${name})` : '';
  const fingerprint = fingerprintOf(error).id;
  const head = `${ctx.tool}: the tool failed with an error no rule recognises${shown}`;
  const meaning = { class: FailureClass.UNRECOVERABLE, reason: FailureReason.UNRECOGNIZED, head };
  const draft = draftBySend(meaning, requestSent === false ? 'not_sent' : 'maybe_sent', ctx);
  return buildFailure(ctx, { ...draft, fingerprint });
}

/** The class names of an error and its causes (`InvalidTokenError`), for the vocabulary; at most 4. */
function errorNames(error: unknown): string[] {
  return errorChain(error)
    .map((node) => readString(node, 'name'))
    .filter((n): n is string => n !== undefined && n !== 'Error' && n.length <= 64)
    .slice(0, 4);
}

/**
 * Classifies what a tool threw.
 * - ZodError: `requestSent === true` → the tool rejected what came back: `invalid_result/schema_violation`;
 *   otherwise the tool rejected its arguments: `invalid_arguments/schema` (phase `preflight`) with field issues.
 * - A client library's error (PostgreSQL, AWS SDK, Stripe, gRPC, …) → its dialect's table (dialects/index.ts).
 * - An HTTP answer inside the error (axios `response`, SDK `status`/`headers`, `HttpOutcomeError.outcome`) →
 *   the HTTP rules.
 * - Its other facts (recovery/classify/by-facts.ts): an SMTP reply, a transport error (`requestSent` wins over
 *   inference), a structured code, the error's own words.
 * - Anything else → `toolBugFailure`: `unrecoverable/tool_bug`, except that a write that is not deduplicated and
 *   may have been sent is `outcome_unknown`.
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
  if (http) return classifyHttp(http.status, http.headers, http.body, ctx, errorNames(error));
  return classifyByFacts(error, requestSent, ctx) ?? toolBugFailure(error, requestSent, ctx);
}
