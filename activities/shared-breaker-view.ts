/** What one worker knows of a shared circuit (activities/shared-breaker.ts). Node-side only. */
import type { ProbeAnswer, SharedCircuitState } from '../workflows/entity-definitions';

/** What one worker knows of a shared circuit: the entity's last answer and when it came (ms since the epoch). */
export interface View {
  state: SharedCircuitState;
  consecutiveFailures: number;
  warm: boolean;
  /** Local epoch ms until which the circuit is known open (no probe may be asked for before). */
  openUntilMs: number;
  /** Local epoch ms of the entity's last answer; 0 = never asked. */
  fetchedAtMs: number;
  /** Tail of the one-call-at-a-time chain of a cold or suspect circuit. */
  gate: Promise<void>;
  rereading: boolean;
  /** Outcomes waiting for the report in flight to finish; sent together as the next report. */
  pending:
    | {
        outcomes: boolean[];
        sent: Promise<void>;
        /** Resolves `sent`. */
        settle: () => void;
      }
    | undefined;
  flushing: boolean;
  /** This worker's probe request in flight: concurrent calls share its answer. */
  probing: Promise<ProbeAnswer> | undefined;
}

export function newView(): View {
  return {
    state: 'closed',
    consecutiveFailures: 0,
    warm: false,
    openUntilMs: 0,
    fetchedAtMs: 0,
    gate: Promise.resolve(),
    rereading: false,
    pending: undefined,
    flushing: false,
    probing: undefined,
  };
}
