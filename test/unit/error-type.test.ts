/**
 * The ApplicationFailure type of a classified failure: the business type must not be lost (docs/DESIGN.md, "The
 * failure record").
 */
import { applicationFailureType } from '../../activities/failure-edge';
import { classify } from '../../recovery/classify';
import { errorTypeFor } from '../../recovery/failure';

const ctx = {
  tool: 'withdraw',
  callId: 'c1',
  effect: 'write' as const,
  deduplicates: true,
  approvalCanLift: false,
  nowMs: 0,
  diagnosticRef: 'd1',
};
const http = (status: number, body: unknown) => classify({ kind: 'http', status, headers: {}, body }, ctx);

test.each([
  ['insufficient_funds', 'InsufficientFundsError'],
  ['account_not_found', 'AccountNotFoundError'],
  ['account.not-found', 'AccountNotFoundError'],
  ['validation_error', 'ValidationError'],
  ['e', 'EError'],
])('errorTypeFor(%s) = %s', (code, type) => {
  expect(errorTypeFor(code)).toBe(type);
});

test.each(['', 'Insufficient', '9lives', 'has space', 'x'.repeat(65), '__proto__'])(
  'errorTypeFor(%j) = undefined: not a provider code',
  (code) => {
    expect(errorTypeFor(code)).toBeUndefined();
  },
);

test('422 {"code":"insufficient_funds"} → code kept on the failure, type InsufficientFundsError', () => {
  const f = http(422, { code: 'insufficient_funds' });
  expect(f).toMatchObject({ class: 'semantic_rejection', code: 'insufficient_funds', retryable: false });
  expect(applicationFailureType(f)).toBe('InsufficientFundsError');
});

test('{"error":{"code":"ACCOUNT_NOT_FOUND"}} on a 404 → lower-cased code, AccountNotFoundError', () => {
  const f = http(404, { error: { code: 'ACCOUNT_NOT_FOUND' } });
  expect(f.code).toBe('account_not_found');
  expect(applicationFailureType(f)).toBe('AccountNotFoundError');
});

test('a transient failure keeps its class as type even with a code (the retry policy names classes)', () => {
  const f = http(429, { code: 'rate_limited' });
  expect(f.class).toBe('transient');
  expect(applicationFailureType(f)).toBe('transient');
});

test('no code, or a code that is no identifier → the class', () => {
  expect(applicationFailureType(http(409, { message: 'conflict' }))).toBe('semantic_rejection');
  expect(http(422, { code: 'Bad Code!' }).code).toBeUndefined();
});
