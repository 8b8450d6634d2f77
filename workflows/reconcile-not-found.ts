/**
 * When a reconciliation may believe a lookup's "not found" and replay the write (docs/DESIGN.md, "Reconcile"): a
 * single `not_applied` is not a terminal state while the first request can still commit or the lookup can still be
 * behind. Payment providers answer the same way: an operation still "in progress" is outcome-unknown, never absent.
 * Sandbox-safe.
 */
import { patched } from '@temporalio/workflow';
import { FailureReason, type ToolFailure } from '../recovery/failure';
import { isReplaySafe, notFoundFinalAfterMs, type ToolSpec } from '../recovery/tool-spec';

/** The patch id of the rule that a "not found" is final only once nothing can still make the write land. */
export const NOT_FOUND_FINALITY_PATCH = 'recovery-router:not-found-finality';

export const NOT_FOUND_NOT_FINAL =
  'The lookup found no record of the write, but that is not final: the first request may still commit, or the lookup may be behind. A person must decide; nothing was replayed.';

export const ACCEPTED_NOT_FINAL =
  'The service accepted the write (a 2xx answer, such as 202 Accepted), so its lookup\'s "not applied" is not final: the operation may still complete. A person must decide; nothing was replayed.';

/**
 * May this `not_applied` (the `streak`-th in a row) be believed, so the write is replayed (docs/DESIGN.md,
 * "Reconcile": replay only when the first attempt can no longer commit)? For a write that is not replay-safe: only
 * when the tool declares its settle time and its lookup's lag (`notFoundFinalAfterMs`), that time has passed since
 * this reconciliation began (after the attempt's failure reached the workflow), and a second lookup in a row agrees —
 * one "not found" may be a lookup that lags or flaps. Until then `not_yet`, with when to look again; undeclared:
 * `never`. A run recorded before this rule keeps its old answer (a `patched` marker, Temporal docs "Patching").
 * A write the service accepted (reason `accepted`: a 2xx such as 202) is never resent blind: "not applied" is final
 * only when terminal for the operation, which the router cannot tell (a job that reads "failed" may be retried by its
 * service), so `never` unless the receiver deduplicates. No history recorded before holds that reason.
 */
export function notFoundFinality(
  spec: ToolSpec,
  startedAtMs: number,
  streak: number,
  failure: Pick<ToolFailure, 'reason'>,
): { kind: 'final' } | { kind: 'never' } | { kind: 'not_yet'; lookAgainAtMs: number } {
  const afterMs = notFoundFinalAfterMs(spec);
  if (failure.reason === FailureReason.ACCEPTED && !isReplaySafe(spec)) return { kind: 'never' };
  if (afterMs === 0 || !patched(NOT_FOUND_FINALITY_PATCH)) return { kind: 'final' };
  if (afterMs === undefined) return { kind: 'never' };
  const finalAtMs = startedAtMs + afterMs;
  if (Date.now() >= finalAtMs && streak >= 2) return { kind: 'final' };
  return { kind: 'not_yet', lookAgainAtMs: finalAtMs };
}
