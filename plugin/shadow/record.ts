/**
 * What shadow mode records for each failed attempt of a watched activity: one span `shadow {activityType}` (kind
 * INTERNAL, status ERROR, child of the active span: Temporal's `RunActivity:<type>` when its OpenTelemetry plugin
 * comes before this one in `plugins`), one count of `recovery_router.shadow.failures`, and one log line through the
 * activity's logger. Only public fields of the classification: no argument, result, error message or stack
 * (Temporal records the error itself, as it always does). Node-side only.
 */
import type { Context as ActivityContext } from '@temporalio/activity';
import { failureAttributes, GenAiAttr, RecoveryAttr, type TraceAttributes } from '../../recovery/trace-attributes';
import { SPAN_KIND_INTERNAL } from '../../activities/tracing/otel';
import type { Tracing } from '../../activities/tracing/tracing';
import { markFailed } from '../trace-sinks';
import type { Enforced, ShadowVerdict } from './decide';
import type { ShadowMode } from './options';

/** The one log line's message. */
export const SHADOW_LOG_MESSAGE = 'recovery router shadow';

/** One failed attempt, judged. */
export interface ShadowEntry {
  mode: ShadowMode;
  verdict: ShadowVerdict;
  enforced: Enforced | 'reconciled_applied' | 'reconciled_not_applied';
  /** The `nextRetryDelay` enforce set, ms. */
  nextRetryDelayMs?: number;
  /** When the attempt started, ms since the epoch. */
  startMs: number;
}

/** The attributes of an entry's span and log line. */
export function shadowAttributes(ctx: ActivityContext, e: ShadowEntry): TraceAttributes {
  const attributes: TraceAttributes = {
    ...failureAttributes(e.verdict.failure),
    [RecoveryAttr.ACTION]: e.verdict.action,
    [RecoveryAttr.MODE]: e.mode,
    [RecoveryAttr.ENFORCED]: e.enforced,
    [RecoveryAttr.EFFECT]: e.verdict.effect,
    [RecoveryAttr.ACTIVITY]: ctx.info.activityType,
    [RecoveryAttr.ATTEMPT]: ctx.info.attempt,
  };
  if (e.nextRetryDelayMs !== undefined) attributes[RecoveryAttr.NEXT_RETRY_DELAY_MS] = e.nextRetryDelayMs;
  return attributes;
}

/** Records `e` as a span, a metric and a log line. Never throws. */
export function recordShadow(ctx: ActivityContext, tracing: Tracing | undefined, e: ShadowEntry): void {
  try {
    const attributes = shadowAttributes(ctx, e);
    if (tracing) {
      const span = tracing.tracer.startSpan(`shadow ${ctx.info.activityType}`, {
        kind: SPAN_KIND_INTERNAL,
        startTime: e.startMs,
        attributes,
      });
      markFailed(span, e.verdict.failure.class, e.verdict.failure.publicMessage);
      span.end();
      tracing.shadowFailures.add(1, {
        [RecoveryAttr.ACTIVITY]: ctx.info.activityType,
        [GenAiAttr.ERROR_TYPE]: e.verdict.failure.class,
        [RecoveryAttr.ACTION]: e.verdict.action,
        [RecoveryAttr.MODE]: e.mode,
        [RecoveryAttr.ENFORCED]: e.enforced,
      });
    }
    ctx.log.warn(SHADOW_LOG_MESSAGE, { ...attributes, publicMessage: e.verdict.failure.publicMessage });
  } catch {
    // Recording must never change what the activity does.
  }
}
