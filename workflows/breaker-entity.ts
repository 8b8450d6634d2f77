/**
 * `breakerEntityWorkflow`: one circuit breaker per downstream for every worker of the namespace, kept by Temporal
 * (docs/DESIGN.md, "Circuit breaker": shared mode). Workflow id `breaker:<downstream>`; workers reach it with
 * update-with-start (activities/shared-breaker.ts), so the first report creates it.
 *
 *   closed    --`threshold` consecutive failures reported-->  open
 *   open      --`halfOpenAfterMs` later, one `breakerProbe`-->  half_open (one probe, leased for `probeLeaseMs`)
 *   half_open --probe reports ok-->  closed;  --probe fails-->  open again
 *   half_open --lease runs out without a report (the holder died)-->  the next `breakerProbe` is granted
 *
 * Same semantics as the local breaker (cockatiel's ConsecutiveBreaker, activities/breaker.ts). Handlers are
 * synchronous, so every update completes in the workflow task that delivers it. Time is workflow time
 * (`Date.now()` in the sandbox: the task's start, deterministic on replay). Continues as new after
 * `maxUpdates` updates or when Temporal suggests it (`workflowInfo().continueAsNewSuggested`), carrying the state.
 */
import { allHandlersFinished, condition, continueAsNew, setHandler, workflowInfo } from '@temporalio/workflow';
import {
  breakerProbeUpdate,
  breakerReportUpdate,
  breakerStateQuery,
  type BreakerEntityState,
  type BreakerView,
} from './entity-definitions';

/**
 * The input of a `breaker:<downstream>` entity: its downstream, threshold, half-open delay and probe lease (ms),
 * and the state it continued as new with.
 */
export interface BreakerEntityInput {
  downstream: string;
  /** Consecutive failures that open the circuit. */
  threshold: number;
  /** How long the circuit stays open before one probe, in ms. */
  halfOpenAfterMs: number;
  /** How long a granted probe may stay unreported before it is granted again, in ms. */
  probeLeaseMs: number;
  /** Updates per run before continue-as-new (each adds 2 history events). @default 500 */
  maxUpdates?: number;
  /** The state carried over by continue-as-new. */
  state?: BreakerEntityState;
}

function initialState(downstream: string): BreakerEntityState {
  return {
    downstream,
    state: 'closed',
    consecutiveFailures: 0,
    warm: false,
    totals: { failures: 0, successes: 0, opens: 0, probesGranted: 0, leaseExpiries: 0 },
    handled: 0,
  };
}

/** The entity's answer to a worker: relative times, so a worker's clock skew does not matter. */
export function viewOf(s: BreakerEntityState, nowMs: number): BreakerView {
  let retryAfterMs = 0;
  if (s.state === 'open') retryAfterMs = Math.max(0, (s.reopenAtMs ?? nowMs) - nowMs);
  // A probe is out: ask again soon (at most 1 000 ms), as it usually reports long before its lease runs out.
  if (s.state === 'half_open' && s.probe) retryAfterMs = Math.min(1_000, Math.max(0, s.probe.leaseUntilMs - nowMs));
  return { state: s.state, consecutiveFailures: s.consecutiveFailures, retryAfterMs, warm: s.warm };
}

/** Applies one reported outcome. Pure: exported for unit tests. */
export function applyReport(
  s: BreakerEntityState,
  input: Pick<BreakerEntityInput, 'threshold' | 'halfOpenAfterMs'>,
  report: { ok: boolean; leaseId?: string },
  nowMs: number,
): void {
  const isProbe = report.leaseId !== undefined && s.probe?.leaseId === report.leaseId;
  const open = () => {
    Object.assign(s, { state: 'open', openedAtMs: nowMs, reopenAtMs: nowMs + input.halfOpenAfterMs, warm: false });
    s.probe = undefined;
    s.totals.opens += 1;
  };
  if (report.ok) {
    s.totals.successes += 1;
    if (isProbe || s.state === 'closed') {
      Object.assign(s, { state: 'closed', consecutiveFailures: 0, warm: true });
      s.probe = undefined;
    }
    return;
  }
  s.totals.failures += 1;
  if (isProbe) return open();
  if (s.state !== 'closed') return; // a call sent before the circuit opened: already counted by the opening
  s.consecutiveFailures += 1;
  s.warm = false;
  if (s.consecutiveFailures >= input.threshold) open();
}

/** Grants the half-open probe to at most one holder per lease. Pure: exported for unit tests. */
export function grantProbe(
  s: BreakerEntityState,
  input: Pick<BreakerEntityInput, 'probeLeaseMs'>,
  request: { holder: string; requestId: string },
  nowMs: number,
): boolean {
  if (s.state === 'closed') return false;
  if (s.state === 'open' && nowMs < (s.reopenAtMs ?? 0)) return false;
  if (s.state === 'half_open' && s.probe && nowMs < s.probe.leaseUntilMs) return false;
  if (s.state === 'half_open' && s.probe) s.totals.leaseExpiries += 1; // its holder never reported
  s.state = 'half_open';
  s.probe = { holder: request.holder, leaseId: request.requestId, leaseUntilMs: nowMs + input.probeLeaseMs };
  s.totals.probesGranted += 1;
  return true;
}

/**
 * Shared mode's circuit for one downstream (`breaker:<downstream>`): takes workers' reports and probe requests
 * as updates, answers `recovery.breakerState`; continues as new after 500 updates. Never returns.
 */
export async function breakerEntityWorkflow(input: BreakerEntityInput): Promise<never> {
  const s: BreakerEntityState = { ...(input.state ?? initialState(input.downstream)), handled: 0 };
  const maxUpdates = input.maxUpdates ?? 500;
  setHandler(breakerStateQuery, () => s);
  setHandler(breakerReportUpdate, (report) => {
    s.handled += 1;
    for (const ok of report.outcomes.slice(0, 1_000))
      applyReport(s, input, { ok, leaseId: report.leaseId }, Date.now());
    return viewOf(s, Date.now());
  });
  setHandler(breakerProbeUpdate, (request) => {
    s.handled += 1;
    const granted = grantProbe(s, input, request, Date.now());
    const view = viewOf(s, Date.now());
    return granted ? { granted, leaseId: request.requestId, view } : { granted, view };
  });
  await condition(() => s.handled >= maxUpdates || workflowInfo().continueAsNewSuggested);
  await condition(allHandlersFinished);
  return continueAsNew<typeof breakerEntityWorkflow>({ ...input, state: s });
}
