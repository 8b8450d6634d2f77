/** The shadow bench's totals (bench/shadow/report.ts): eval runs and money transfers summed per arm. Pure. */
import type { PlainRunScore } from '../../bench/shadow/eval-runs';
import { armTotals, totalsTable } from '../../bench/shadow/report';
import type { TransferScore } from '../../bench/shadow/transfer-runs';

const run = (arm: PlainRunScore['arm'], more: Partial<PlainRunScore>): PlainRunScore => ({
  scenario: 'slot-taken',
  arm,
  seed: 1,
  correct: true,
  status: 'submitted',
  dispatches: 7,
  retries: 4,
  wasted: 4,
  identicalReexecutions: 4,
  wastedRetryMs: 15_000,
  duplicateSideEffects: 0,
  finalState: '',
  ...more,
});
const transfer = (arm: TransferScore['arm'], more: Partial<TransferScore>): TransferScore => ({
  case: 'deposit-lost',
  arm,
  seed: 1,
  correct: false,
  completed: true,
  depositAttempts: 2,
  depositsApplied: 2,
  wasted: 1,
  durationMs: 1_000,
  ...more,
});

test('armTotals: dispatches, retries, wasted retries and duplicates of both sets, per arm, in the order of ARMS', () => {
  const totals = armTotals(
    [
      run('temporal-default', {}),
      run('enforce', { dispatches: 3, retries: 0, wasted: 0, identicalReexecutions: 0, wastedRetryMs: 0 }),
    ],
    [
      transfer('temporal-default', {}),
      transfer('enforce', { correct: true, depositAttempts: 1, depositsApplied: 1, wasted: 0 }),
    ],
  );
  expect(totals).toEqual([
    {
      arm: 'temporal-default',
      runs: 2,
      correct: 1,
      dispatches: 9,
      retries: 5,
      wasted: 5,
      identicalReexecutions: 4,
      wastedRetryMs: 15_000,
      duplicates: 1,
    },
    {
      arm: 'shadow',
      runs: 0,
      correct: 0,
      dispatches: 0,
      retries: 0,
      wasted: 0,
      identicalReexecutions: 0,
      wastedRetryMs: 0,
      duplicates: 0,
    },
    {
      arm: 'enforce',
      runs: 2,
      correct: 2,
      dispatches: 4,
      retries: 0,
      wasted: 0,
      identicalReexecutions: 0,
      wastedRetryMs: 0,
      duplicates: 0,
    },
  ]);
  expect(totalsTable(totals).split('\n')[3]).toMatch(/^temporal-default\s+2\s+1\s+9\s+5\s+5\s+4\s+15\.0 s\s+1$/);
});
