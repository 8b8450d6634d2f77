/**
 * Spans from workflow code (a call's recovery, an approval wait, a reconciliation, a replan), deterministic on
 * replay: workflow code cannot reach an OpenTelemetry SDK, so it hands each finished group of span data to a
 * Temporal sink (`proxySinks`, Temporal docs "Sinks"), and the worker turns them into spans (plugin/trace-sinks.ts).
 * The sink is registered with `callDuringReplay: false`, so the worker skips its calls while a history is replayed
 * (@temporalio/worker `Worker.processSinkCalls`: calls marked `isReplayingHistoryEvents` are dropped, and a replay
 * worker drops them all): a span is emitted once however often its workflow is replayed. Sink calls add no command
 * and no history event. Times are workflow time (`Date.now()` in workflow code), ms since the epoch.
 *
 * The parent: when Temporal's OpenTelemetry workflow interceptors run (@temporalio/interceptors-opentelemetry),
 * they register an OpenTelemetry API in the sandbox, whose active span is `RunWorkflow:<type>` (or the handler's
 * span); `activeTraceParent` reads its ids from the API's global registration, `Symbol.for('opentelemetry.js.api.1')`
 * and the context key `Symbol.for('OpenTelemetry Context Key SPAN')` (@opentelemetry/api, internal/global-utils.ts
 * and trace/context-utils.ts), without importing the API into the bundle and without using the workflow's
 * randomness. Without those interceptors, a group's first span is the root of a trace of its own.
 *
 * Sandbox-safe: types, `proxySinks` and a read of a global.
 */
import { proxySinks, type Sinks } from '@temporalio/workflow';
import type { OtelSpanContext } from '../activities/tracing/otel';
import type { TraceAttributes } from '../recovery/trace-attributes';

/** One span of a group. */
export interface WorkflowSpan {
  name: string;
  /** Workflow time, ms since the epoch. */
  startMs: number;
  endMs: number;
  attributes: TraceAttributes;
  /** Set when the span ended in an error: status ERROR with `message`, and the exception event of `type`. */
  error?: { type: string; message?: string };
  /** The index in the group of the parent span (always an earlier one), or -1 for the group's parent. */
  parent: number;
}

/** The W3C identity of the span the group hangs under: 32 and 16 lower-case hex digits, flags. */
export type TraceParent = Omit<OtelSpanContext, 'isRemote'>;

/** Spans emitted together, parents first. */
export interface WorkflowSpanGroup {
  /** The workflow's active span when the group was emitted; absent without Temporal's OpenTelemetry interceptors. */
  parent?: TraceParent;
  spans: WorkflowSpan[];
}

export interface RecoveryTraceSinks extends Sinks {
  recoveryTraces: {
    /** One group of finished spans. */
    spans(group: WorkflowSpanGroup): void;
  };
}

/** The sink proxy. */
export const traces = proxySinks<RecoveryTraceSinks>().recoveryTraces;

const OTEL_API_KEY = Symbol.for('opentelemetry.js.api.1');
const SPAN_KEY = Symbol.for('OpenTelemetry Context Key SPAN');
const TRACE_ID = /^[0-9a-f]{32}$/;
const SPAN_ID = /^[0-9a-f]{16}$/;

type ApiGlobal = { context?: { active?: () => { getValue?: (key: symbol) => unknown } } };
type SpanLike = { spanContext?: () => { traceId?: unknown; spanId?: unknown; traceFlags?: unknown } };

/**
 * The active span's ids in the sandbox's OpenTelemetry API, when Temporal's workflow interceptors registered one;
 * else undefined. Never throws.
 */
export function activeTraceParent(): TraceParent | undefined {
  try {
    const api = (globalThis as Record<symbol, ApiGlobal | undefined>)[OTEL_API_KEY];
    const span = api?.context?.active?.()?.getValue?.(SPAN_KEY) as SpanLike | undefined;
    const sc = span?.spanContext?.();
    if (!sc || typeof sc.traceId !== 'string' || typeof sc.spanId !== 'string') return undefined;
    if (!TRACE_ID.test(sc.traceId) || !SPAN_ID.test(sc.spanId) || /^0+$/.test(sc.traceId)) return undefined;
    return {
      traceId: sc.traceId,
      spanId: sc.spanId,
      traceFlags: typeof sc.traceFlags === 'number' ? sc.traceFlags : 0,
    };
  } catch {
    return undefined;
  }
}
