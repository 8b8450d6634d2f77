/**
 * A call's spans from workflow code (docs/observability.md, "Spans"): the steps of its recovery that run in the
 * workflow (an approval wait, a reconciliation, a workflow-side retry wait) are kept on the call's scope as they
 * end, and handed to the trace sink with the call's own span when its recovery record is written:
 *
 *   recover {tool}                             the call, from its start to its record; status ERROR unless it succeeded
 *   ├─ apply_guardrail human_approval          a 403 a person could lift, until the decision (allow or deny)
 *   ├─ apply_guardrail change_before_retry     the gate's verdict on running the same call again
 *   ├─ reconcile {tool}                        an unknown outcome, until it was settled
 *   └─ retry_wait {tool}                       the backoff before a workflow-side retry
 *   replan {tool}             the planner's time after a replan, before this call started (beside `recover`)
 *
 * A call that succeeded at its first attempt, with no replan before it, emits nothing (the happy path makes no sink
 * call). Sandbox-safe; no randomness, no command.
 */
import type { ToolFailure } from '../../recovery/failure';
import type { RecoveryRecord } from '../../recovery/records';
import { guardrailAttributes, recordAttributes, RecoveryAttr, GenAiAttr } from '../../recovery/trace-attributes';
import type { Guardian, TraceAttributes, Verdict } from '../../recovery/trace-attributes';
import { activeTraceParent, traces, type WorkflowSpan } from '../trace-sinks';
import type { CallScope } from './context';

/** A step of a call's recovery: a child of the call's span. */
export type TraceStep = Omit<WorkflowSpan, 'parent'>;

/** Keeps a finished step of the call's recovery (`startMs` to now, workflow time). */
export function traceStep(scope: CallScope, kind: string, startMs: number, attributes: TraceAttributes = {}): void {
  const step: TraceStep = {
    name:
      kind === 'apply_guardrail'
        ? `${kind} ${String(attributes[GenAiAttr.GUARDIAN_NAME])}`
        : `${kind} ${scope.shownName}`,
    startMs,
    endMs: Date.now(),
    attributes: { [GenAiAttr.TOOL_NAME]: scope.shownName, ...attributes },
  };
  (scope.traceSteps ??= []).push(step);
}

/** Keeps a guardrail's verdict on this call, judged now: `apply_guardrail {guardian}` (gen-ai-security.md). */
export function guardrailStep(scope: CallScope, guardian: Guardian, verdict: Verdict, startMs = Date.now()): void {
  const attributes = {
    [GenAiAttr.TOOL_NAME]: scope.shownName,
    ...guardrailAttributes(guardian, scope.callId, verdict),
  };
  (scope.traceSteps ??= []).push({ name: `apply_guardrail ${guardian}`, startMs, endMs: Date.now(), attributes });
}

/**
 * Emits the call's spans with its record `r` (its failure, when it ended with one, gives the status's message).
 * Nothing for a call that neither failed, recovered, nor followed a replan.
 */
export function emitCallSpans(scope: CallScope, r: RecoveryRecord, failure: ToolFailure | undefined): void {
  const spans: WorkflowSpan[] = [];
  if (scope.afterReplan && r.replanLatencyMs !== undefined) {
    spans.push({
      name: `replan ${scope.shownName}`,
      startMs: scope.afterReplan.atMs,
      endMs: scope.startedAtMs,
      attributes: { [GenAiAttr.TOOL_NAME]: scope.shownName, [RecoveryAttr.REPLAN_AFTER]: scope.afterReplan.class },
      parent: -1,
    });
  }
  const steps = scope.traceSteps ?? [];
  if (r.class !== undefined || r.action !== undefined || steps.length > 0) {
    const root = spans.length;
    const ended = r.terminal === 'succeeded' || r.class === undefined;
    spans.push({
      name: `recover ${scope.shownName}`,
      startMs: scope.startedAtMs,
      endMs: Date.now(),
      attributes: recordAttributes(r),
      ...(ended ? {} : { error: { type: r.class!, ...(failure ? { message: failure.publicMessage } : {}) } }),
      parent: -1,
    });
    for (const step of steps) spans.push({ ...step, parent: root });
  }
  if (spans.length === 0) return;
  const parent = activeTraceParent();
  traces.spans(parent ? { parent, spans } : { spans });
}
