/**
 * One span per tool activity attempt, as the GenAI semantic conventions name it (gen-ai-spans.md, "Execute tool
 * span"): `execute_tool {gen_ai.tool.name}`, kind INTERNAL, child of the active span (Temporal's
 * `RunActivity:invokeTool` when the worker runs Temporal's OpenTelemetry plugin, @temporalio/interceptors-opentelemetry).
 *
 * A failure the activity edge returns (an `ApplicationFailure` whose `details[0]` is the ToolFailure,
 * activities/failure-edge.ts) sets status ERROR — a failure returned as data would otherwise leave the span UNSET —
 * with `publicMessage` as its description, `error.type` = the class, the `recovery_router.*` attributes of the
 * route, and the event `gen_ai.client.operation.exception` (gen-ai-exceptions.md; type and message, no stack).
 * Any other error: status ERROR, `error.type` `_OTHER`, no description (its text is not public). Every attempt
 * records `gen_ai.execute_tool.duration` (s). Node-side only.
 */
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { toolFailureSchema, type ToolFailure } from '../../recovery/failure';
import {
  failureAttributes,
  GenAiAttr,
  OTHER_ERROR_TYPE,
  RecoveryAttr,
  type TraceAttributes,
} from '../../recovery/trace-attributes';
import { SPAN_KIND_INTERNAL, STATUS_ERROR, type OtelSpan } from './otel';
import type { Tracing } from './tracing';

/** The event the conventions name for an exception of a GenAI operation (gen-ai-exceptions.md). */
export const EXCEPTION_EVENT = 'gen_ai.client.operation.exception';

/**
 * The tool activity with a span per attempt; it returns or throws what the activity does. `breakerState(tool)` reads
 * the state of the tool's downstream circuit after the attempt (`closed`, `open`, `half_open`, `isolated`).
 */
export function tracedToolActivity<I extends { tool: string; callId: string }, O>(
  activity: (inv: I) => Promise<O>,
  tracing: Tracing,
  breakerState: (tool: string) => string,
): (inv: I) => Promise<O> {
  return (inv) => {
    const started = performance.now();
    const base: TraceAttributes = {
      [GenAiAttr.OPERATION_NAME]: 'execute_tool',
      [GenAiAttr.TOOL_NAME]: inv.tool,
      [GenAiAttr.TOOL_TYPE]: 'function',
    };
    const attributes: TraceAttributes = {
      ...base,
      [GenAiAttr.TOOL_CALL_ID]: inv.callId,
      [RecoveryAttr.ATTEMPT]: Context.current().info.attempt,
    };
    return tracing.tracer.startActiveSpan(
      `execute_tool ${inv.tool}`,
      { kind: SPAN_KIND_INTERNAL, attributes },
      async (span) => {
        let errorType: string | undefined;
        try {
          return await activity(inv);
        } catch (err) {
          errorType = describeFailure(span, err);
          throw err;
        } finally {
          span.setAttribute(RecoveryAttr.BREAKER_STATE, safely(() => breakerState(inv.tool)) ?? 'unknown');
          span.end();
          const seconds = (performance.now() - started) / 1000;
          tracing.toolDuration.record(seconds, errorType ? { ...base, [GenAiAttr.ERROR_TYPE]: errorType } : base);
        }
      },
    );
  };
}

/** Marks `span` failed by `err`; returns its `error.type`. */
function describeFailure(span: OtelSpan, err: unknown): string {
  const failure = toolFailureOf(err);
  if (!failure) {
    span.setAttribute(GenAiAttr.ERROR_TYPE, OTHER_ERROR_TYPE);
    span.setStatus({ code: STATUS_ERROR });
    span.addEvent(EXCEPTION_EVENT, { 'exception.type': OTHER_ERROR_TYPE });
    return OTHER_ERROR_TYPE;
  }
  const thrown = err as ApplicationFailure;
  const attributes = failureAttributes(failure);
  const delay = thrown.nextRetryDelay;
  if (typeof delay === 'number') attributes[RecoveryAttr.NEXT_RETRY_DELAY_MS] = delay;
  span.setAttributes(attributes);
  span.setStatus({ code: STATUS_ERROR, message: failure.publicMessage });
  span.addEvent(EXCEPTION_EVENT, {
    'exception.type': thrown.type ?? failure.class,
    'exception.message': failure.publicMessage,
  });
  return failure.class;
}

/** The ToolFailure the activity edge put in `details[0]`, when `err` is such an ApplicationFailure. */
export function toolFailureOf(err: unknown): ToolFailure | undefined {
  if (!(err instanceof ApplicationFailure)) return undefined;
  const parsed = toolFailureSchema().safeParse(err.details?.[0]);
  return parsed.success ? parsed.data : undefined;
}

function safely(read: () => string): string | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}
