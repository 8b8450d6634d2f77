/**
 * The classifiers: every failed tool call → one `ToolFailure` (recovery/failure.ts), the input of the route table.
 *
 * Entry points:
 * - `classify(raw, ctx, toolClassifier?)` for an HTTP answer or anything thrown;
 * - `classifyZodError(error, ctx, { input, jsonSchema })` for arguments that fail their schema (preflight);
 * - `classifyInvalidResult({ error | invariant, received }, ctx)` and `validateResult(schema, body, ctx)` for
 *   results that came back unusable (postcheck).
 * Pure (no I/O, no clock: `ctx.nowMs`), so workflow code may import it inside Temporal's sandbox.
 */
import type { ToolFailure } from '../failure';
import { parseCallContext, type CallContext, type RawOutcome } from './context';
import { ClassifyError, ClassifyErrorCode } from './errors';
import { classifyHttp } from './http';
import { applyToolClassifier, type ToolClassifier } from './override';
import { readProp } from './safe';
import { classifyThrown, toolBugFailure } from './thrown';

export type { CallContext, RawOutcome } from './context';
export { ClassifyError } from './errors';
export { wrappedHttp } from './wrapped-http';
export { dialects, type Dialect } from './protocols';
export { classifyZodError, fieldIssuesFromZod } from './zod';
export { classifyInvalidResult, validateResult } from './result';
export { applyToolClassifier, type ToolClassifier, type ToolClassifierAnswer } from './override';

/** True when `raw` is a failure `classify` accepts: anything thrown, or an HTTP answer whose status is not 2xx. */
export function isFailureOutcome(raw: RawOutcome): boolean {
  if (readProp(raw, 'kind') === 'thrown') return true;
  const status = readProp(raw, 'status');
  return (
    readProp(raw, 'kind') === 'http' &&
    !(typeof status === 'number' && Number.isInteger(status) && status >= 200 && status <= 299)
  );
}

/**
 * Classifies a failed tool call.
 *
 * @param raw the adapter's envelope: `{ kind: 'http', status, headers, body? }` for a non-2xx answer (headers as a
 *   record or a `Headers`-like object, case-insensitive), or `{ kind: 'thrown', error, requestSent? }` for
 *   anything thrown (`requestSent`, when the adapter knows it, wins over inference from the error).
 * @param ctx the call: tool, callId, effect, deduplicates, approvalCanLift, `nowMs` (ms since epoch, for
 *   HTTP-date `Retry-After`), diagnosticRef.
 * @param toolClassifier the tool's own classifier. Precedence: the tool's answer overrides the built-in fields it
 *   names (`class`, `reason`, `publicMessage`, `retryable`, `replaySafe`, `retryAfterMs`, `serverSaid`); the merge is
 *   re-normalised so it always validates (`retryable` forced false unless transient and replay-safe; a changed
 *   class resets `reason` to `unspecified` unless given; `publicMessage` redacted again); a tool classifier that
 *   throws or answers nothing usable leaves the built-in answer (recovery/classify/override.ts).
 * @returns a frozen `ToolFailure` that validates against `toolFailureSchema()`. Rules: http.ts (statuses,
 *   Retry-After, rate limits, 401/403), protocols/ (protocols' code tables: SQLSTATE, gRPC, SMTP, FTP, LDAP, MQTT,
 *   AMQP, IMAP, SFTP, GraphQL, errno, …) and dialects/ (client libraries' own codes), network.ts (before vs after
 *   the request was sent), words.ts, zod.ts, thrown.ts (one pass over a thrown error's facts).
 *   Never throws on any error, body or headers: what no rule recognises is `unrecoverable/tool_bug`.
 * @throws ClassifyError `invalid_context` when `ctx` fails `callContextSchema()` (names the field);
 *   `invalid_outcome` when `raw` is not an `http` or `thrown` envelope; `not_a_failure` for a 2xx HTTP answer
 *   (a success is not classified: check `isFailureOutcome(raw)` first, and validate a 2xx body with
 *   `validateResult`).
 */
export function classify(raw: RawOutcome, ctx: CallContext, toolClassifier?: ToolClassifier): ToolFailure {
  const c = parseCallContext(ctx);
  const kind = readProp(raw, 'kind');
  if (kind !== 'http' && kind !== 'thrown') {
    throw new ClassifyError(ClassifyErrorCode.INVALID_OUTCOME, "classify: raw.kind must be 'http' or 'thrown'");
  }
  const status = readProp(raw, 'status');
  if (kind === 'http' && typeof status === 'number' && Number.isInteger(status) && status >= 200 && status <= 299) {
    throw new ClassifyError(
      ClassifyErrorCode.NOT_A_FAILURE,
      `classify: HTTP ${status} is a success, not a failure; validate its body with validateResult`,
    );
  }
  let builtIn: ToolFailure;
  try {
    if (kind === 'http') {
      builtIn = classifyHttp(
        typeof status === 'number' ? status : Number.NaN,
        readProp(raw, 'headers'),
        readProp(raw, 'body'),
        c,
      );
    } else {
      const sent = readProp(raw, 'requestSent');
      builtIn = classifyThrown(readProp(raw, 'error'), typeof sent === 'boolean' ? sent : undefined, c);
    }
  } catch {
    // Defence in depth: the rules read through never-throwing readers; should one still throw, the input is a
    // tool bug, not a crash of the run.
    builtIn = toolBugFailure(undefined, undefined, c);
  }
  return toolClassifier === undefined ? builtIn : applyToolClassifier(raw, c, builtIn, toolClassifier);
}
