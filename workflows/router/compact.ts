/**
 * What continue-as-new carries of a router's state, bounded (docs/DESIGN.md, "Long-lived agents"): the parts a later
 * decision can still read are kept whole, the rest is cut to its newest entries or dropped when no call can reach it
 * again. Without this a long agent's carried state grows with every call (≈ 640 B a call) until the run must stop.
 *
 * - Budgets and operation ids (`budgets.calls`, `stepArgs`) of closed steps: dropped (a closed step is never
 *   called again, so its counters and idempotency keys cannot be read). A step that spent nothing and holds no
 *   operation id (a call of a tool the run cannot use) is dropped too: the next call of it starts the same zeroed
 *   counters, so nothing is lost, and hallucinated tool names do not pile up run after run. Every other step is kept.
 * - `successes` (step counters of one turn, `t<turn>:<tool>`): only the current turn's; turns only go forward.
 * - The gate's ledger (`calls.failures`, `calls.outcomes`): the newest `MAX_LEDGER_ENTRIES` each, by last entry (a
 *   failure or outcome recorded again moves to the end, recovery/call-ledger.ts).
 *   An identical call after an older failure runs once more before the gate sees it again; no-progress needs two
 *   identical outcomes, which a looping plan makes close together.
 * - `records`: the newest `MAX_CARRIED_RECORDS`; the older ones are counted in `recordsOmitted` (each run's own
 *   history and log lines keep them).
 * Budgets of the run and the turn, grants, credential versions and the pending replan are kept as they are.
 * Pure and sandbox-safe.
 */
import type { ToolRouterState } from '../tool-router-types';

/** Most entries of each of the gate ledger's maps carried across continue-as-new. */
export const MAX_LEDGER_ENTRIES = 128;
/** Most recovery records carried across continue-as-new. */
export const MAX_CARRIED_RECORDS = 200;

/**
 * `state` with its carried parts bounded, as above. `state` is a JSON copy (`router.state()`); it is not changed.
 * @param isClosedStep whether a step id is closed (the caller's own step ids); by default none is.
 */
export function compactRouterState(
  state: ToolRouterState,
  isClosedStep: (stepId: string) => boolean = () => false,
): ToolRouterState {
  const dropped = Math.max(0, state.records.length - MAX_CARRIED_RECORDS);
  const ids = state.stepArgs ?? {};
  const untouched = (c: { key: string; retries: number; repairs: number }) =>
    c.retries === 0 && c.repairs === 0 && !Object.prototype.hasOwnProperty.call(ids, c.key);
  const out: ToolRouterState = {
    ...state,
    budgets: { ...state.budgets, calls: state.budgets.calls.filter((c) => !isClosedStep(c.key) && !untouched(c)) },
    calls: { failures: newest(state.calls.failures), outcomes: newest(state.calls.outcomes) },
    successes: currentTurn(state.successes, state.budgets.turn.index),
    records: state.records.slice(dropped),
  };
  if (state.stepArgs) out.stepArgs = without(state.stepArgs, isClosedStep);
  if (dropped > 0) out.recordsOmitted = (state.recordsOmitted ?? 0) + dropped;
  return out;
}

// Object.fromEntries defines own properties: a key such as `__proto__` stays a key.

/** The last `MAX_LEDGER_ENTRIES` entries of `map`, in its order. */
function newest<V>(map: Readonly<Record<string, V>>): Record<string, V> {
  const entries = Object.entries(map);
  return Object.fromEntries(entries.slice(Math.max(0, entries.length - MAX_LEDGER_ENTRIES)));
}

function currentTurn(successes: Record<string, number>, turn: number): Record<string, number> {
  return Object.fromEntries(Object.entries(successes).filter(([k]) => k.startsWith(`t${turn}:`)));
}

function without<V>(map: Record<string, V>, drop: (key: string) => boolean): Record<string, V> {
  return Object.fromEntries(Object.entries(map).filter(([k]) => !drop(k)));
}
