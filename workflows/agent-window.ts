/**
 * What a long agent keeps of its observations (docs/DESIGN.md, "Long-lived agents"): the planner sees the newest
 * observations that fit `observationWindow` (a count and characters of JSON); the oldest go first and are only
 * counted (`omittedObservations`), so a planner step's input and what continue-as-new carries stay bounded however
 * many calls the run makes. Agent frameworks trim a conversation the same way (the newest messages within a budget).
 * Pure and sandbox-safe.
 */
import type { Observation } from './planner-contract';

/** The window of observations an agent keeps; see `AgentOptions.observationWindow`. */
export interface ObservationWindow {
  /** Most observations kept. @default 200 */
  maxObservations?: number;
  /** Most characters of JSON the kept observations take together. @default 400_000 */
  maxChars?: number;
}

export const DEFAULT_OBSERVATION_WINDOW: Required<ObservationWindow> = { maxObservations: 200, maxChars: 400_000 };

/**
 * The `patched()` id of the bounded carry: the observation window and the compacted router state
 * (workflows/router/compact.ts). A run recorded before it has no marker and replays with everything kept; a new run
 * writes the marker the first time something is dropped, or at its first continue-as-new.
 */
export const BOUNDED_CARRY_PATCH = 'recovery-router:bounded-carry';

/**
 * How many of the oldest observations fall outside `window` (the newest is always kept: one observation is at most
 * 64 KiB + 8 KiB of JSON, below the smallest `maxChars`). Reads each kept observation's JSON once: O(kept).
 */
export function overWindow(observations: readonly Observation[], window: ObservationWindow | undefined): number {
  const maxCount = window?.maxObservations ?? DEFAULT_OBSERVATION_WINDOW.maxObservations;
  const maxChars = window?.maxChars ?? DEFAULT_OBSERVATION_WINDOW.maxChars;
  let kept = 0;
  let chars = 0;
  for (let i = observations.length - 1; i >= 0 && kept < maxCount; i -= 1) {
    chars += JSON.stringify(observations[i]).length + 1; // + the comma between two
    if (chars > maxChars && kept > 0) break;
    kept += 1;
  }
  return observations.length - kept;
}

/**
 * Removes the oldest observations, in place, until the rest fit `window`.
 * @returns how many were removed (0 when they all fit).
 */
export function trimObservations(observations: Observation[], window: ObservationWindow | undefined): number {
  const removed = overWindow(observations, window);
  if (removed > 0) observations.splice(0, removed);
  return removed;
}
