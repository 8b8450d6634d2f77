/**
 * The postcondition read of a call: the `verifyPostcondition` activity (activities/postcondition.ts), a read, so it
 * may run again safely: three attempts, the tool's StartToClose timeout. An activity that still fails answers
 * `unknown` (the failure is then routed as it was). Sandbox-safe.
 */
import { isCancellation, proxyActivities } from '@temporalio/workflow';
import type { VerifyAnswer } from '../../activities/postcondition';
import type { ReconcileInput } from '../reconcile';
import type { ToolActivities } from './dispatch';

/** Attempts of one postcondition read. */
export const VERIFY_ATTEMPTS = 3;

export async function verifyCall(
  call: Pick<ReconcileInput, 'spec' | 'args' | 'callId' | 'operationId'>,
): Promise<VerifyAnswer> {
  const { verifyPostcondition } = proxyActivities<ToolActivities>({
    startToCloseTimeout: call.spec.startToCloseTimeoutMs,
    retry: { maximumAttempts: VERIFY_ATTEMPTS, initialInterval: 200, backoffCoefficient: 2 },
  });
  try {
    return await verifyPostcondition({
      tool: call.spec.name,
      args: call.args,
      callId: call.callId,
      operationId: call.operationId,
    });
  } catch (err) {
    if (isCancellation(err)) throw err;
    return { verdict: 'unknown' };
  }
}
