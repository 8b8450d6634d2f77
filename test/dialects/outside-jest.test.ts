/**
 * openai's APIConnectionTimeoutError and gaxios's GaxiosError, provoked in a plain Node process (see
 * fixtures/outside-jest.ts for why not inside jest) through the real `invokeTool` activity.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { TS_CHILD_ARGS } from '../setup/ts-child';

let results: Record<string, Record<string, unknown>>;
beforeAll(() => {
  const out = execFileSync(process.execPath, [...TS_CHILD_ARGS, join(__dirname, 'fixtures', 'outside-jest.ts')], {
    encoding: 'utf8',
    env: process.env,
  });
  results = JSON.parse(out.trim().split('\n').pop()!) as typeof results;
});

const strip = ({ publicMessage: _p, message: _m, ...rest }: Record<string, unknown>) => rest;

test('openai APIConnectionTimeoutError ("Request timed out.", no code, no cause): a read → retry; a write → reconcile', () => {
  expect(results['openai-timeout-read']!.message).toBe('Request timed out.');
  expect(strip(results['openai-timeout-read']!)).toEqual({
    class: 'transient',
    reason: 'timeout',
    action: 'retry',
    phase: 'dispatch',
  });
  expect(strip(results['openai-timeout-write']!)).toEqual({
    class: 'outcome_unknown',
    reason: 'timeout',
    action: 'reconcile',
    phase: 'commit_unknown',
  });
  expect(results['openai-timeout-write']!.publicMessage).toContain('OpenAI SDK APIConnectionTimeoutError');
});

test.each([
  ['rateLimitExceeded', { class: 'transient', reason: 'rate_limited', action: 'retry' }],
  ['userRateLimitExceeded', { class: 'transient', reason: 'rate_limited', action: 'retry' }],
  ['quotaExceeded', { class: 'unrecoverable', reason: 'unspecified', action: 'escalate' }],
  ['insufficientPermissions', { class: 'authorization', reason: 'forbidden', action: 'stop' }],
])('gaxios 403 %s → %o', (reason, expected) => {
  const r = results[`gaxios-${reason}`]!;
  expect(strip(r)).toEqual({ ...expected, phase: 'dispatch' });
  expect(String(r.publicMessage)).not.toMatch(/127\.0\.0\.1|sk-secret/);
});
