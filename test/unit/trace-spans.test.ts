/**
 * The pieces of the traces, without a server: the documented `error.type` list and attribute namespace
 * (recovery/trace-attributes.ts), the worker side of the trace sink (plugin/trace-sinks.ts: parents, times, status,
 * a malformed entry skipped) and the workflow side's read of the active span (workflows/trace-sinks.ts), with the
 * real OpenTelemetry SDK and its in-memory exporter.
 */
import { context, trace } from '@opentelemetry/api';
import { createTracing } from '../../activities/tracing/tracing';
import { emitGroup } from '../../plugin/trace-sinks';
import { FAILURE_CLASSES, type ToolFailure } from '../../recovery/failure';
import type { RecoveryRecord } from '../../recovery/records';
import { ERROR_TYPES, failureAttributes, guardrailAttributes, recordAttributes } from '../../recovery/trace-attributes';
import { activeTraceParent } from '../../workflows/trace-sinks';
import { spanShapes, testOtel } from '../fixtures/otel';

const otel = testOtel();
const tracing = createTracing({ tracerProvider: otel.tracerProvider, meterProvider: otel.meterProvider })!;
beforeEach(() => otel.exporter.reset());
/** Workflow time, ms since the epoch (OpenTelemetry's SDK reads a small number as `performance.now()` time). */
const T = Date.parse('2026-05-01T00:00:00Z');

const FAILURE: ToolFailure = {
  tool: 'pay',
  callId: 'c1',
  class: 'transient',
  reason: 'rate_limited',
  phase: 'dispatch',
  retryable: true,
  replaySafe: true,
  retryAfterMs: 2000,
  publicMessage: 'The service asked to wait 2 s.',
  diagnosticRef: 'wf/1/1',
  status: 429,
};

test('error.type: the nine failure classes, then _OTHER; every attribute is gen_ai.*, error.type, http.* or recovery_router.*', () => {
  expect(ERROR_TYPES).toEqual([...FAILURE_CLASSES, '_OTHER']);
  expect(ERROR_TYPES).toHaveLength(10);
  const record: RecoveryRecord = {
    callId: 'c1',
    tool: 'pay',
    turn: 1,
    class: 'outcome_unknown',
    reason: 'timeout',
    phase: 'commit_unknown',
    action: 'escalate',
    evidence: 'state_verified',
    attempts: 2,
    activities: 3,
    budgetsLeft: { retries: 1, replans: 2, repairs: 2, runAttempts: 40 },
    terminal: 'escalated',
    durationMs: 5,
    reconciled: 'lookup',
  };
  const keys = [...Object.keys(failureAttributes(FAILURE)), ...Object.keys(recordAttributes(record))];
  for (const k of keys) expect(k).toMatch(/^(gen_ai\.|error\.type$|http\.|recovery_router\.)/);
  expect(failureAttributes(FAILURE)).toEqual({
    'error.type': 'transient',
    'recovery_router.action': 'retry',
    'recovery_router.reason': 'rate_limited',
    'recovery_router.phase': 'dispatch',
    'recovery_router.retryable': true,
    'recovery_router.replay_safe': true,
    'recovery_router.retry_after_ms': 2000,
    'http.response.status_code': 429,
  });
  expect(recordAttributes(record)).toMatchObject({
    'error.type': 'outcome_unknown',
    'recovery_router.action': 'escalate',
    'recovery_router.budget_left.retries': 1,
    'recovery_router.reconciled_by': 'lookup',
  });
  expect(recordAttributes({ ...record, terminal: 'succeeded' })).toMatchObject({
    'recovery_router.recovered_from': 'outcome_unknown',
  });
  expect(recordAttributes({ ...record, terminal: 'succeeded' })['error.type']).toBeUndefined();
  // No operation id, the write's idempotency key, on any span (issue 36): the call is named by its call id.
  expect(Object.keys(recordAttributes(record)).filter((k) => /operation_id|idempotency/.test(k))).toEqual([]);
});

test('guardrailAttributes: the GenAI "Apply guardrail" attributes, the verdict apart from the action', () => {
  expect(
    guardrailAttributes('change_before_retry', 'c1', { allow: false, reason: 'no_new_evidence', action: 'repair' }),
  ).toEqual({
    'gen_ai.operation.name': 'apply_guardrail',
    'gen_ai.guardian.name': 'change_before_retry',
    'gen_ai.security.target.type': 'tool_call',
    'gen_ai.security.target.id': 'c1',
    'gen_ai.security.decision.type': 'deny',
    'gen_ai.security.decision.reason': 'no_new_evidence',
    'recovery_router.action': 'repair',
  });
  expect(
    guardrailAttributes('human_approval', 'c2', { allow: true, reason: 'approved', action: 'request_approval' }),
  ).toEqual({
    'gen_ai.operation.name': 'apply_guardrail',
    'gen_ai.guardian.name': 'human_approval',
    'gen_ai.security.target.type': 'tool_call',
    'gen_ai.security.target.id': 'c2',
    'gen_ai.security.decision.type': 'allow',
    'recovery_router.action': 'request_approval',
  });
});

test('emitGroup: the workflow’s times, the group’s parent, children under their span; ERROR with its message and event', () => {
  const parent = { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: 1 };
  emitGroup(tracing, {
    parent,
    spans: [
      {
        name: 'recover pay',
        startMs: T + 1_000,
        endMs: T + 4_000,
        attributes: { k: 1 },
        parent: -1,
        error: { type: 'transient', message: 'wait' },
      },
      { name: 'retry_wait pay', startMs: T + 2_000, endMs: T + 3_000, attributes: {}, parent: 0 },
      { name: 42 as unknown as string, startMs: 1, endMs: 2, attributes: {}, parent: -1 },
      { name: 'replan pay', startMs: T + 500, endMs: T + 1_000, attributes: {}, parent: -1 },
    ],
  });
  const spans = otel.exporter.getFinishedSpans();
  expect(spanShapes(spans)).toEqual([
    { name: 'recover pay', parent: '(remote)', attributes: { k: 1 }, status: 2 },
    { name: 'retry_wait pay', parent: 'recover pay', attributes: {}, status: 0 },
    { name: 'replan pay', parent: '(remote)', attributes: {}, status: 0 },
  ]);
  expect(spans.map((s) => [s.spanContext().traceId, s.startTime[0], s.endTime[0]])).toEqual([
    [parent.traceId, T / 1000 + 1, T / 1000 + 4],
    [parent.traceId, T / 1000 + 2, T / 1000 + 3],
    [parent.traceId, T / 1000, T / 1000 + 1], // + 500 ms: the same second
  ]);
  expect(spans[0]!.parentSpanId).toBe(parent.spanId);
  expect(spans[0]!.status.message).toBe('wait');
  expect(spans[0]!.events.map((e) => [e.name, e.attributes])).toEqual([
    ['gen_ai.client.operation.exception', { 'exception.type': 'transient', 'exception.message': 'wait' }],
  ]);
});

test('emitGroup without a parent: the first span is the root of a trace of its own', () => {
  emitGroup(tracing, { spans: [{ name: 'recover pay', startMs: 1, endMs: 2, attributes: {}, parent: -1 }] });
  expect(otel.exporter.getFinishedSpans().map((s) => s.parentSpanId)).toEqual([undefined]);
});

test('activeTraceParent reads the active span of the registered OpenTelemetry API, and nothing outside one', () => {
  expect(activeTraceParent()).toBeUndefined();
  const span = otel.tracerProvider.getTracer('t').startSpan('workflow');
  const seen = context.with(trace.setSpan(context.active(), span), () => activeTraceParent());
  span.end();
  expect(seen).toEqual({ traceId: span.spanContext().traceId, spanId: span.spanContext().spanId, traceFlags: 1 });
});
