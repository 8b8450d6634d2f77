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

/** The first failure of a call that Temporal retried. */
export interface RetriedAfter {
  class: ToolFailure['class'];
  reason: ToolFailure['reason'];
}

const KEY = 'recoveryRouterRetriedAfter';

/** The first failure an earlier attempt recorded, or `undefined` (a total read of foreign details). */
export function retriedAfterOf(info: Pick<Info, 'attempt' | 'heartbeatDetails'>): RetriedAfter | undefined {
  if (info.attempt <= 1) return undefined;
  const details: unknown = info.heartbeatDetails;
  if (typeof details !== 'object' || details === null) return undefined;
  const v = (details as Record<string, unknown>)[KEY];
  if (typeof v !== 'object' || v === null) return undefined;
  const { class: cls, reason } = v as Record<string, unknown>;
  return isClass(cls) && isReason(reason) ? { class: cls, reason } : undefined;
}

/** Before a retryable failure leaves: records the call's first failure (an earlier attempt's, if any) for the next. */
export function rememberFirstFailure(activity: Context, failure: ToolFailure): void {
  if (!failure.retryable) return;
  activity.heartbeat({ [KEY]: retriedAfterOf(activity.info) ?? { class: failure.class, reason: failure.reason } });
}
