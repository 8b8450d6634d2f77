/**
 * How the tool activity's steps end a call: the classification context of a call, the preflight and earlier-attempt
 * failures, what a tool threw classified, and an unusable result. Pure unit tests: no workers, no servers.
 */
import type { Info } from '@temporalio/activity';
import { HttpBodyError, HttpOutcomeError } from '../http';
import { callContext, readTool, writeTool } from '../../test/fixtures/invoke';
import { callContextOf, classifyThrown, earlierAttemptOf, preflightFailure, unusableResult } from './stop';

const info = (more: Partial<Info> = {}) =>
  ({ activityId: '7', attempt: 2, workflowExecution: { workflowId: 'wf-1', runId: 'r1' }, ...more }) as Info;

describe('callContextOf', () => {
  beforeEach(() => jest.useFakeTimers({ now: 5_000 }));
  afterEach(() => jest.useRealTimers());

  it('stop: a write’s context — its effect, no dedup (one-shot key), its input fields, ref workflow/activity/attempt', () => {
    expect(callContextOf(writeTool(), { tool: 'refund', callId: 'c1' }, info())).toEqual({
      tool: 'refund',
      callId: 'c1',
      effect: 'write',
      deduplicates: false,
      approvalCanLift: false,
      inputFields: ['id'],
      nowMs: 5_000,
      diagnosticRef: 'wf-1/7/2',
    });
  });

  it('stop: a write whose receiver deduplicates by its key deduplicates; approval and phrases carried', () => {
    const tool = writeTool({
      idempotency: { carrier: 'header', deduplicates: true },
      approvalCanLift: true,
      alreadyPhrases: ['already refunded'],
    });
    expect(callContextOf(tool, { tool: 'refund', callId: 'c1' }, info())).toMatchObject({
      deduplicates: true,
      approvalCanLift: true,
      alreadyPhrases: ['already refunded'],
    });
  });

  it('stop: a tool this worker does not have is read as a read; a standalone activity has no workflow id', () => {
    expect(
      callContextOf(undefined, { tool: 'gone', callId: 'c1' }, info({ workflowExecution: undefined } as never)),
    ).toEqual({
      tool: 'gone',
      callId: 'c1',
      effect: 'read',
      deduplicates: false,
      approvalCanLift: false,
      nowMs: 5_000,
      diagnosticRef: 'standalone/7/2',
    });
  });
});

describe('preflightFailure and earlierAttemptOf', () => {
  it('stop: a failure before dispatch is preflight, replay-safe, not retryable unless it says so', () => {
    const ctx = callContext(readTool());
    const f = preflightFailure(ctx, 'transient', 'not_on_worker', 'Not on this worker.', { retryable: true });
    expect(f).toMatchObject({
      class: 'transient',
      reason: 'not_on_worker',
      phase: 'preflight',
      retryable: true,
      replaySafe: true,
    });
    expect(preflightFailure(ctx, 'invalid_arguments', 'schema', 'Bad.').retryable).toBe(false);
  });

  it('stop: a write an earlier attempt may have sent is outcome_unknown/earlier_attempt in commit_unknown, never replay-safe', () => {
    expect(earlierAttemptOf(callContext(writeTool()))).toMatchObject({
      tool: 'refund',
      class: 'outcome_unknown',
      reason: 'earlier_attempt',
      phase: 'commit_unknown',
      retryable: false,
      replaySafe: false,
    });
  });
});

describe('classifyThrown', () => {
  it('stop: an HttpOutcomeError carrying a 409 to a write → semantic_rejection/conflict', () => {
    const tool = writeTool();
    const err = new HttpOutcomeError({ kind: 'http', status: 409, headers: {}, body: { error: 'conflict' } });
    expect(classifyThrown(err, callContext(tool), tool)).toMatchObject({
      class: 'semantic_rejection',
      reason: 'conflict',
      status: 409,
    });
  });

  it('stop: a body ctx.http could not read because it was too large → invalid_result/result_too_large, postcheck', () => {
    const tool = readTool();
    const err = new HttpBodyError(200, 'too_large', 1024);
    expect(classifyThrown(err, callContext(tool), tool)).toMatchObject({
      class: 'invalid_result',
      reason: 'result_too_large',
      phase: 'postcheck',
      status: 200,
      publicMessage:
        'get_order: HTTP 200, but its body is over the 1024-byte bound it is read to. Ask for less (a filter, a smaller page).',
    });
  });

  it('stop: the operators’ rules, then the tool’s classifier, have the last word', () => {
    const tool = readTool({ classify: () => ({ class: 'unrecoverable', reason: 'tool_bug' }) });
    expect(classifyThrown(new Error('boom'), callContext(tool), tool)).toMatchObject({
      class: 'unrecoverable',
      reason: 'tool_bug',
    });
  });
});

describe('unusableResult', () => {
  it('stop: a result too large tells the model to ask for less', () => {
    expect(unusableResult(callContext(readTool()), 'it is 9 MB', true)).toMatchObject({
      class: 'invalid_result',
      reason: 'result_too_large',
      phase: 'postcheck',
      retryable: false,
      replaySafe: true,
      publicMessage: 'get_order: it is 9 MB. Ask for less (a filter, a smaller page).',
    });
  });

  it('stop: a result that is not what the schema says is a schema_violation, the status kept', () => {
    expect(unusableResult(callContext(readTool()), 'not JSON', false, 200)).toMatchObject({
      reason: 'schema_violation',
      status: 200,
      publicMessage: 'get_order: not JSON.',
    });
  });
});
