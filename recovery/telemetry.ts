/**
 * Recovery telemetry, computed from recovery records (recovery/records.ts): the dashboards of docs/DESIGN.md,
 * "Telemetry" — replan rate per failure class per turn, time to replan after a semantic failure, retry budget use
 * per tool, escalations that reach a person — plus the retry-then-succeed rate to watch: a high one means flaky
 * infrastructure or persistent failures misclassified as transient.
 *
 *   const summary = summarizeRecords(await handle.query(recoveryRecordsQuery));
 *   summary.replanRatePerTurn.semantic_rejection; // replans after a semantic rejection per turn
 *
 * The per-record rules (`isReplan`, `retriesUsed`, ...) are exported so that the worker's prom-client metrics
 * (plugin/metrics.ts) count exactly what this summary counts.
 *
 * Pure and sandbox-safe: no Node built-ins, no clock, no randomness; inputs are never mutated.
 */
import { ACTIONS, type ActionDescriptor } from './actions';
import { FailureClass } from './failure';
import { TerminalState, type RecoveryRecord } from './records';

/** Count, mean and maximum of a set of durations, in ms. `meanMs` and `maxMs` are 0 when `count` is 0. */
export interface DurationStats {
  count: number;
  meanMs: number;
  maxMs: number;
}

/** One tool's retry budget use (see `retriesUsed`). */
export interface ToolRetryUse {
  /** Records of this tool: one per call. */
  calls: number;
  /** Calls that dispatched at least one activity (`activities > 0`). */
  dispatched: number;
  /** Σ `retriesUsed(r)` over this tool's records. */
  retriesUsed: number;
  /** `retriesUsed / dispatched`; 0 when nothing was dispatched. */
  meanRetriesUsed: number;
  /** Calls that ended on a transient failure with no retry left (`retryBudgetExhausted`). */
  exhausted: number;
}

/** An escalation: a call whose route ended with a person (action `escalate`). */
export interface EscalationEntry {
  tool: string;
  /** The failure class that escalated (absent only on a malformed record). */
  class?: FailureClass;
  callId: string;
}

/** What `summarizeRecords` returns. Every rate is a plain ratio (0.5 = one in two), never a percentage. */
export interface RecoverySummary {
  /** The highest `record.turn` (turns are 1-based); 0 when there are no records. */
  turns: number;
  /** Records, i.e. tool calls: the router writes exactly one record per `callTool`. */
  calls: number;
  /** Records routed to another way (`isReplan`: action `replan` or `reject`), in total and by failure class. */
  replans: { total: number; byClass: Partial<Record<FailureClass, number>> };
  /**
   * Replans of each class divided by `turns` (by 1 when `turns` is 0). Only classes that replanned appear.
   * The replan rate per class per turn of docs/DESIGN.md, "Telemetry".
   */
  replanRatePerTurn: Partial<Record<FailureClass, number>>;
  /**
   * Time to replan, in ms: over the records that carry `replanLatencyMs` (the first call after a replan), overall
   * and by the class that asked for the replan (`replanAfter`). The time to replan after a semantic failure
   * (docs/DESIGN.md, "Telemetry") is `byClass.semantic_rejection`.
   */
  timeToReplanMs: DurationStats & { byClass: Partial<Record<FailureClass, DurationStats>> };
  /** Retry budget use per tool name (an own property per tool, safe for any name). */
  retryBudget: Record<string, ToolRetryUse>;
  /**
   * Calls that needed a retry (`neededRetry`), those of them that succeeded (`retriedThenSucceeded`), and the ratio;
   * `rate` is null when no call needed a retry.
   */
  retryThenSucceed: { needed: number; succeeded: number; rate: number | null };
  /** Calls routed to `escalate`, the escalations that reach a person (docs/DESIGN.md, "Telemetry"), in record order. */
  escalations: { count: number; calls: EscalationEntry[] };
}

/** The record's route asked the model for another way: action `replan`, or `reject` (an unusable result). */
export function isReplan(r: RecoveryRecord): boolean {
  return actionOf(r)?.asksForAnotherWay === true;
}

/** The failure class a replan is counted under; a record without a class counts as `unrecoverable` (as the router does). */
export function replanClass(r: RecoveryRecord): FailureClass {
  return r.class ?? FailureClass.UNRECOVERABLE;
}

/** The call dispatched at least one activity (the gate or the capability check did not stop it first). */
export function hasDispatched(r: RecoveryRecord): boolean {
  return r.activities > 0;
}

/**
 * Retries a call used: `attempts − 1` for a call that dispatched, else 0. `attempts` counts every activity attempt
 * (Temporal's server-side retries, workflow-side retries, and re-executions after re-auth, approval or
 * reconciliation), so this is "every attempt after the first" — the load a call put on its downstream beyond one
 * request. The retry budget use per tool of docs/DESIGN.md, "Telemetry" (a spike on one tool means its vendor is
 * degrading).
 */
export function retriesUsed(r: RecoveryRecord): number {
  return hasDispatched(r) ? Math.max(0, r.attempts - 1) : 0;
}

/**
 * The call needed a retry: it made more than one attempt, or ran on `time_elapsed` evidence (the gate let an
 * identical call through after a transient failure's backoff), or ended on a `transient` failure (time might have
 * cured it, whether or not a retry was allowed).
 */
export function neededRetry(r: RecoveryRecord): boolean {
  return r.attempts > 1 || r.evidence === 'time_elapsed' || r.class === FailureClass.TRANSIENT;
}

/** The call succeeded after a retry: terminal `succeeded` with more than one attempt or `time_elapsed` evidence. */
export function retriedThenSucceeded(r: RecoveryRecord): boolean {
  return r.terminal === TerminalState.SUCCEEDED && (r.attempts > 1 || r.evidence === 'time_elapsed');
}

/** The call ended on a `transient` failure with no per-call retry left (`budgetsLeft.retries ≤ 0`). */
export function retryBudgetExhausted(r: RecoveryRecord): boolean {
  return r.terminal !== TerminalState.SUCCEEDED && r.class === FailureClass.TRANSIENT && r.budgetsLeft.retries <= 0;
}

/** The call's route ended with a person: action `escalate` (a spent replan budget, a dead credential, ...). */
export function isEscalation(r: RecoveryRecord): boolean {
  return actionOf(r)?.escalates === true;
}

/**
 * Summarizes recovery records (one workflow's, from `recoveryRecordsQuery`, or many workflows' concatenated — then
 * `turns` is the highest turn of any of them, so pass one workflow's records for a per-turn rate). Definitions are
 * on `RecoverySummary` and the predicates above. Never throws for records the router wrote; the input is not
 * mutated.
 */
export function summarizeRecords(records: readonly RecoveryRecord[]): RecoverySummary {
  let turns = 0;
  const replansByClass = new Map<FailureClass, number>();
  const latency = new DurationAccumulator();
  const latencyByClass = new Map<FailureClass, DurationAccumulator>();
  const tools = new Map<string, ToolRetryUse>();
  let needed = 0;
  let succeeded = 0;
  const escalations: EscalationEntry[] = [];

  for (const r of records) {
    turns = Math.max(turns, r.turn);
    if (isReplan(r)) bump(replansByClass, replanClass(r));
    if (r.replanLatencyMs !== undefined) {
      latency.add(r.replanLatencyMs);
      const cls = r.replanAfter ?? FailureClass.UNRECOVERABLE;
      const acc = latencyByClass.get(cls) ?? new DurationAccumulator();
      acc.add(r.replanLatencyMs);
      latencyByClass.set(cls, acc);
    }
    const use = tools.get(r.tool) ?? { calls: 0, dispatched: 0, retriesUsed: 0, meanRetriesUsed: 0, exhausted: 0 };
    use.calls += 1;
    if (hasDispatched(r)) use.dispatched += 1;
    use.retriesUsed += retriesUsed(r);
    if (retryBudgetExhausted(r)) use.exhausted += 1;
    tools.set(r.tool, use);
    if (neededRetry(r)) needed += 1;
    if (retriedThenSucceeded(r)) succeeded += 1;
    if (isEscalation(r)) {
      escalations.push(
        r.class === undefined ? { tool: r.tool, callId: r.callId } : { tool: r.tool, class: r.class, callId: r.callId },
      );
    }
  }

  for (const use of tools.values()) use.meanRetriesUsed = use.dispatched === 0 ? 0 : use.retriesUsed / use.dispatched;
  const perTurn = Math.max(turns, 1);
  return {
    turns,
    calls: records.length,
    replans: {
      total: [...replansByClass.values()].reduce((a, b) => a + b, 0),
      byClass: Object.fromEntries(replansByClass),
    },
    replanRatePerTurn: Object.fromEntries([...replansByClass].map(([cls, n]) => [cls, n / perTurn])),
    timeToReplanMs: {
      ...latency.stats(),
      byClass: Object.fromEntries([...latencyByClass].map(([cls, acc]) => [cls, acc.stats()])),
    },
    // Object.fromEntries defines own properties: a tool named `__proto__` stays data.
    retryBudget: Object.fromEntries(tools),
    retryThenSucceed: { needed, succeeded, rate: needed === 0 ? null : succeeded / needed },
    escalations: { count: escalations.length, calls: escalations },
  };
}

function bump<K>(map: Map<K, number>, key: K): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

class DurationAccumulator {
  private count = 0;
  private sumMs = 0;
  private maxMs = 0;
  add(ms: number): void {
    this.count += 1;
    this.sumMs += ms;
    this.maxMs = this.count === 1 ? ms : Math.max(this.maxMs, ms);
  }
  stats(): DurationStats {
    return { count: this.count, meanMs: this.count === 0 ? 0 : this.sumMs / this.count, maxMs: this.maxMs };
  }
}

/** The record's action's descriptor; `undefined` for no action or one outside the table (a record from elsewhere). */
function actionOf(r: RecoveryRecord): ActionDescriptor | undefined {
  const a = r.action;
  return a !== undefined && Object.hasOwn(ACTIONS, a) ? ACTIONS[a] : undefined;
}
