/**
 * The activity executions of one workflow's history (and the activities it is still running), each judged as shadow
 * mode judges a failure (plugin/shadow/decide.ts). History keeps, per scheduled activity, the number of the last
 * attempt and the failure of the attempt before it (`ActivityTaskStarted.attempt`, `.lastFailure`), then how the
 * last attempt ended; a running workflow's pending activity has the same (`PendingActivityInfo.attempt`,
 * `.lastFailure`). The failures of earlier attempts are not kept: an execution's retries are judged by the last
 * failure before its last attempt. Node-side only.
 */
import type { temporal } from '@temporalio/proto';
import { classifyActivityFailure, type ShadowVerdict } from '../plugin/shadow/decide';
import type { ShadowActivityDeclaration } from '../plugin/shadow/options';
import { AXES, FailureClass, FailureReason } from '../recovery/failure';
import { recordedError } from './history-failure';

type Event = temporal.api.history.v1.IHistoryEvent;
type Failure = temporal.api.failure.v1.IFailure;
type Pending = temporal.api.workflow.v1.IPendingActivityInfo;

/** A protobuf timestamp (seconds as a number, a string or a Long) in ms since the epoch. */
function msOf(ts: { seconds?: unknown; nanos?: number | null } | null | undefined): number | undefined {
  if (!ts) return undefined;
  const seconds = Number(String(ts.seconds ?? 0));
  return Number.isFinite(seconds) ? seconds * 1000 + Math.floor((ts.nanos ?? 0) / 1e6) : undefined;
}

/** One activity execution (one scheduled activity, every attempt of it) and what its retries were worth. */
export interface ActivityExecution {
  workflowId: string;
  activityType: string;
  attempts: number;
  state: 'completed' | 'failed' | 'timed_out' | 'canceled' | 'running';
  /** The failure before the last attempt (what the last retry answered), when there was a retry. */
  retried?: ShadowVerdict;
  /** The last attempt's failure, when it failed. */
  final?: ShadowVerdict;
  /** Retries that could never have worked: retries of a persistent failure (a 401's first retry excepted). */
  wastedRetries: number;
  /** A write (declared, or of undeclared effect) retried after an attempt whose outcome was unknown. */
  writeRetriedAfterUnknown: boolean;
  /** From scheduling to the start of the last attempt, ms: the time its retries took. */
  retryMs: number;
}

/** Judges the retries of an execution from its last two failures. */
export function judgeRetries(
  attempts: number,
  state: ActivityExecution['state'],
  retried: ShadowVerdict | undefined,
): Pick<ActivityExecution, 'wastedRetries' | 'writeRetriedAfterUnknown'> {
  const cls = retried?.failure.class;
  const persistent =
    state !== 'completed' &&
    cls !== undefined &&
    AXES[cls].persistence === 'persistent' &&
    retried?.failure.reason !== FailureReason.UNRECOGNIZED &&
    retried?.failure.reason !== FailureReason.TOOL_BUG;
  const wasted = persistent ? Math.max(0, attempts - 1 - (cls === FailureClass.AUTHENTICATION ? 1 : 0)) : 0;
  // An error no rule recognises is an unknown outcome on a write ("may have been sent" wins, docs/DESIGN.md
  // "Phases"), as the live log classifies it: counted whatever facts its recorded form lost (a code history drops).
  return {
    wastedRetries: wasted,
    writeRetriedAfterUnknown: attempts > 1 && cls === FailureClass.OUTCOME_UNKNOWN && retried?.effect !== 'read',
  };
}

/** Per-activity-type declarations, and the activity types to leave out. */
export interface HistoryReading {
  declare: Readonly<Record<string, ShadowActivityDeclaration>>;
  exclude: ReadonlySet<string>;
}

/** An activity execution as read: its run, when it was scheduled, started and closed (ms since the epoch). */
type Run = Pick<ActivityExecution, 'workflowId' | 'activityType' | 'attempts' | 'state'> & {
  scheduledMs: number;
  /** The last attempt's start. @default scheduledMs */
  startedMs?: number;
  /** When its failures are judged: the closing event, or the last attempt's start. */
  atMs: number;
  /** The failure before the last attempt (`lastFailure`). */
  retried?: Failure | null;
};

/** An execution with the failure before its last attempt and the last attempt's own (`final`) judged. */
function execution(reading: HistoryReading, run: Run, final?: Failure | null): ActivityExecution {
  const { workflowId, activityType, attempts, state, scheduledMs, startedMs = scheduledMs, atMs, retried } = run;
  const judge = (f: Failure | null | undefined, attempt: number) => {
    const facts = { activityType, activityId: 'history', workflowId, attempt };
    return f ? classifyActivityFailure(recordedError(f), facts, reading.declare[activityType], atMs) : undefined;
  };
  const before = attempts > 1 ? judge(retried, attempts - 1) : undefined;
  const last = judge(final, attempts);
  return {
    workflowId,
    activityType,
    attempts,
    state,
    ...(before ? { retried: before } : {}),
    ...(last ? { final: last } : {}),
    ...judgeRetries(attempts, state, before),
    retryMs: Math.max(0, startedMs - scheduledMs),
  };
}

type Open = Omit<Run, 'workflowId' | 'state' | 'atMs'>;

/** The closed activity executions of a history, in the order they were scheduled. */
export function executionsOf(
  workflowId: string,
  events: readonly Event[],
  reading: HistoryReading,
): ActivityExecution[] {
  const open = new Map<string, Open>();
  const out: ActivityExecution[] = [];
  for (const e of events) {
    const id = String(e.eventId ?? '');
    const atMs = msOf(e.eventTime) ?? 0;
    const scheduled = e.activityTaskScheduledEventAttributes;
    if (scheduled) {
      const type = scheduled.activityType?.name ?? '';
      if (!reading.exclude.has(type)) open.set(id, { activityType: type, scheduledMs: atMs, attempts: 1 });
      continue;
    }
    const started = e.activityTaskStartedEventAttributes;
    const s = started && open.get(String(started.scheduledEventId ?? ''));
    if (started && s)
      Object.assign(s, { attempts: started.attempt ?? 1, startedMs: atMs, retried: started.lastFailure });
    const closed = closing(e);
    const c = closed && open.get(closed.scheduledEventId);
    if (!closed || !c) continue;
    open.delete(closed.scheduledEventId);
    out.push(execution(reading, { ...c, workflowId, state: closed.state, atMs }, closed.failure));
  }
  return out;
}

/** How an event closes an activity execution, if it does. */
function closing(
  e: Event,
): { scheduledEventId: string; state: ActivityExecution['state']; failure?: Failure | null } | undefined {
  const id = (a: { scheduledEventId?: unknown } | null | undefined) => String(a?.scheduledEventId ?? '');
  if (e.activityTaskCompletedEventAttributes)
    return { scheduledEventId: id(e.activityTaskCompletedEventAttributes), state: 'completed' };
  if (e.activityTaskFailedEventAttributes) {
    const a = e.activityTaskFailedEventAttributes;
    return { scheduledEventId: id(a), state: 'failed', failure: a.failure };
  }
  if (e.activityTaskTimedOutEventAttributes) {
    const a = e.activityTaskTimedOutEventAttributes;
    return { scheduledEventId: id(a), state: 'timed_out', failure: a.failure };
  }
  if (e.activityTaskCanceledEventAttributes)
    return { scheduledEventId: id(e.activityTaskCanceledEventAttributes), state: 'canceled' };
  return undefined;
}

/** The activities a running workflow is still retrying, judged as the closed ones are. */
export function pendingExecutions(
  workflowId: string,
  pending: readonly Pending[],
  reading: HistoryReading,
): ActivityExecution[] {
  return pending.flatMap((p) => {
    const type = p.activityType?.name ?? '';
    if (reading.exclude.has(type)) return [];
    const scheduledMs = msOf(p.scheduledTime) ?? msOf(p.lastStartedTime) ?? 0;
    const startedMs = msOf(p.lastStartedTime) ?? scheduledMs;
    const run = { workflowId, activityType: type, attempts: p.attempt ?? 1, state: 'running' as const };
    return [execution(reading, { ...run, scheduledMs, startedMs, atMs: startedMs, retried: p.lastFailure })];
  });
}
