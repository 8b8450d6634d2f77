/**
 * The one place a ToolFailure becomes a Temporal `ApplicationFailure` (failures are data in the core
 * and become ApplicationFailure only at the activity edge; Temporal owns retries, our code classifies and sets
 * `nextRetryDelay`).
 *
 * - `type` = the failure class, so the retry policy's `nonRetryableErrorTypes` can name classes; for a
 *   non-transient failure with a provider code, the business type instead (`InsufficientFundsError`; docs/DESIGN.md,
 *   "The failure record"; see `applicationFailureType`).
 * - `nonRetryable` = !(class transient and replay-safe).
 * - `nextRetryDelay` = the jittered backoff for this attempt, with `Retry-After` as its floor (recovery/backoff.ts).
 *   A Retry-After above `maxRetryAfterMs` is not waited for: the failure becomes non-retryable
 *   (`retry_after_too_long`) and routes as persistent for this run.
 * - `message` = `publicMessage`; `details` = [ToolFailure, FailureMeta]. Both are public by construction. The raw
 *   error, stack and headers go to the worker log under `diagnosticRef`, never into history.
 */
import { ApplicationFailure } from '@temporalio/common';
import { nextDelay, type BackoffPolicy } from '../recovery/backoff';
import { suggestedRule } from '../recovery/classify/suggested-rule';
import { isObjectLike, readProp, readString } from '../recovery/classify/safe';
import { errorTypeFor, FailureClass, FailureReason, type FailureMeta, type ToolFailure } from '../recovery/failure';

export type { FailureMeta };

interface LogLike {
  warn(message: string, attrs?: Record<string, unknown>): void;
}

export interface FailOptions {
  diagnostic: unknown;
  meta: FailureMeta;
  /** The activity attempt, 1-based. */
  attempt: number;
  backoff: BackoffPolicy;
  log: LogLike;
  /** Random source for jitter, in [0, 1). @default Math.random */
  random?: () => number;
}

/** Throws the ApplicationFailure for `failure`. @throws always. */
export function failWith(failure: ToolFailure, options: FailOptions): never {
  let final = failure;
  let nextRetryDelayMs: number | undefined;
  if (final.retryable) {
    const delay = nextDelay({
      retryNumber: options.attempt,
      retryAfterMs: final.retryAfterMs,
      policy: options.backoff,
      random: options.random ?? Math.random,
    });
    if (delay.kind === 'wait') nextRetryDelayMs = delay.delayMs;
    // Persistent for this run. An open circuit keeps its reason (telemetry counts breaker trips).
    else
      final = {
        ...final,
        retryable: false,
        reason: final.reason === FailureReason.CIRCUIT_OPEN ? final.reason : FailureReason.RETRY_AFTER_TOO_LONG,
      };
  }
  options.log.warn('tool call failed', {
    diagnosticRef: final.diagnosticRef,
    tool: final.tool,
    class: final.class,
    reason: final.reason,
    phase: final.phase,
    status: final.status,
    ...(final.fingerprint === undefined
      ? {}
      : { fingerprint: final.fingerprint, suggestedRule: suggestedRule(final.fingerprint) }),
    diagnostic: describe(options.diagnostic),
  });
  const thrown = ApplicationFailure.create({
    type: applicationFailureType(final),
    message: final.publicMessage,
    nonRetryable: !final.retryable,
    nextRetryDelay: nextRetryDelayMs,
    details: [final, { ...options.meta, attempt: options.attempt }],
  });
  // The stack would carry worker file paths into history (Failure.stack_trace); the log has it under diagnosticRef.
  thrown.stack = '';
  throw thrown;
}

/**
 * The `ApplicationFailure.type` (the table of every type: recovery/failure-types.ts): the provider's business type
 * when a non-transient failure carries a structured code (`422 {"code":"insufficient_funds"}` → an
 * `ApplicationFailure` with `nonRetryable: true` and type `InsufficientFundsError`; docs/DESIGN.md, "The failure
 * record"), else the failure class. Retrying stays governed by
 * `nonRetryable` (and a transient failure always keeps its class, which the retry policy's
 * `nonRetryableErrorTypes` leaves out); workflow code routes on `details[0]` (the ToolFailure), never on the type.
 */
export function applicationFailureType(failure: ToolFailure): string {
  if (failure.class === FailureClass.TRANSIENT || failure.code === undefined) return failure.class;
  return errorTypeFor(failure.code) ?? failure.class;
}

/** Causes followed into the log's description of an error; a cause chain that loops stops where it repeats. */
export const MAX_DESCRIBED_CAUSES = 8;
/** Longest text of the description kept per field, in characters. */
const MAX_DESCRIBED_CHARS = 4_000;

/**
 * Operator-only description of the raw error (may hold hosts, paths, stacks: it goes to the log, not history).
 * Total and bounded: reads through never-throwing readers (a throwing getter, a revoked Proxy), follows at most
 * `MAX_DESCRIBED_CAUSES` causes, stops at a cause seen before (`cause = itself`, a→b→a), cuts long texts.
 */
export function describe(diagnostic: unknown): unknown {
  const seen = new Set<unknown>();
  const one = (value: unknown, depth: number): unknown => {
    if (!isObjectLike(value)) return typeof value === 'string' ? cut(value) : safeScalar(value);
    if (seen.has(value)) return '[cause seen before]';
    seen.add(value);
    const cause = readProp(value, 'cause');
    return {
      name: cut(readString(value, 'name')),
      message: cut(readString(value, 'message')),
      stack: cut(readString(value, 'stack')),
      ...(cause === undefined
        ? {}
        : { cause: depth >= MAX_DESCRIBED_CAUSES ? '[more causes]' : one(cause, depth + 1) }),
    };
  };
  return one(diagnostic, 0);
}

function cut(text: string | undefined): string | undefined {
  return text === undefined || text.length <= MAX_DESCRIBED_CHARS ? text : `${text.slice(0, MAX_DESCRIBED_CHARS)}…`;
}

/** A scalar the log can carry: a symbol or a bigint as text, never throwing. */
function safeScalar(value: unknown): unknown {
  if (typeof value === 'symbol') return value.toString();
  if (typeof value === 'bigint') return `${value}n`;
  return typeof value === 'function' ? '[function]' : value;
}
