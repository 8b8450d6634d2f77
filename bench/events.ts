/**
 * What a run left in history, and the property the issue holds the plugin to: the subject's history has exactly
 * the events a bare activity's has — no markers, timers or extra activity events from the router.
 */
import { temporal } from '@temporalio/proto';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/** Names of the history's event types, e.g. `ACTIVITY_TASK_SCHEDULED`. */
export function eventTypes(events: readonly HistoryEvent[]): string[] {
  return events.map((e) =>
    (temporal.api.enums.v1.EventType[e.eventType ?? 0] ?? 'UNKNOWN').replace(/^EVENT_TYPE_/, ''),
  );
}

/** Where a run's time went, from the server's event timestamps, in ms. */
export interface Phases {
  /** First workflow task, started → completed: the workflow code up to scheduling the activity. */
  firstWorkflowTaskMs: number;
  /** The (last attempt of the) activity, started → completed. */
  activityMs: number;
  /** Last workflow task, started → completed: the workflow code after the activity's result. */
  lastWorkflowTaskMs: number;
}

/** @throws Error when the history lacks a workflow task or activity that started and completed. */
export function phases(events: readonly HistoryEvent[]): Phases {
  const types = eventTypes(events);
  const atMs = (i: number): number => {
    const t = events[i]?.eventTime;
    return Number(t?.seconds ?? 0) * 1000 + (t?.nanos ?? 0) / 1e6;
  };
  const span = (start: string, end: string, last: boolean): number => {
    const from = last ? types.lastIndexOf(start) : types.indexOf(start);
    const to = types.indexOf(end, from);
    if (from < 0 || to < 0) throw new Error(`history has no ${start} followed by ${end}`);
    return atMs(to) - atMs(from);
  };
  return {
    firstWorkflowTaskMs: span('WORKFLOW_TASK_STARTED', 'WORKFLOW_TASK_COMPLETED', false),
    activityMs: span('ACTIVITY_TASK_STARTED', 'ACTIVITY_TASK_COMPLETED', true),
    lastWorkflowTaskMs: span('WORKFLOW_TASK_STARTED', 'WORKFLOW_TASK_COMPLETED', true),
  };
}

/** Size of the encoded history, payloads included, in bytes. */
export function historyBytes(history: temporal.api.history.v1.IHistory): number {
  return temporal.api.history.v1.History.encode(history).finish().length;
}

/** The attempt of each started activity (server-side retries are not separate events; the attempt number says). */
export function activityAttempts(events: readonly HistoryEvent[]): number[] {
  return events.flatMap((e) =>
    e.activityTaskStartedEventAttributes ? [e.activityTaskStartedEventAttributes.attempt ?? 1] : [],
  );
}

/** One distinct sequence of event types and how many runs left it. */
export interface SequenceCount {
  count: number;
  runs: number;
  types: string[];
}

/** The distinct sequences, most frequent first. */
export function distinctSequences(runs: readonly (readonly string[])[]): SequenceCount[] {
  const byKey = new Map<string, SequenceCount>();
  for (const types of runs) {
    const key = types.join(',');
    const seen = byKey.get(key);
    if (seen) seen.runs += 1;
    else byKey.set(key, { count: types.length, runs: 1, types: [...types] });
  }
  return [...byKey.values()].sort((a, b) => b.runs - a.runs);
}

const FORBIDDEN = /^(MARKER_RECORDED|TIMER_)/;

/**
 * Problems with the subject's histories, against the baseline's most frequent sequence. Empty when the property
 * holds: every subject run has no more events than the baseline, none of them a marker or timer, no more activity
 * events, and the subject's most frequent sequence is the baseline's, kind for kind.
 */
export function historyProblems(baseline: readonly SequenceCount[], subject: readonly SequenceCount[]): string[] {
  const reference = baseline[0];
  const usual = subject[0];
  if (!reference || !usual) return ['no runs to compare'];
  const activityEvents = (types: readonly string[]) => types.filter((t) => t.startsWith('ACTIVITY_')).length;
  const problems: string[] = [];
  for (const s of subject) {
    const label = `${s.runs} subject run(s)`;
    if (s.count > reference.count) problems.push(`${label}: ${s.count} events, baseline ${reference.count}`);
    const forbidden = s.types.filter((t) => FORBIDDEN.test(t) && !reference.types.includes(t));
    if (forbidden.length > 0) problems.push(`${label}: ${[...new Set(forbidden)].join(', ')} in history`);
    if (activityEvents(s.types) > activityEvents(reference.types)) {
      problems.push(
        `${label}: ${activityEvents(s.types)} activity events, baseline ${activityEvents(reference.types)}`,
      );
    }
  }
  if (usual.types.join(',') !== reference.types.join(',')) {
    problems.push(
      `subject's usual history differs in kind: [${usual.types.join(', ')}] vs [${reference.types.join(', ')}]`,
    );
  }
  return problems;
}
