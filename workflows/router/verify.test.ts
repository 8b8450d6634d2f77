/**
 * The postcondition read of a call (./verify.ts): the activity options it asks Temporal for, the request it sends and
 * what it answers when the read fails. Pure unit tests: no workers, no servers; `proxyActivities` is replaced by a
 * recorder that keeps the options and hands back the answer or error Temporal would deliver (`isCancellation` and the
 * failure classes are the SDK's own).
 */
import { ActivityFailure, ApplicationFailure, CancelledFailure, RetryState } from '@temporalio/common';
import type { ActivityOptions } from '@temporalio/workflow';
import type { VerifyAnswer } from '../../activities/postcondition';
import { dedupWrite, spec } from '../../test/fixtures/router';
import { VERIFY_ATTEMPTS, verifyCall } from './verify';

const asked: ActivityOptions[] = [];
const sent: unknown[] = [];
let answer: () => Promise<VerifyAnswer> = async () => ({ verdict: 'holds' });

jest.mock('@temporalio/workflow', () => ({
  ...jest.requireActual('@temporalio/workflow'),
  proxyActivities: (options: ActivityOptions) => {
    asked.push(options);
    return {
      verifyPostcondition: (req: unknown) => {
        sent.push(req);
        return answer();
      },
    };
  },
}));

beforeEach(() => {
  asked.length = 0;
  sent.length = 0;
});

/** What `await verifyPostcondition(...)` throws when its last attempt failed. */
const activityFailed = () =>
  new ActivityFailure(
    'activity failed',
    'verifyPostcondition',
    '1',
    RetryState.MAXIMUM_ATTEMPTS_REACHED,
    undefined,
    ApplicationFailure.create({ type: 'Error', message: 'lookup down' }),
  );

const call = (over: Partial<Parameters<typeof verifyCall>[0]> = {}) => ({
  spec: spec(),
  args: { id: 'o-1' },
  callId: 'c1',
  operationId: 'wf-1:s1',
  ...over,
});

describe('verifyCall', () => {
  it('verify: one read with 3 attempts, 200 ms doubling, the tool’s StartToClose timeout', async () => {
    await verifyCall(call({ spec: spec({ startToCloseTimeoutMs: 12_000 }) }));
    expect(VERIFY_ATTEMPTS).toBe(3);
    expect(asked).toEqual([
      { startToCloseTimeout: 12_000, retry: { maximumAttempts: 3, initialInterval: 200, backoffCoefficient: 2 } },
    ]);
  });

  it('verify: sends the tool’s name, the arguments and both ids, nothing else of the call', async () => {
    const scope = { ...call({ spec: dedupWrite({ name: 'pay' }), args: { amount: 5 } }), attempts: 2, reauthed: true };
    await verifyCall(scope);
    expect(sent).toEqual([{ tool: 'pay', args: { amount: 5 }, callId: 'c1', operationId: 'wf-1:s1' }]);
  });

  it.each<VerifyAnswer>([
    { verdict: 'holds', state: { status: 'paid' } },
    { verdict: 'does_not_hold' },
    { verdict: 'unknown' },
  ])('verify: the activity’s answer %j is the answer', async (given) => {
    answer = async () => given;
    await expect(verifyCall(call())).resolves.toEqual(given);
  });

  it('verify: a read that failed its 3 attempts → unknown (the failure is routed as it was)', async () => {
    answer = () => Promise.reject(activityFailed());
    await expect(verifyCall(call())).resolves.toEqual({ verdict: 'unknown' });
    expect(sent).toHaveLength(1);
  });

  it('verify: a cancelled read is not an answer: the cancellation goes on', async () => {
    const cancelled = new CancelledFailure('workflow cancelled');
    answer = () => Promise.reject(cancelled);
    await expect(verifyCall(call())).rejects.toBe(cancelled);
  });

  it('verify: an activity cancelled under it goes on too', async () => {
    const failed = new ActivityFailure(
      'activity cancelled',
      'verifyPostcondition',
      '1',
      RetryState.CANCEL_REQUESTED,
      undefined,
      new CancelledFailure('cancelled'),
    );
    answer = () => Promise.reject(failed);
    await expect(verifyCall(call())).rejects.toBe(failed);
  });
});
