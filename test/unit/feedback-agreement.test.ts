/**
 * What the model is told agrees with what the router does and says only what is known (issue 28, "Feedback a new
 * user found wrong"): no "received not reported", no "safe to try again" once the retries are spent, and the
 * server's hints kept for a repair as for a replan.
 */
import { z } from 'zod';
import { defineTool } from '../../activities/define-tool';
import { HttpOutcomeError } from '../../activities/http';
import { semanticMeta } from '../../activities/postcondition';
import { classifyHttp } from '../../recovery/classify/http';
import { retriesSpentMessage } from '../../recovery/classify/sent';
import { summarizeIssues } from '../../recovery/classify/text';
import { MAX_PUBLIC_MESSAGE_CHARS } from '../../recovery/failure';

const ctx = {
  tool: 'create_payment',
  callId: 'c1',
  effect: 'write' as const,
  deduplicates: false,
  approvalCanLift: false,
  nowMs: 0,
  diagnosticRef: 'wf/1/1',
};

describe('summarizeIssues says only what is known', () => {
  test.each([
    [
      { path: ['amountCents'], expected: 'must be at most 1500', received: 'not reported' },
      'amountCents: must be at most 1500',
    ],
    [{ path: ['amountCents'], expected: 'integer', received: 'not reported' }, 'amountCents expected integer'],
    [
      { path: ['amountCents'], expected: 'integer', received: '"12.5"' },
      'amountCents expected integer, received "12.5"',
    ],
    [{ path: ['to'], expected: 'string', received: 'missing' }, 'to is missing (expected string)'],
  ])('%p → %s', (issue, line) => {
    expect(summarizeIssues([issue])).toBe(line);
  });
});

describe('retriesSpentMessage: never "safe to try again" once retries are spent', () => {
  test.each([
    [
      'pay: the connection was refused; the request was not sent, so it is safe to try again.',
      'pay: the connection was refused; the request was not sent, and retrying did not help.',
    ],
    [
      'pay: HTTP 503; the request was not processed, so it is safe to try again.',
      'pay: HTTP 503; the request was not processed, and retrying did not help.',
    ],
    [
      'get_balance: the connection was reset; the read can be retried.',
      'get_balance: the connection was reset; retrying the read did not help.',
    ],
    ['get_balance: HTTP 429, rate limited.', 'get_balance: HTTP 429, rate limited. Retrying did not help.'],
  ])('%s', (before, after) => {
    expect(retriesSpentMessage(before)).toBe(after);
    expect(retriesSpentMessage(after)).toBe(after);
  });

  test('a message at the length limit stays within it', () => {
    const long = 'x'.repeat(MAX_PUBLIC_MESSAGE_CHARS);
    expect(retriesSpentMessage(long)).toBe(long);
  });
});

test("a 422's numeric hints reach a repair as observed state, as they reach a replan", () => {
  const tool = defineTool({
    name: 'create_payment',
    description: 'Creates a payment.',
    input: z.object({ amountCents: z.number() }),
    output: z.unknown(),
    effect: 'write',
    idempotency: { carrier: 'header', name: 'Idempotency-Key', deduplicates: false },
    execute: async () => ({}),
  });
  const body = { errors: [{ field: 'amountCents', message: 'must be at most 1500' }], max: 1500 };
  const err = new HttpOutcomeError({ kind: 'http', status: 422, headers: {}, body });
  const failure = classifyHttp(422, {}, body, ctx);
  expect(failure).toMatchObject({ class: 'invalid_arguments' });
  expect(semanticMeta(err, failure, tool)).toEqual({ observedState: body });
});
