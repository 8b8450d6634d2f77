/**
 * A plugin workflow's result within `MAX_WORKFLOW_RESULT_BYTES` (recovery/bounds.ts; docs/DESIGN.md, "Bounds"): a
 * result over Temporal's payload limit fails the workflow task that completes the run, again and again, and the run
 * never ends. Each outcome's value is at most `MAX_RESULT_BYTES` already (the activity cuts it), but many of them
 * together may not fit: the largest values are replaced by a marker (`omittedValue`; a write's marker says it was
 * applied) until the result fits, then the oldest recovery records are dropped.
 * Sandbox-safe: pure, deterministic (the same outcomes give the same result on replay).
 */
import { MAX_WORKFLOW_RESULT_BYTES, measureJson, omittedValue } from '../recovery/bounds';
import type { RecoveryRecord } from '../recovery/records';
import type { ToolSpec } from '../recovery/tool-spec';
import type { ToolOutcome } from './tool-router-types';

/** What `toolPlanWorkflow` returns: every call's outcome (a value or the model's feedback) and the recovery records. */
export interface ToolPlanResult {
  outcomes: ToolOutcome[];
  records: RecoveryRecord[];
}

/** The JSON size of `value` in bytes; what cannot be measured counts as over any limit. */
function bytesOf(value: unknown): number {
  const m = measureJson(value);
  return m.kind === 'json' ? m.bytes : Number.POSITIVE_INFINITY;
}

/** `result` as it can be returned: unchanged when it fits `maxBytes`. */
export function boundedPlanResult(
  result: ToolPlanResult,
  catalog: readonly Pick<ToolSpec, 'name' | 'effect'>[],
  maxBytes: number = MAX_WORKFLOW_RESULT_BYTES,
): ToolPlanResult {
  let total = bytesOf(result);
  if (total <= maxBytes) return result;
  const outcomes = [...result.outcomes];
  const sized = outcomes
    .map((o, i) => ({ i, bytes: o.ok ? bytesOf(o.value) : 0 }))
    .filter((s) => s.bytes > 0)
    .sort((a, b) => b.bytes - a.bytes || a.i - b.i);
  const why = `the run's result would be over ${maxBytes} bytes`;
  for (const { i } of sized) {
    if (total <= maxBytes) break;
    const o = outcomes[i];
    if (!o?.ok) continue;
    const write = catalog.find((t) => t.name === o.tool)?.effect === 'write';
    const { reconciled, ...rest } = o;
    outcomes[i] = {
      ...rest,
      ended: 'value_omitted',
      value: omittedValue(why, Number.isFinite(bytesOf(o.value)) ? bytesOf(o.value) : undefined, write),
      ...(reconciled === 'marked_applied' || reconciled === 'already_satisfied' || !reconciled ? {} : { reconciled }),
    };
    total = bytesOf({ outcomes, records: result.records });
  }
  let records = result.records;
  while (total > maxBytes && records.length > 0) {
    records = records.slice(Math.ceil(records.length / 2));
    total = bytesOf({ outcomes, records });
  }
  return { outcomes, records };
}
