/**
 * A call's first retryable failure, carried across Temporal's own activity retries in the attempt's heartbeat
 * details (Temporal hands the last recorded details to the next attempt: `Info.heartbeatDetails`), so a call that
 * was retried and then succeeded is recorded with the class and reason it recovered from, not an unspecified one.
 * The plugin's own heartbeats carry no details; a tool that heartbeats details of its own cannot read them back
 * through its `ToolContext`, so nothing of the tool's is lost.
 * Node-side only.
 */
import type { Context, Info } from '@temporalio/activity';
import { isClass, isReason } from '../recovery/classify/override';
import type { ToolFailure } from '../recovery/failure';
import { isReplaySafe, type ToolSpec } from '../recovery/tool-spec';

/** The first failure of a call that Temporal retried. */
export interface RetriedAfter {
  class: ToolFailure['class'];
  reason: ToolFailure['reason'];
}

const KEY = 'recoveryRouterRetriedAfter';

/** The first failure an earlier attempt recorded, or `undefined` (a total read of foreign details). */
export function retriedAfterOf(info: Pick<Info, 'attempt' | 'heartbeatDetails'>): RetriedAfter | undefined {
  if (info.attempt <= 1) return undefined;
  const v = detailsOf(info)[KEY];
  if (typeof v !== 'object' || v === null) return undefined;
  const { class: cls, reason } = v as Record<string, unknown>;
  return isClass(cls) && isReason(reason) ? { class: cls, reason } : undefined;
}

/** Before a retryable failure leaves: records the call's first failure (an earlier attempt's, if any) for the next. */
export function rememberFirstFailure(activity: Context, failure: ToolFailure): void {
  if (!failure.retryable) return;
  const first = retriedAfterOf(activity.info) ?? { class: failure.class, reason: failure.reason };
  activity.heartbeat({ ...detailsOf(activity.info), [KEY]: first });
}

const SENDING = 'recoveryRouterSending';

/**
 * A write that is not replay-safe runs one attempt per activity (recovery/activity-options.ts), yet an operator can
 * start another: `temporal activity reset` (the attempt back to 1, heartbeat details kept) or `update-options` that
 * raises its attempts, after which a timeout is retried. Each attempt records that it is about to send before it
 * does (`markSending`); an attempt that finds that record, or runs as attempt > 1, does not send: an earlier one may
 * have (docs/DESIGN.md, "Phases"). A reset with `--reset-heartbeats` clears the record: the operator says it never
 * left.
 */
export const sendsOnce = (spec: ToolSpec) => spec.effect === 'write' && !isReplaySafe(spec);

/**
 * Records in the attempt's heartbeat details that it is about to send its write, and returns how the attempt
 * heartbeats from then on: every heartbeat replaces the details (a bare one clears them, verified on the dev server:
 * notes/lifecycle-probes), so the plugin's keep-alive and the tool's own (`ctx.heartbeat(details)`, as `tool`) keep
 * the record. @throws `refused()` when an earlier attempt may have sent it.
 */
export function markSending(activity: Context, refused: () => unknown): (details?: unknown) => void {
  if (activity.info.attempt > 1 || detailsOf(activity.info)[SENDING] === true) throw refused();
  const base = { ...detailsOf(activity.info), [SENDING]: true };
  const beat = (details?: unknown) => activity.heartbeat(details === undefined ? base : { ...base, tool: details });
  beat();
  return beat;
}

/** The plugin's heartbeat details of earlier attempts: a plain object, or `{}`. */
function detailsOf(info: Pick<Info, 'heartbeatDetails'>): Record<string, unknown> {
  const d: unknown = info.heartbeatDetails;
  return typeof d === 'object' && d !== null && !Array.isArray(d) ? { ...(d as Record<string, unknown>) } : {};
}
