/**
 * The workflow of the money-transfer equivalent (./bank.ts): withdraw, deposit, and on a failed deposit a refund
 * (the sample's saga), under the sample's retry policy: 1 s, ×2, at most 1 min, 5 attempts, `InvalidAccountError`
 * and `InsufficientFundsError` not retried. Sandbox-safe.
 */
import { ActivityFailure, ApplicationFailure, proxyActivities } from '@temporalio/workflow';
import type { createBankActivities, PaymentDetails } from './bank';

const { withdraw, deposit, refund } = proxyActivities<ReturnType<typeof createBankActivities>>({
  startToCloseTimeout: '5 seconds',
  retry: {
    initialInterval: '1 second',
    maximumInterval: '1 minute',
    backoffCoefficient: 2,
    maximumAttempts: 5,
    nonRetryableErrorTypes: ['InvalidAccountError', 'InsufficientFundsError'],
  },
});

const why = (err: unknown) =>
  err instanceof ActivityFailure && err.cause instanceof ApplicationFailure ? err.cause.message : String(err);

export async function moneyTransfer(details: PaymentDetails): Promise<string> {
  const withdrawn = await withdraw(details);
  let deposited: string;
  try {
    deposited = await deposit(details);
  } catch (depositErr) {
    const refunded = await refund(details).then(
      (id) => `Money returned to ${details.sourceAccount} (${id}).`,
      (refundErr: unknown) => `Money could not be returned to ${details.sourceAccount}: ${why(refundErr)}.`,
    );
    throw ApplicationFailure.nonRetryable(`Deposit failed: ${why(depositErr)}. ${refunded}`, 'TransferFailed');
  }
  return `Transfer complete (transaction IDs: ${withdrawn}, ${deposited})`;
}
