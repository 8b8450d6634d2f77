/**
 * The lookups of a reconciliation: `lookupOperation` activities by operation_id, with backoff between them and a
 * budget, each one recorded. A lookup is a read, so it may run again safely: each attempt has a short StartToClose
 * timeout and a heartbeat timeout (a lost worker is noticed in `LOOKUP_HEARTBEAT_TIMEOUT_MS`, not after the whole
 * timeout), and Temporal retries it `LOOKUP_ATTEMPTS` times. One that still does not complete counts as an
 * `unknown` answer; it never fails the reconciliation (Temporal docs, "Activity Execution": timeouts and retries).
 * Sandbox-safe.
 */
import { isCancellation, proxyActivities, sleep } from '@temporalio/workflow';
import type { ToolActivities } from './router/dispatch';
import type { LookupAnswer } from '../activities/lookup-operation';
import { backoffPolicySchema, nextDelay } from '../recovery/backoff';
import type { LookupRecord } from './definitions';
import type { ReconcileInput } from './reconcile';

/** What a reconciliation has done so far. */
export interface Tally {
  replays: number;
  lookups: LookupRecord[];
}

/** Attempts of one lookup (Temporal retries it on a timeout: the activity itself answers `unknown` on errors). */
export const LOOKUP_ATTEMPTS = 3;
/** A lookup heartbeats every second (activities/lookup-operation.ts); this long without one, in ms, is a lost worker. */
export const LOOKUP_HEARTBEAT_TIMEOUT_MS = 5_000;

export interface LookupRounds {
  /** Lookups allowed. */
  readonly budget: number;
  /**
   * Waits the backoff (from the second lookup on) — or until `notBeforeMs` (workflow time, ms since the epoch), when
   * that is later — looks up once, records the answer.
   */
  next(notBeforeMs?: number): Promise<LookupAnswer>;
  /** Up to `budget` more lookups until one finds the operation applied; the last answer. */
  poll(): Promise<LookupAnswer | undefined>;
}

export function lookupRounds(input: ReconcileInput, tally: Tally): LookupRounds {
  const budget = input.lookupBudget ?? 3;
  const backoff = backoffPolicySchema().parse({ initialIntervalMs: 1000, ...input.lookupBackoff });
  const { lookupOperation } = proxyActivities<ToolActivities>({
    startToCloseTimeout: input.lookupTimeoutMs ?? 10_000,
    heartbeatTimeout: LOOKUP_HEARTBEAT_TIMEOUT_MS,
    retry: { maximumAttempts: LOOKUP_ATTEMPTS, initialInterval: 500, backoffCoefficient: 2 },
  });
  let made = 0;
  const lookUp = async (): Promise<LookupAnswer> => {
    try {
      return await lookupOperation({
        tool: input.spec.name,
        operationId: input.operationId,
        callId: input.callId,
        args: input.args,
      });
    } catch (err) {
      if (isCancellation(err)) throw err;
      return { state: 'unknown', detail: 'The lookup did not complete: its worker was lost or it timed out.' };
    }
  };
  const next = async (notBeforeMs?: number): Promise<LookupAnswer> => {
    if (made > 0) {
      const d = nextDelay({ retryNumber: made, policy: backoff, random: Math.random });
      const waitMs = Math.max(d.kind === 'wait' ? d.delayMs : 0, (notBeforeMs ?? 0) - Date.now());
      if (waitMs > 0) await sleep(waitMs);
    }
    made += 1;
    const answer = await lookUp();
    tally.lookups.push({
      state: answer.state,
      atMs: Date.now(),
      ...(answer.state === 'unknown' ? { detail: answer.detail } : {}),
    });
    return answer;
  };
  return {
    budget,
    next,
    async poll() {
      let last: LookupAnswer | undefined;
      for (let i = 0; i < budget && last?.state !== 'applied'; i++) last = await next();
      return last;
    },
  };
}
