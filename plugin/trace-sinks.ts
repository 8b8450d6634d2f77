/**
 * The worker side of the `recoveryTraces` sink (workflows/trace-sinks.ts): each group of span data from workflow
 * code becomes spans of the plugin's tracer, with the workflow's times, under the workflow's active span when the
 * group names one (Temporal's `RunWorkflow:<type>`). Registered with `callDuringReplay: false`: a replayed history
 * emits nothing again. Without tracing the sink is registered all the same, as a no-op, so a worker never logs
 * "Workflow referenced an unregistered external sink". Node-side only.
 */
import type { InjectedSinks } from '@temporalio/worker';
import { SPAN_KIND_INTERNAL, STATUS_ERROR, type OtelSpan } from '../activities/tracing/otel';
import { EXCEPTION_EVENT } from '../activities/tracing/tool-span';
import type { Tracing } from '../activities/tracing/tracing';
import type { RecoveryTraceSinks, WorkflowSpanGroup } from '../workflows/trace-sinks';

/** The `recoveryTraces` sink: spans through `tracing`, or nothing. */
export function traceSinks(tracing: Tracing | undefined): InjectedSinks<RecoveryTraceSinks> {
  const fn = tracing ? (_info: unknown, group: WorkflowSpanGroup) => emitGroup(tracing, group) : () => undefined;
  return { recoveryTraces: { spans: { fn, callDuringReplay: false } } };
}

/** Starts and ends each span of `group`, parents first. A malformed entry is skipped, never thrown. */
export function emitGroup(tracing: Tracing, group: WorkflowSpanGroup): void {
  const { api, tracer } = tracing;
  const root = group.parent
    ? api.trace.setSpanContext(api.ROOT_CONTEXT, { ...group.parent, isRemote: true })
    : api.ROOT_CONTEXT;
  const contexts: unknown[] = [];
  for (const s of Array.isArray(group.spans) ? group.spans : []) {
    if (typeof s?.name !== 'string' || !Number.isFinite(s.startMs) || !Number.isFinite(s.endMs)) {
      contexts.push(root);
      continue;
    }
    const parent = s.parent >= 0 && s.parent < contexts.length ? contexts[s.parent] : root;
    const span = tracer.startSpan(
      s.name,
      { kind: SPAN_KIND_INTERNAL, startTime: s.startMs, attributes: s.attributes ?? {} },
      parent,
    );
    if (s.error) markFailed(span, s.error.type, s.error.message, s.endMs);
    span.end(Math.max(s.startMs, s.endMs));
    contexts.push(api.trace.setSpan(root, span));
  }
}

/** Marks `span` failed: status ERROR and the exception event of `type` and `message` (when given), at `atMs` (now). */
export function markFailed(span: OtelSpan, type: string, message: string | undefined, atMs?: number): void {
  const said: Record<string, string> = message ? { 'exception.message': message } : {};
  span.setStatus({ code: STATUS_ERROR, ...(message ? { message } : {}) });
  span.addEvent(EXCEPTION_EVENT, { 'exception.type': type, ...said }, atMs);
}
