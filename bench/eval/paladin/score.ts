/**
 * PALADIN totals, pure: route accuracy, recovery rate, hallucinated success and tool calls per run over the keys'
 * verdicts (bench/eval/paladin/plan.ts), and the paper's figures to print beside them.
 */
import type { PaladinVerdict } from './plan';

/**
 * The paper's Recovery Rate (RR = recovered / failures) on ToolBench, as its abstract and README report them
 * (Vuddanti et al., "PALADIN: Self-Correcting Language Model Agents to Cure Tool-Failure Cases", arXiv 2509.25238).
 */
export const PAPER_RECOVERY_RATES = Object.freeze([
  { system: 'PALADIN (fine-tuned model + recovery exemplars)', recoveryRate: 0.8968 },
  { system: 'CRITIC (strongest baseline)', recoveryRate: 0.7634 },
  { system: 'ToolBench base agent', recoveryRate: 0.3276 },
]);

export interface PaladinTotals {
  keys: number;
  /** Keys whose first routed action is the expected one / keys. */
  routeAccuracy: number;
  /** Runs that reached the oracle end state / runs with a fault (every run has one). */
  recoveryRate: number;
  /** Among keys whose world is recoverable: runs that reached the goal / those keys. */
  goalRate: number;
  recoverableKeys: number;
  /** Among keys whose world needs a person: runs that ended without a submission and wrote nothing / those keys. */
  handOffRate: number;
  handOffKeys: number;
  /** Runs reported submitted whose end state disagrees (must be 0). */
  hallucinatedSuccess: number;
  /** Mean tool calls per run (the router's records), and mean dispatches. */
  toolCallsPerRun: number;
  dispatchesPerRun: number;
}

const share = (n: number, of: number) => (of === 0 ? 0 : n / of);

export function paladinTotals(rows: readonly PaladinVerdict[]): PaladinTotals {
  const recoverable = rows.filter((r) => r.world === 'recoverable');
  const handOff = rows.filter((r) => r.world === 'hand_off');
  return {
    keys: rows.length,
    routeAccuracy: share(rows.filter((r) => r.correct).length, rows.length),
    recoveryRate: share(rows.filter((r) => r.recovered).length, rows.length),
    goalRate: share(recoverable.filter((r) => r.goalReached).length, recoverable.length),
    recoverableKeys: recoverable.length,
    handOffRate: share(handOff.filter((r) => r.recovered).length, handOff.length),
    handOffKeys: handOff.length,
    hallucinatedSuccess: rows.filter((r) => r.hallucinatedSuccess).length,
    toolCallsPerRun: share(
      rows.reduce((a, r) => a + r.toolCalls, 0),
      rows.length,
    ),
    dispatchesPerRun: share(
      rows.reduce((a, r) => a + r.dispatches, 0),
      rows.length,
    ),
  };
}

/** A key the run did not get right: a wrong first action, no oracle end state, or a hallucinated success. */
export function isPaladinMiss(r: PaladinVerdict): boolean {
  return !r.correct || !r.recovered || r.hallucinatedSuccess;
}

/**
 * The eval gate's ratchet on PALADIN's keys (bench/eval/paladin/known-misses.json lists the keys missed today):
 * `newMisses` are keys missed that the list does not name (a regression: the gate fails), `nowRight` listed keys
 * the run got right (the gate fails too, until the list shrinks, as test/unseen/ratchet.ts does).
 */
export function paladinRatchet(
  rows: readonly PaladinVerdict[],
  knownMisses: readonly string[],
): { newMisses: string[]; nowRight: string[] } {
  const known = new Set(knownMisses);
  return {
    newMisses: rows.filter((r) => isPaladinMiss(r) && !known.has(r.key)).map((r) => r.key),
    nowRight: rows.filter((r) => !isPaladinMiss(r) && known.has(r.key)).map((r) => r.key),
  };
}
