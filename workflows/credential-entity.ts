/**
 * `credentialEntityWorkflow`: one refresh per credential for every worker of the namespace (docs/DESIGN.md,
 * "Circuit breaker": shared mode). Workflow id `credential:<id>`; a worker whose call got a 401 sends
 * `recovery.credentialRefresh` with update-with-start (activities/shared-credentials.ts). The entity runs the
 * refresh once, as its own activity (`recoveryRefreshCredential`, on the worker running the entity's task), while every
 * concurrent request waits on that one flight; a request whose stale version is older than the entity's newest
 * gets the newest at once. The token travels sealed (AES-256-GCM under the workers' shared key): history holds
 * ciphertext and a version number, never token material.
 *
 * The refresh is an activity on the entity's own task queue, with a schedule-to-close timeout of `refreshLeaseMs`:
 * its lease. Not a local activity (as runs recorded before the patch `recovery-refresh-activity` used): a workflow
 * task that waits on a local activity is completed only when it ends (Temporal docs: "Local Activities"), so the
 * updates it carries were not accepted while the token endpoint was slow, every caller fell back to a local refresh
 * and spent the rotating refresh token again (test/temporal/cluster-refresh-kill.test.ts: 3 rotations, not 1), and a
 * worker killed mid-refresh held them until the workflow task timed out.
 *
 * A refresh the provider refuses (`invalid_grant`) marks the credential dead until the entity is reset; one that
 * failed for now (a timeout, a 503, or the worker running it lost: the activity's start-to-close timeout is the
 * refresh lease) answers `unavailable`, and the next 401 refreshes again. One attempt per refresh: a rotating refresh
 * token must not be spent twice by a blind retry. Continues as new after `maxUpdates` updates or when suggested.
 */
import {
  ActivityFailure,
  allHandlersFinished,
  ApplicationFailure,
  condition,
  continueAsNew,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { SharedCredentialActivities } from '../activities/shared-credentials';
import {
  credentialRefreshUpdate,
  credentialStateQuery,
  type CredentialAnswer,
  type CredentialEntityState,
} from './entity-definitions';

/**
 * The input of a `credential:<id>` entity: the credential id, the refresh lease (ms), and the state it continued
 * as new with (the token sealed).
 */
export interface CredentialEntityInput {
  credential: string;
  /** Schedule-to-close timeout of the refresh activity: how long a lost refresh holds its lease, in ms. @default 10_000 */
  refreshLeaseMs?: number;
  /** Updates per run before continue-as-new. @default 500 */
  maxUpdates?: number;
  /** Carried over by continue-as-new: the state and the sealed newest token. */
  carried?: { state: CredentialEntityState; sealed?: string };
}

/**
 * Shared mode's refresh of one credential (`credential:<id>`): one refresh at a time for the namespace, the
 * token sealed in history; answers `recovery.credentialState`. Never returns.
 */
export async function credentialEntityWorkflow(input: CredentialEntityInput): Promise<never> {
  const s: CredentialEntityState = {
    ...(input.carried?.state ?? { credential: input.credential, version: 1, refreshes: 0, dead: false }),
    refreshing: false,
    handled: 0,
  };
  let sealed = input.carried?.sealed;
  let flight: Promise<CredentialAnswer> | undefined;
  const leaseMs = input.refreshLeaseMs ?? 10_000;
  // On the entity's task queue (the workflow's): not queued behind tool calls that wait for it, when the entities
  // have a queue of their own (the plugin's default, README "Several workers").
  const asActivity = proxyActivities<SharedCredentialActivities>({
    scheduleToCloseTimeout: leaseMs,
    retry: { maximumAttempts: 1 },
  });
  // Runs recorded before the patch refreshed as a local activity; they replay that way.
  const asLocalActivity = proxyLocalActivities<SharedCredentialActivities>({
    startToCloseTimeout: leaseMs,
    retry: { maximumAttempts: 1 },
  });
  const recoveryRefreshCredential: SharedCredentialActivities['recoveryRefreshCredential'] = (args) =>
    (patched('recovery-refresh-activity') ? asActivity : asLocalActivity).recoveryRefreshCredential(args);
  const current = (): CredentialAnswer =>
    sealed === undefined
      ? { kind: 'unavailable', reason: 'no_token', message: 'no refreshed token yet' }
      : { kind: 'version', version: s.version, sealed };

  const refreshOnce = async (): Promise<CredentialAnswer> => {
    s.refreshing = true;
    try {
      const r = await recoveryRefreshCredential({ credential: s.credential, version: s.version + 1, sealed });
      s.version += 1;
      s.refreshes += 1;
      sealed = r.sealed;
      s.lastFailure = undefined;
      return current();
    } catch (err) {
      return failed(err);
    } finally {
      s.refreshing = false;
      flight = undefined;
    }
  };
  const failed = (err: unknown): CredentialAnswer => {
    const cause = err instanceof ActivityFailure ? err.cause : err;
    const app = cause instanceof ApplicationFailure ? cause : undefined;
    const message = app?.message ?? (cause instanceof Error ? cause.message : 'refresh failed');
    s.lastFailure = message;
    if (app?.type === 'CredentialRefreshFailed') {
      s.dead = true;
      return { kind: 'dead', message };
    }
    const detail = (app?.details?.[0] ?? {}) as { reason?: string; retryAfterMs?: number };
    // No details: the activity timed out, e.g. the worker running it died and its lease ran out. A FailureReason
    // (recovery/failure.ts), as every reason the workers turn into a tool failure must be.
    const reason = detail.reason ?? 'timeout';
    return detail.retryAfterMs === undefined
      ? { kind: 'unavailable', reason, message }
      : { kind: 'unavailable', reason, retryAfterMs: detail.retryAfterMs, message };
  };

  setHandler(credentialStateQuery, () => s);
  setHandler(credentialRefreshUpdate, async (request) => {
    s.handled += 1;
    if (s.dead) return { kind: 'dead', message: s.lastFailure ?? 'credential is dead' };
    if (flight) return flight; // single flight: wait for the refresh under way
    if (sealed !== undefined && s.version > request.staleVersion) return current();
    flight = refreshOnce();
    return flight;
  });
  await condition(() => s.handled >= (input.maxUpdates ?? 500) || workflowInfo().continueAsNewSuggested);
  await condition(allHandlersFinished);
  return continueAsNew<typeof credentialEntityWorkflow>({ ...input, carried: { state: s, sealed } });
}
