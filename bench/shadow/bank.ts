/**
 * A small equivalent of Temporal's money-transfer sample (temporalio/money-transfer-project-template-ts: activities
 * `withdraw`, `deposit`, `refund` through a `BankingService`; `InvalidAccountError` and `InsufficientFundsError` in
 * the retry policy's `nonRetryableErrorTypes`; a `depositThatFails` to simulate a bug). The sample's bank is an
 * in-process mock and the repository is not reachable offline, so here the bank is a loopback HTTP service with
 * real balances and a ledger of applied operations (each `referenceId` may be applied once per kind, but the bank
 * does not deduplicate: a second deposit is a second deposit), and faults armed per reference: a 503 twice, a
 * frozen account (422), a deposit whose answer is lost after it was applied, the sample's failing deposit.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import axios from 'axios';

export type BankFault = 'withdraw_unavailable_twice' | 'deposit_frozen' | 'deposit_lost' | 'deposit_bug';

export interface PaymentDetails {
  amount: number;
  sourceAccount: string;
  targetAccount: string;
  referenceId: string;
}

export interface Bank {
  url: string;
  /** Requests received per `kind referenceId` (`deposit R-1`), and applied operations. */
  requests(kind: string, ref: string): number;
  applied(kind: string, ref: string): number;
  balance(account: string): number;
  open(account: string, balance: number): void;
  arm(ref: string, fault: BankFault): void;
  close(): Promise<void>;
}

type Op = { kind: string; ref: string; account: string; amount: number; id: string };

/** Starts the bank on 127.0.0.1. */
export async function startBank(): Promise<Bank> {
  const balances = new Map<string, number>();
  const ledger: Op[] = [];
  const seen = new Map<string, number>();
  const faults = new Map<string, BankFault>();
  const count = (k: string) => seen.set(k, (seen.get(k) ?? 0) + 1).get(k)!;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(json));
      };
      const url = new URL(req.url ?? '/', 'http://bank');
      if (req.method === 'GET' && url.pathname === '/operations') {
        const op = ledger.find((o) => o.kind === url.searchParams.get('kind') && o.ref === url.searchParams.get('ref'));
        return send(op ? 200 : 404, op ?? { code: 'not_found' });
      }
      const kind = url.pathname.slice(1);
      const { account, amount, ref } = JSON.parse(body || '{}') as { account: string; amount: number; ref: string };
      const n = count(`${kind} ${ref}`);
      const fault = faults.get(ref);
      if (fault === 'withdraw_unavailable_twice' && kind === 'withdraw' && n <= 2)
        return send(503, { code: 'unavailable' });
      if (fault === 'deposit_frozen' && kind === 'deposit') return send(422, { code: 'account_frozen' });
      if (!balances.has(account)) return send(404, { code: 'invalid_account' });
      if (kind === 'withdraw' && balances.get(account)! < amount) return send(400, { code: 'insufficient_funds' });
      balances.set(account, balances.get(account)! + (kind === 'withdraw' ? -amount : amount));
      const op = { kind, ref, account, amount, id: `${kind[0]}-${ref}-${ledger.length}` };
      ledger.push(op);
      if (fault === 'deposit_lost' && kind === 'deposit' && n === 1) return req.socket.destroy();
      send(200, { transactionId: op.id });
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: (kind, ref) => seen.get(`${kind} ${ref}`) ?? 0,
    applied: (kind, ref) => ledger.filter((o) => o.kind === kind && o.ref === ref).length,
    balance: (account) => balances.get(account) ?? 0,
    open: (account, balance) => void balances.set(account, balance),
    arm: (ref, fault) => void faults.set(ref, fault),
    close: () => new Promise((done) => server.close(() => done())),
  };
}

/** The sample's error types: the workflow's retry policy names them in `nonRetryableErrorTypes`. */
class BankError extends Error {}
export class InvalidAccountError extends BankError {
  override name = 'InvalidAccountError';
}
export class InsufficientFundsError extends BankError {
  override name = 'InsufficientFundsError';
}

/** The sample's activities, over the loopback bank; a reference containing `bug` makes `deposit` the sample's bug. */
export function createBankActivities(bank: () => Bank) {
  const call = async (kind: string, account: string, d: PaymentDetails): Promise<string> => {
    try {
      const res = await axios.post(`${bank().url}/${kind}`, { account, amount: d.amount, ref: d.referenceId });
      return (res.data as { transactionId: string }).transactionId;
    } catch (err) {
      const code = axios.isAxiosError(err) ? (err.response?.data as { code?: string } | undefined)?.code : undefined;
      if (code === 'invalid_account') throw new InvalidAccountError(`account ${account} does not exist`);
      if (code === 'insufficient_funds') throw new InsufficientFundsError(`insufficient funds in ${account}`);
      throw err;
    }
  };
  return {
    withdraw: (d: PaymentDetails) => call('withdraw', d.sourceAccount, d),
    async deposit(d: PaymentDetails) {
      // The sample's `depositThatFails`: a bug that fails every attempt, before anything is sent.
      if (d.referenceId.includes('bug')) throw new Error('This deposit has failed.');
      return call('deposit', d.targetAccount, d);
    },
    refund: (d: PaymentDetails) => call('refund', d.sourceAccount, { ...d, referenceId: `${d.referenceId}-refund` }),
  };
}

/** Looks a deposit up by its reference: what the bench declares as the deposit's lookup in enforce. */
export async function lookUpDeposit(bank: Bank, ref: string) {
  const res = await axios.get(`${bank.url}/operations`, {
    params: { kind: 'deposit', ref },
    validateStatus: () => true,
  });
  if (res.status === 200) return { state: 'applied' as const, value: (res.data as { id: string }).id };
  return res.status === 404 ? { state: 'not_applied' as const } : { state: 'unknown' as const };
}
