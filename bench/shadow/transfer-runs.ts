/**
 * The money-transfer equivalent (./bank.ts, ./money-transfer.ts) under the three arms: five cases, each a fresh
 * pair of accounts and a reference of its own, scored from the bank's balances and ledger and the activities'
 * attempt counts:
 * - `flaky-withdraw`: the withdrawal answers 503 twice → retried, and the transfer completes (nothing wasted);
 * - `invalid-account`: the deposit's account does not exist → `InvalidAccountError`, not retried by the sample's
 *   own policy, refunded;
 * - `deposit-frozen`: the deposit is refused with 422 `account_frozen` → every retry is wasted, then refunded;
 * - `deposit-bug`: the sample's `depositThatFails` (an error no rule recognises) → retried by every arm;
 * - `deposit-lost`: the deposit is applied and its answer lost → a blind retry deposits twice.
 * Correct: the money ends where it should (completed: moved once; failed: back at the source) and the workflow says
 * so. Wasted: retries of a deposit that could not succeed, and deposits retried after their outcome was unknown.
 */
import type { Client } from '@temporalio/client';
import { queueOf, type Arm } from './arms';
import type { Bank, BankFault, PaymentDetails } from './bank';

export const TRANSFER_CASES = [
  'flaky-withdraw',
  'invalid-account',
  'deposit-frozen',
  'deposit-bug',
  'deposit-lost',
] as const;
export type TransferCase = (typeof TRANSFER_CASES)[number];

const FAULT: Record<TransferCase, BankFault | undefined> = {
  'flaky-withdraw': 'withdraw_unavailable_twice',
  'invalid-account': undefined,
  'deposit-frozen': 'deposit_frozen',
  'deposit-bug': undefined,
  'deposit-lost': 'deposit_lost',
};

export interface TransferScore {
  case: TransferCase;
  arm: Arm;
  seed: number;
  correct: boolean;
  completed: boolean;
  /** Activity attempts of `deposit`, and deposits the bank applied. */
  depositAttempts: number;
  depositsApplied: number;
  wasted: number;
  durationMs: number;
}

/** Attempts per `kind ref`, counted by the activities (the sample's bug fails before the bank sees a request). */
export type AttemptCounter = (kind: string, ref: string) => number;

export async function runTransfer(
  client: Client,
  bank: Bank,
  attempts: AttemptCounter,
  c: TransferCase,
  arm: Arm,
  seed: number,
): Promise<TransferScore> {
  const ref = `T-${c}-${arm}-${seed}${c === 'deposit-bug' ? '-bug' : ''}`;
  const details: PaymentDetails = {
    amount: 100,
    sourceAccount: `src-${ref}`,
    targetAccount: c === 'invalid-account' ? `nobody-${ref}` : `dst-${ref}`,
    referenceId: ref,
  };
  bank.open(details.sourceAccount, 1_000);
  if (c !== 'invalid-account') bank.open(details.targetAccount, 0);
  const fault = FAULT[c];
  if (fault) bank.arm(ref, fault);
  const startMs = Date.now();
  const completed = await client.workflow
    .execute('moneyTransfer', { taskQueue: queueOf(arm), workflowId: `sh-transfer-${ref}`, args: [details] })
    .then(
      () => true,
      () => false,
    );
  const depositsApplied = bank.applied('deposit', ref);
  const moved = bank.balance(details.sourceAccount) === 900 && bank.balance(details.targetAccount) === 100;
  const restored = bank.balance(details.sourceAccount) === 1_000 && bank.balance(details.targetAccount) === 0;
  const depositAttempts = attempts('deposit', ref);
  const cannotSucceed = c === 'deposit-frozen' || c === 'deposit-bug' || c === 'invalid-account';
  return {
    case: c,
    arm,
    seed,
    correct: completed ? moved && depositsApplied === 1 : restored,
    completed,
    depositAttempts,
    depositsApplied,
    wasted: cannotSucceed || c === 'deposit-lost' ? Math.max(0, depositAttempts - 1) : 0,
    durationMs: Date.now() - startMs,
  };
}
