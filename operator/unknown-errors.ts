/**
 * An unknown error costs one decision, once (docs/DESIGN.md, "Facts, not libraries": unknown is not a bug). What the
 * router recorded in a namespace's histories is read back: the failures of its `invokeTool` activities (each
 * `ApplicationFailure`'s `details[0]` is the ToolFailure, which carries the fingerprint of an error no fact spoke for)
 * and, as the shadow report judges them (operator/shadow-report-history.ts), the failures of other activities. The
 * unknown ones are grouped by fingerprint — how many, which tools, a few samples — each with the rule to add. A person
 * accepts one (`acceptedRule`): it becomes a `classify.rules` entry of temporal.config.json, printed to paste or
 * written on an explicit `--write` (`configWithRule`), reviewed and versioned with the file, never applied silently.
 * Node-side only.
 */
import { defaultPayloadConverter } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';
import { parseConfigObject } from '../config/load';
import { classifyRuleSchema, type ClassifyRule } from '../recovery/classify/rules';
import { suggestedRule } from '../recovery/classify/suggested-rule';
import type { ToolFailure } from '../recovery/failure';
import type { ActivityExecution } from './shadow-report-history';

type Event = temporal.api.history.v1.IHistoryEvent;

/** One failure of an unknown error: where it happened and what the model was told (never the raw error). */
export interface UnknownSample {
  fingerprint: string;
  workflowId: string;
  /** The tool, or the activity type of an activity that is not a tool. */
  tool: string;
  class: string;
  message: string;
}

/** A fingerprint of errors no rule recognised: its count, tools, at most 3 samples, and the rule to add. */
export interface UnknownError {
  fingerprint: string;
  count: number;
  tools: string[];
  samples: Sample[];
  /** The `classify.rules` entry to complete (its class and reason) and paste. */
  rule: string;
}

/** One occurrence of an unknown error: an `UnknownSample` without the fingerprint its group already names. */
type Sample = Omit<UnknownSample, 'fingerprint'>;

/** The samples of unknown errors in the router's own `invokeTool` failures of one history. */
export function routerUnknowns(workflowId: string, events: readonly Event[]): UnknownSample[] {
  const tools = new Set<string>();
  const out: UnknownSample[] = [];
  for (const e of events) {
    const scheduled = e.activityTaskScheduledEventAttributes;
    if (scheduled?.activityType?.name === 'invokeTool') tools.add(String(e.eventId ?? ''));
    const failed = e.activityTaskFailedEventAttributes;
    if (!failed || !tools.has(String(failed.scheduledEventId ?? ''))) continue;
    out.push(...samplesOf(toolFailureOf(failed.failure), workflowId));
  }
  return out;
}

/** The sample of a failure that carries a fingerprint (no fact spoke for its error); none for any other. */
function samplesOf(f: ToolFailure | undefined, workflowId: string, tool = f?.tool ?? ''): UnknownSample[] {
  if (!f?.fingerprint) return [];
  return [{ fingerprint: f.fingerprint, workflowId, tool, class: f.class, message: f.publicMessage }];
}

/** The ToolFailure an `invokeTool` failure carries (`details[0]`), or `undefined`. */
function toolFailureOf(failure: temporal.api.failure.v1.IFailure | null | undefined): ToolFailure | undefined {
  const payload = failure?.applicationFailureInfo?.details?.payloads?.[0];
  if (!payload) return undefined;
  try {
    const value = defaultPayloadConverter.fromPayload<ToolFailure>(payload);
    return typeof value === 'object' && value !== null && typeof value.fingerprint === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The samples of unknown errors among activity executions the shadow report judged. */
export function shadowUnknowns(executions: readonly ActivityExecution[]): UnknownSample[] {
  return executions.flatMap((x) => samplesOf((x.final ?? x.retried)?.failure, x.workflowId, x.activityType));
}

/** Samples grouped by fingerprint, the most frequent first. */
export function groupUnknowns(samples: readonly UnknownSample[]): UnknownError[] {
  const by = new Map<string, UnknownError>();
  for (const s of samples) {
    const { fingerprint, ...sample } = s;
    const u = by.get(fingerprint) ?? {
      fingerprint,
      count: 0,
      tools: [],
      samples: [],
      rule: suggestedRule(fingerprint),
    };
    u.count += 1;
    if (!u.tools.includes(s.tool)) u.tools.push(s.tool);
    if (u.samples.length < 3) u.samples.push(sample);
    by.set(fingerprint, u);
  }
  return [...by.values()].sort((a, b) => b.count - a.count || a.fingerprint.localeCompare(b.fingerprint));
}

/** The unknown errors as the command prints them: one block per fingerprint. */
export function unknownErrorsText(unknown: readonly UnknownError[]): string {
  if (unknown.length === 0) return 'no error went unrecognised';
  return unknown
    .map((u) =>
      [
        `${u.fingerprint}  ${u.count}×  ${u.tools.join(', ')}`,
        ...u.samples.map((s) => `  ${s.workflowId}  ${s.class}  ${s.message}`),
        `  rule: ${u.rule}`,
        `  accept: recovery-router rules accept ${u.fingerprint} --class <class> [--reason <reason>] [--applied no]`,
      ].join('\n'),
    )
    .join('\n\n');
}

/**
 * The `classify.rules` entry a person accepted for `fingerprint`.
 * @throws Error naming the field when the rule is not valid (an unknown class or reason, a malformed fingerprint).
 */
export function acceptedRule(
  fingerprint: string,
  o: { class: string; reason?: string; applied?: string },
): ClassifyRule {
  const rule = {
    match: { fingerprint },
    class: o.class,
    ...(o.reason === undefined ? {} : { reason: o.reason }),
    ...(o.applied === undefined ? {} : { applied: o.applied }),
  };
  const r = classifyRuleSchema().safeParse(rule);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  throw new Error(`rule ${issue?.path.join('.') || '(rule)'}: ${issue?.message ?? 'invalid'}`);
}

/**
 * `config` (temporal.config.json's object) with `rule` appended to `classify.rules`, checked as the plugin checks it.
 * @throws ConfigError naming the path when the result is not a valid configuration.
 */
export function configWithRule(config: Record<string, unknown>, rule: ClassifyRule, file: string): object {
  const classify = (config.classify ?? {}) as { rules?: unknown[] };
  const next = { ...config, classify: { ...classify, rules: [...(classify.rules ?? []), rule] } };
  parseConfigObject(next, file);
  return next;
}
