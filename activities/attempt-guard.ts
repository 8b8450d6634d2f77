/**
 * An activity attempt's guard: the tool's code runs against the attempt's cancellation and its deadline, so a tool
 * that never settles cannot keep its activity slot, nor keep `Worker.shutdown()` waiting (Temporal docs, "Activity
 * cancellation": a worker's shutdown and a server-side timeout reach a running activity as a cancellation; an
 * activity that does not heartbeat learns of neither, so the attempt's own deadline is kept here too).
 *
 * When the guard fires, the tool's `AbortSignal` (`ctx.signal`) is aborted and the race rejects at once with
 * `CallInterrupted`; the tool's own promise is left to settle on its own (its outcome is ignored).
 * Node-side only.
 */
import { CancelledFailure, type Context } from '@temporalio/activity';

/**
 * Why an attempt was cut short:
 * - `cancel_requested`: the workflow cancelled the activity — the SDK's cancellation is confirmed as it is;
 * - `operator`: an operator paused or reset the activity (`temporal activity pause|reset`): no cancellation the
 *   workflow asked for, so it ends as an interruption (a write's outcome unknown, a read's retried), never as one;
 * - `worker_shutdown`: this worker is shutting down;
 * - `timed_out`: the server timed the attempt out, or no longer knows it;
 * - `deadline`: the attempt's StartToClose (or ScheduleToClose) deadline passed on this worker's clock.
 */
export type Interruption = 'cancel_requested' | 'operator' | 'worker_shutdown' | 'timed_out' | 'deadline';

/** The attempt was cut short before the tool settled. `cancellation` is the SDK's CancelledFailure, when there is one. */
export class CallInterrupted extends Error {
  override readonly name = 'CallInterrupted';
  constructor(
    readonly why: Interruption,
    readonly cancellation?: unknown,
  ) {
    super(`the attempt was interrupted: ${why}`);
  }
}

/** The SDK's cancellation reasons (`ActivityCancelReason`, and `WORKER_SHUTDOWN`) → the interruption they are. */
const BY_SDK_REASON: Readonly<Record<string, Interruption>> = Object.freeze({
  CANCELLED: 'cancel_requested',
  PAUSED: 'operator',
  RESET: 'operator',
  WORKER_SHUTDOWN: 'worker_shutdown',
  TIMED_OUT: 'timed_out',
  NOT_FOUND: 'timed_out',
  HEARTBEAT_DETAILS_CONVERSION_FAILED: 'timed_out',
});

export interface AttemptGuard {
  /** Aborted when the guard fires; the tool's `ctx.signal`. */
  readonly signal: AbortSignal;
  /** `work`, or a rejection with `CallInterrupted` when the guard fires first. */
  race<T>(work: Promise<T>): Promise<T>;
  /** Why the guard fired, once it has. */
  interruption(): CallInterrupted | undefined;
  /** Clears the deadline timer; safe to call twice. */
  dispose(): void;
}

/** The attempt's deadline in ms since the epoch: StartToClose from `startedAtMs`, or ScheduleToClose if sooner. */
export function attemptDeadlineMs(info: Context['info'], startedAtMs: number): number | undefined {
  const candidates: number[] = [];
  if (info.startToCloseTimeoutMs > 0) candidates.push(startedAtMs + info.startToCloseTimeoutMs);
  const scheduleDeadline = info.scheduledTimestampMs + info.scheduleToCloseTimeoutMs;
  // A ScheduleToClose deadline before the attempt began is no deadline the server set (test doubles report one).
  if (info.scheduleToCloseTimeoutMs > 0 && scheduleDeadline > startedAtMs) candidates.push(scheduleDeadline);
  return candidates.length === 0 ? undefined : Math.min(...candidates);
}

/** Guards one attempt of `activity`, started at `startedAtMs` (ms since the epoch). */
export function guardAttempt(activity: Context, startedAtMs: number = Date.now()): AttemptGuard {
  const controller = new AbortController();
  let fired: CallInterrupted | undefined;
  let rejectAll: ((e: CallInterrupted) => void)[] = [];
  const fire = (why: CallInterrupted) => {
    if (fired) return;
    fired = why;
    controller.abort(why);
    for (const reject of rejectAll) reject(why);
    rejectAll = [];
  };
  const onCancel = () => fire(interruptionOf(activity.cancellationSignal.reason));
  if (activity.cancellationSignal.aborted) onCancel();
  else activity.cancellationSignal.addEventListener('abort', onCancel, { once: true });
  const deadline = attemptDeadlineMs(activity.info, startedAtMs);
  const timer =
    deadline === undefined
      ? undefined
      : setTimeout(() => fire(new CallInterrupted('deadline')), Math.max(0, deadline - Date.now()));
  timer?.unref?.();
  return {
    signal: controller.signal,
    race<T>(work: Promise<T>): Promise<T> {
      if (fired) {
        work.catch(() => undefined);
        return Promise.reject(fired);
      }
      return new Promise<T>((resolve, reject) => {
        rejectAll.push(reject);
        work.then(resolve, reject);
      });
    },
    interruption: () => fired,
    dispose() {
      if (timer !== undefined) clearTimeout(timer);
      activity.cancellationSignal.removeEventListener('abort', onCancel);
    },
  };
}

/** The SDK's cancellation (a CancelledFailure whose message is the reason) as an interruption. */
function interruptionOf(reason: unknown): CallInterrupted {
  const key = reason instanceof CancelledFailure ? reason.message : undefined;
  const why = key !== undefined && Object.hasOwn(BY_SDK_REASON, key) ? BY_SDK_REASON[key] : undefined;
  return new CallInterrupted(why ?? 'cancel_requested', reason);
}
