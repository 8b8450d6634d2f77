/**
 * `needsApproval` of an AI SDK tool, adopted with `fromAiSdkTool`, is the router's approval: inside
 * `generateText` (with `@temporalio/ai-sdk`'s provider; model: `ai/test`'s MockLanguageModelV4) the call waits
 * for `recovery.decideApproval` bound to the tool and the argument digest; nothing runs before; a decision for
 * other arguments is refused; the approved call runs once and the model reads its result. A `needsApproval`
 * function that says no lets the call run at once. Real dev server; the worker runs in a plain Node process
 * (fixtures/interop-approval.ts: `ai` 7 is ESM-only, which jest's CommonJS runtime cannot load).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { TS_CHILD_ARGS } from '../setup/ts-child';

interface Observed {
  big: {
    pending: { callId: string; tool: string; digestIsHex: boolean }[];
    executedWhileWaiting: unknown[];
    refused: string;
    executedAfterRefusal: unknown[];
    result: unknown;
    executed: unknown[];
  };
  small: { result: unknown; executed: unknown[] };
}

let o: Observed;
beforeAll(async () => {
  const fixture = join(__dirname, 'fixtures', 'interop-approval.ts');
  const { stdout } = await promisify(execFile)(process.execPath, [...TS_CHILD_ARGS, fixture], {
    env: { ...process.env, TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS },
    timeout: 110_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  o = JSON.parse(stdout.trim().split('\n').pop()!) as Observed;
});

test('needsApproval says yes → the call waits, listed with its argument digest; nothing runs while it waits', () => {
  expect(o.big.pending).toEqual([{ callId: 'refund-25000', tool: 'refund', digestIsHex: true }]);
  expect(o.big.executedWhileWaiting).toEqual([]);
});

test('a decision for other arguments (another digest) is refused and runs nothing', () => {
  expect(o.big.refused).toBe('ApprovalError: argsDigest is not the digest of the waiting call: approve what it shows');
  expect(o.big.executedAfterRefusal).toEqual([]);
});

test('approved with the digest → it runs once, the model reads its result; the record says approval_granted', () => {
  expect(o.big.executed).toEqual([{ orderId: 'O-1', amountCents: 25_000 }]);
  expect(o.big.result).toEqual({
    text: JSON.stringify({ refundId: 'rf_1' }),
    records: [{ tool: 'refund', action: 'request_approval', evidence: 'approval_granted' }],
  });
});

test('needsApproval says no → the call runs at once, no approval asked', () => {
  expect(o.small.executed).toEqual([{ orderId: 'O-1', amountCents: 500 }]);
  expect(o.small.result).toEqual({
    text: JSON.stringify({ refundId: 'rf_1' }),
    records: [{ tool: 'refund', action: 'ok', evidence: null }],
  });
});
