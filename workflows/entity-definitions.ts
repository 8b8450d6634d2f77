/**
 * Updates and queries of the cluster-wide entity workflows (docs/DESIGN.md, "Circuit breaker": shared mode):
 * `breaker:<downstream>` (workflows/breaker-entity.ts) and `credential:<id>` (workflows/credential-entity.ts).
 * Exported definitions, never loose strings; the activity side (activities/shared-breaker.ts,
 * activities/shared-credentials.ts) sends them with update-with-start, so the first worker to need an entity
 * creates it (Temporal docs: "Update-with-Start"). Sandbox-safe: types and definitions only.
 */
import { defineQuery, defineUpdate } from '@temporalio/workflow';

/** A shared circuit's state. */
export type SharedCircuitState = 'closed' | 'open' | 'half_open';

/** What a worker caches of a breaker entity; times are relative to the entity's clock at answer time, in ms. */
export type BreakerView = Pick<BreakerEntityState, 'state' | 'consecutiveFailures' | 'warm'> & {
  /** While open (or half-open with a probe out): ms until a probe may be granted. 0 when one may be now. */
  retryAfterMs: number;
};

/** The state a `breaker:<downstream>` entity keeps and the `recovery.breakerState` query shows. */
export interface BreakerEntityState {
  downstream: string;
  state: SharedCircuitState;
  consecutiveFailures: number;
  /** Workflow time (epoch ms) at which the circuit last opened. */
  openedAtMs?: number;
  /** Workflow time (epoch ms) from which a half-open probe may be granted. */
  reopenAtMs?: number;
  /** The half-open probe out now: who holds it and until when (epoch ms) its lease runs. */
  probe?: { holder: string; leaseId: string; leaseUntilMs: number };
  /** Whether a call has succeeded since the entity started or last closed (a warm circuit). */
  warm: boolean;
  totals: {
    failures: number;
    successes: number;
    opens: number;
    probesGranted: number;
    /** Probes regranted because the holder did not report within its lease (a worker lost mid-probe). */
    leaseExpiries: number;
  };
  /** Updates handled in this run (continue-as-new resets it). */
  handled: number;
}

export interface BreakerReport {
  /** Worker identity and pid, for the operator (`worker@host:pid`). */
  holder: string;
  /** The outcomes of this worker's calls since its last report, in order (true = the downstream answered). */
  outcomes: boolean[];
  /** Set when this outcome is the half-open probe's (the lease id `acquireProbe` returned). */
  leaseId?: string;
}

export interface ProbeRequest {
  holder: string;
  /** A unique id for this request; becomes the lease id when the probe is granted. */
  requestId: string;
}

/**
 * The entity's answer to a worker asking for the half-open probe: granted or not, the probe's lease id, and the
 * circuit as the entity sees it.
 */
export interface ProbeAnswer {
  granted: boolean;
  /** The lease id to report the probe's outcome with; only when granted. */
  leaseId?: string;
  view: BreakerView;
}

export const breakerReportUpdate = defineUpdate<BreakerView, [BreakerReport]>('recovery.breakerReport');
export const breakerProbeUpdate = defineUpdate<ProbeAnswer, [ProbeRequest]>('recovery.breakerProbe');
/**
 * Query `recovery.breakerState` of `breaker:<downstream>`: state, consecutive failures, the probe out and its
 * lease, totals.
 */
export const breakerStateQuery = defineQuery<BreakerEntityState>('recovery.breakerState');

/** What a refresh answers: the credential's newest version, sealed for the workers; or why there is none. */
export type CredentialAnswer =
  | { kind: 'version'; version: number; sealed: string }
  | { kind: 'dead'; message: string }
  | { kind: 'unavailable'; reason: string; retryAfterMs?: number; message: string };

export interface CredentialRefreshRequest {
  holder: string;
  /** The version the caller's 401 was answered to; a newer one is returned without a refresh. */
  staleVersion: number;
}

/** The state a `credential:<id>` entity shows (`recovery.credentialState`); never the sealed token. */
export interface CredentialEntityState {
  credential: string;
  version: number;
  refreshing: boolean;
  refreshes: number;
  dead: boolean;
  lastFailure?: string;
  handled: number;
}

export const credentialRefreshUpdate = defineUpdate<CredentialAnswer, [CredentialRefreshRequest]>(
  'recovery.credentialRefresh',
);
/** Query `recovery.credentialState` of `credential:<id>`: version, refreshes, whether it is dead. */
export const credentialStateQuery = defineQuery<CredentialEntityState>('recovery.credentialState');

/** Entity workflow ids an operator can read. */
export const breakerEntityId = (downstream: string): string => `breaker:${downstream}`;
/** The workflow id of a credential's entity: `credential:<id>`. */
export const credentialEntityId = (credential: string): string => `credential:${credential}`;
