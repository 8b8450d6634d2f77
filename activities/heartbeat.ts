/**
 * One heartbeat helper for every activity of the plugin. Temporal delivers a cancellation to an activity only in
 * a heartbeat's response, and notices a lost worker only by a missed heartbeat (Temporal docs, "Activity
 * heartbeats"): an activity that may run long heartbeats every third of its heartbeat timeout.
 * Node-side only.
 */
import type { Context } from '@temporalio/activity';

/** Floor on the interval, in ms. */
export const MIN_HEARTBEAT_INTERVAL_MS = 100;

/**
 * Heartbeats `ctx` every third of its heartbeat timeout (`ctx.info.heartbeatTimeoutMs`), or every `fallbackMs` when
 * the activity has none, until the returned `stop()` is called, with `beat` (a bare heartbeat by default). With
 * `fallbackMs` 0 and no heartbeat timeout it does nothing.
 * @returns stop: clears the timer; safe to call twice.
 */
export function keepHeartbeating(ctx: Context, fallbackMs = 0, beat: () => void = () => ctx.heartbeat()): () => void {
  const timeoutMs = ctx.info.heartbeatTimeoutMs;
  const everyMs = timeoutMs ? Math.floor(timeoutMs / 3) : fallbackMs;
  if (!everyMs) return () => undefined;
  const timer = setInterval(beat, Math.max(MIN_HEARTBEAT_INTERVAL_MS, everyMs));
  return () => clearInterval(timer);
}
