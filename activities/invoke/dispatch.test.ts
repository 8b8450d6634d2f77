/**
 * The tool activity's second step: `execute` through the downstream's breaker, its throw classified once, a 401
 * answered with one refresh. Pure unit tests: no server; the activity's context is Temporal's
 * `MockActivityEnvironment`, the breaker, guard, evidence and credential broker are the real ones, and the breaker's
 * clock is injected.
 */
import { Context } from '@temporalio/activity';
import { activityEnv } from '../../test/fixtures/activity-env';
import { guardAttempt } from '../attempt-guard';
import { BreakerRegistry } from '../breaker';
import { CredentialBroker } from '../credentials';
import type { AnyTool } from '../define-tool';
import { HttpOutcomeError } from '../http';
import { HttpEvidence } from '../http-evidence';
import type { ToolContext } from '../tool-context';
import { callContext, readTool, writeTool } from '../../test/fixtures/invoke';
import { dispatch, type DispatchDeps } from './dispatch';
import { CallStopped } from './stop';

const silent = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };
const http = (status: number, body?: unknown) =>
  new HttpOutcomeError({ kind: 'http', status, headers: {}, ...(body === undefined ? {} : { body }) });
const inv = { callId: 'c1', operationId: 'wf-1@r1:s1' };

interface Run {
  tool: AnyTool;
  credential?: { token: string; version: number };
  deps?: Partial<DispatchDeps>;
  refreshOnAuthFailure?: boolean;
}

/** One dispatch inside a mock activity: its value, or the CallStopped it threw. */
async function run({
  tool,
  credential,
  deps = {},
  refreshOnAuthFailure,
}: Run): Promise<{ value?: unknown; stopped?: CallStopped }> {
  const env = activityEnv({ activityId: 'a1' }, { logger: silent });
  return env.run(async () => {
    const activity = Context.current();
    const guard = guardAttempt(activity);
    const all: DispatchDeps = {
      breakers: new BreakerRegistry({}, () => 0),
      credentials: new CredentialBroker(),
      guard,
      rules: [],
      evidence: new HttpEvidence(),
      ...deps,
    };
    try {
      const call = { tool, args: { id: 'o-1' }, credential };
      const more = refreshOnAuthFailure === undefined ? {} : { refreshOnAuthFailure };
      return { value: await dispatch(call, { ...inv, ...more }, callContext(tool), activity, all) };
    } catch (err) {
      if (err instanceof CallStopped) return { stopped: err };
      throw err;
    } finally {
      guard.dispose();
    }
  });
}

describe('dispatch', () => {
  it('dispatch: the tool’s raw answer comes back; execute saw the arguments, the operation id and the credential', async () => {
    const seen: [unknown, Partial<ToolContext>][] = [];
    const tool = readTool({
      execute: (args: unknown, ctx: ToolContext) => {
        seen.push([args, { operationId: ctx.operationId, callId: ctx.callId, credential: ctx.credential }]);
        return Promise.resolve({ raw: true });
      },
    });
    const out = await run({ tool, credential: { token: 't', version: 2 } });
    expect(out).toEqual({ value: { raw: true } });
    expect(seen).toEqual([
      [{ id: 'o-1' }, { operationId: 'wf-1@r1:s1', callId: 'c1', credential: { token: 't', version: 2 } }],
    ]);
  });

  it('dispatch: a 409 to a write → semantic_rejection/conflict, classified once; the breaker does not count it', async () => {
    const breakers = new BreakerRegistry({ threshold: 1 }, () => 0);
    const tool = writeTool({ execute: () => Promise.reject(http(409, { error: 'duplicate' })) });
    const { stopped } = await run({ tool, deps: { breakers } });
    expect(stopped?.failure).toMatchObject({ class: 'semantic_rejection', reason: 'conflict', status: 409 });
    expect(breakers.state('refund')).toBe('closed');
  });

  it('dispatch: a 503 opens a breaker of threshold 1; the next call is refused unsent → transient/circuit_open, preflight, retry after the half-open time', async () => {
    const breakers = new BreakerRegistry({ threshold: 1, halfOpenAfterMs: 4_000 }, () => 0);
    let executed = 0;
    const tool = readTool({
      execute: () => {
        executed += 1;
        return Promise.reject(http(503));
      },
    });
    const first = await run({ tool, deps: { breakers } });
    expect(first.stopped?.failure).toMatchObject({ class: 'transient', reason: 'unavailable', status: 503 });
    expect(breakers.state('get_order')).toBe('open');
    const second = await run({ tool, deps: { breakers } });
    expect(second.stopped?.failure).toMatchObject({
      class: 'transient',
      reason: 'circuit_open',
      phase: 'preflight',
      retryable: true,
      replaySafe: true,
      retryAfterMs: 4_000,
      publicMessage: 'The service behind this tool is failing; calls to it are paused.',
    });
    expect(executed).toBe(1);
  });

  it('dispatch: a 401 to a call with the broker’s credential → one refresh; the failure carries the new version', async () => {
    const credentials = new CredentialBroker({
      crm: { initial: () => Promise.resolve({ token: 't1' }), refresh: () => Promise.resolve({ token: 't2' }) },
    });
    const credential = await credentials.current('crm');
    const tool = readTool({ credential: 'crm', execute: () => Promise.reject(http(401)) });
    const { stopped } = await run({ tool, credential, deps: { credentials } });
    expect(stopped?.failure.class).toBe('authentication');
    expect(stopped?.meta).toEqual({ credentialVersion: 2 });
    expect(credentials.refreshCount('crm')).toBe(1);
  });

  it('dispatch: the replay after a refresh (refreshOnAuthFailure false) refreshes nothing: a second 401 goes to a person', async () => {
    const credentials = new CredentialBroker({
      crm: { initial: () => Promise.resolve({ token: 't1' }), refresh: () => Promise.resolve({ token: 't2' }) },
    });
    const credential = await credentials.current('crm');
    const tool = readTool({ credential: 'crm', execute: () => Promise.reject(http(401)) });
    const { stopped } = await run({ tool, credential, deps: { credentials }, refreshOnAuthFailure: false });
    expect(stopped?.failure.class).toBe('authentication');
    expect(stopped?.meta.credentialVersion).toBeUndefined();
    expect(credentials.refreshCount('crm')).toBe(0);
  });

  it('dispatch: a refresh refused for good → refresh_failed, a person must re-authorise', async () => {
    const credentials = new CredentialBroker({
      crm: {
        initial: () => Promise.resolve({ token: 't1' }),
        refresh: () => Promise.reject(new Error('invalid_grant')),
      },
    });
    const credential = await credentials.current('crm');
    const tool = readTool({ credential: 'crm', execute: () => Promise.reject(http(401)) });
    const { stopped } = await run({ tool, credential, deps: { credentials } });
    expect(stopped?.failure).toMatchObject({
      class: 'authentication',
      reason: 'refresh_failed',
      publicMessage: 'The credential expired and could not be refreshed; a person must re-authorise.',
    });
  });

  it('dispatch: an opaque Error rethrown for the 422 ctx.http saw is routed as that 422 (invalid_arguments)', async () => {
    const evidence = new HttpEvidence();
    const tool = writeTool({
      execute: () => {
        evidence.sending();
        evidence.threw(http(422, { errors: [{ field: 'id', message: 'unknown order' }] }), 'POST', 422);
        return Promise.reject(new Error('request failed'));
      },
    });
    const { stopped } = await run({ tool, deps: { evidence } });
    expect(stopped?.failure).toMatchObject({ class: 'invalid_arguments', status: 422 });
  });

  it('dispatch: a write whose answer could not be parsed, with no 2xx seen → outcome_unknown, never applied nor resent', async () => {
    const tool = writeTool({
      execute: () => Promise.reject(new SyntaxError('Unexpected token < in JSON at position 0')),
    });
    const { stopped } = await run({ tool });
    expect(stopped?.failure).toMatchObject({ class: 'outcome_unknown', phase: 'commit_unknown', replaySafe: false });
  });
});
