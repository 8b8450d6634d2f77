/**
 * How a call ends: the failures the router finds itself (`runtimeFailure`). Pure unit tests: no workers, no servers.
 * `routed`, `succeed` and `writeRecord` write the call's record through Temporal's workflow logger and sinks, which
 * exist only in a workflow context: they run in the Temporal tier (test/temporal/routing.test.ts, agent.test.ts).
 */
import { MAX_PUBLIC_MESSAGE_CHARS } from '../../recovery/failure';
import { readyScope, spec } from '../../test/fixtures/router';
import { runtimeFailure } from './outcomes';

describe('runtimeFailure', () => {
  it('outcomes: a failure the router found is preflight, not retryable, replay-safe, named by the shown tool name', () => {
    const scope = readyScope(spec(), {}, { shownName: '(no name)', callId: 'c9', diagnosticRef: 'wf-1/c9' });
    expect(runtimeFailure(scope, 'capability_missing', 'unknown_tool', 'There is no tool named "(no name)".')).toEqual({
      tool: '(no name)',
      callId: 'c9',
      class: 'capability_missing',
      reason: 'unknown_tool',
      phase: 'preflight',
      retryable: false,
      replaySafe: true,
      publicMessage: 'There is no tool named "(no name)".',
      diagnosticRef: 'wf-1/c9',
    });
  });

  it('outcomes: `more` overrides the defaults (an earlier attempt may have sent the write: commit_unknown)', () => {
    const f = runtimeFailure(readyScope(spec()), 'outcome_unknown', 'earlier_attempt', 'm', {
      phase: 'commit_unknown',
      replaySafe: false,
    });
    expect([f.phase, f.replaySafe, f.retryable]).toEqual(['commit_unknown', false, false]);
  });

  it(`outcomes: the public message is cut to ${MAX_PUBLIC_MESSAGE_CHARS} characters`, () => {
    const f = runtimeFailure(
      readyScope(spec()),
      'unrecoverable',
      'unspecified',
      'x'.repeat(MAX_PUBLIC_MESSAGE_CHARS + 50),
    );
    expect(f.publicMessage).toBe('x'.repeat(MAX_PUBLIC_MESSAGE_CHARS));
  });
});
