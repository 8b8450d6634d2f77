/**
 * Shadow mode's activity inbound interceptor (Temporal docs, "Interceptors"; @temporalio/worker
 * `ActivityInboundCallsInterceptor`): on a failed attempt of a watched activity it classifies the error, records
 * what the router would do (./record.ts) and, in `shadow`, rethrows the very same error object: the activity's
 * failure, its stack, its retries and so the workflow's history are those it would have without shadow mode
 * (test/temporal/shadow.test.ts compares the histories). In `enforce`, for the listed activities, it applies the
 * classification to Temporal's retry (./decide.ts).
 *
 * It attaches to the activity's promise with `.then`, not `await`: an `await` here would add an `at async` frame to
 * the stack of every error the activity throws after its first `await`, and the stack is part of the history.
 * Cancellation and async completion pass through untouched. Node-side only.
 */
import type { Context as ActivityContext } from '@temporalio/activity';
import { CancelledFailure, CompleteAsyncError } from '@temporalio/common';
import type { ActivityExecuteInput, ActivityInboundCallsInterceptor, Next } from '@temporalio/worker';
import type { BackoffPolicy } from '../../recovery/backoff';
import type { Tracing } from '../../activities/tracing/tracing';
import { classifyActivityFailure, enforcement, outcomeUnknown, type Enforcement, type ShadowVerdict } from './decide';
import { scopeOf, type ShadowMode, type ShadowOptions } from './options';
import { recordShadow, type ShadowEntry } from './record';

/** What every interceptor of one plugin shares. */
export interface ShadowRuntime {
  options: ShadowOptions;
  /** The plugin's own activity types: never watched. */
  own: ReadonlySet<string>;
  tracing: Tracing | undefined;
  backoff: BackoffPolicy;
  /** Jitter source, in [0, 1). @default Math.random */
  random?: () => number;
}

export class ShadowInterceptor implements ActivityInboundCallsInterceptor {
  constructor(
    private readonly ctx: ActivityContext,
    private readonly rt: ShadowRuntime,
  ) {}

  execute(input: ActivityExecuteInput, next: Next<ActivityInboundCallsInterceptor, 'execute'>): Promise<unknown> {
    const mode = scopeOf(this.rt.options, this.ctx.info.activityType, this.rt.own);
    if (mode === 'skip') return next(input);
    const startMs = Date.now();
    let running: Promise<unknown>;
    try {
      running = next(input);
    } catch (err) {
      running = Promise.reject(err);
    }
    return running.then(undefined, (err: unknown) => this.failed(input, err, mode, startMs));
  }

  /** Records the failure and throws what the attempt ends with (or, after a lookup found it applied, returns). */
  private async failed(input: ActivityExecuteInput, err: unknown, mode: ShadowMode, startMs: number) {
    if (passesThrough(err, this.ctx)) throw err;
    let judged: { verdict: ShadowVerdict; e: Enforcement };
    try {
      judged = this.judge(err, mode);
    } catch {
      throw err; // a bug here must never replace the activity's own failure
    }
    const { verdict, e } = judged;
    const entry: ShadowEntry = { mode, verdict, enforced: 'unchanged', startMs };
    if (e.kind === 'unchanged') {
      recordShadow(this.ctx, this.rt.tracing, entry);
      throw err;
    }
    if (e.kind === 'throw') {
      const nextRetryDelay = e.nextRetryDelayMs === undefined ? {} : { nextRetryDelayMs: e.nextRetryDelayMs };
      recordShadow(this.ctx, this.rt.tracing, { ...entry, enforced: e.enforced, ...nextRetryDelay });
      throw e.error;
    }
    return this.reconcile(input, err, verdict, entry);
  }

  /** The classification, and in `enforce` what to do with it (`shadow` changes nothing). */
  private judge(err: unknown, mode: ShadowMode): { verdict: ShadowVerdict; e: Enforcement } {
    const { info } = this.ctx;
    const verdict = classifyActivityFailure(
      err,
      {
        activityType: info.activityType,
        activityId: info.activityId,
        attempt: info.attempt,
        ...(info.workflowExecution ? { workflowId: info.workflowExecution.workflowId } : {}),
      },
      this.rt.options.declare?.[info.activityType],
      Date.now(),
    );
    if (mode === 'shadow') return { verdict, e: { kind: 'unchanged' } };
    return { verdict, e: enforcement(verdict, err, info.attempt, this.rt.backoff, this.rt.random) };
  }

  /** A declared write's unknown outcome, looked up: applied → its value; not applied → the original error. */
  private async reconcile(input: ActivityExecuteInput, err: unknown, verdict: ShadowVerdict, entry: ShadowEntry) {
    const lookup = this.rt.options.declare?.[this.ctx.info.activityType]?.lookup;
    let found: Awaited<ReturnType<NonNullable<typeof lookup>>> | undefined;
    try {
      found = await lookup?.({ args: input.args, info: this.ctx.info });
    } catch {
      found = undefined;
    }
    const known = found?.state === 'applied' || found?.state === 'not_applied' ? found.state : undefined;
    const enforced = known ? (`reconciled_${known}` as const) : 'outcome_unknown';
    recordShadow(this.ctx, this.rt.tracing, { ...entry, enforced });
    if (found?.state === 'applied') return found.value;
    throw known === 'not_applied' ? err : outcomeUnknown(verdict.failure, err);
  }
}

/** Not a failure to judge: a cancellation, or an activity that completes asynchronously. */
function passesThrough(err: unknown, ctx: ActivityContext): boolean {
  return err instanceof CompleteAsyncError || err instanceof CancelledFailure || ctx.cancellationSignal.aborted;
}

/** The activity interceptors of shadow mode, for `WorkerOptions.interceptors.activity`. */
export function shadowInterceptors(rt: ShadowRuntime): (ctx: ActivityContext) => { inbound: ShadowInterceptor } {
  return (ctx) => ({ inbound: new ShadowInterceptor(ctx, rt) });
}
