/**
 * The tool activity's first step, before any I/O of the tool: the tool exists on this worker, the key fits its
 * carrier, the arguments pass the input schema and the business rules, the credential is at hand. Pure unit tests:
 * no workers, no servers; the credential broker is the real one over providers the test gives it.
 */
import { z } from 'zod';
import { CredentialBroker, type CredentialProvider } from '../credentials';
import { ToolHttpRequestError } from '../http';
import { callContext, readTool, writeTool } from '../../test/fixtures/invoke';
import { preflight, providerUnavailable, type Prepared } from './preflight';
import { CallStopped } from './stop';
import type { AnyTool } from '../define-tool';

const inv = (more: Partial<Parameters<typeof preflight>[1]> = {}) => ({
  tool: 'get_order',
  args: { id: 'o-1' },
  operationId: 'wf-1@r1:s1',
  ...more,
});
const noCredentials = { credentials: new CredentialBroker() };

async function stopped(tool: AnyTool | undefined, call = inv(), worker = noCredentials): Promise<CallStopped> {
  let out: Prepared | undefined;
  try {
    out = await preflight(tool, call, callContext(tool ?? readTool()), worker);
  } catch (err) {
    if (err instanceof CallStopped) return err;
    throw err;
  }
  throw new Error(`preflight passed: ${JSON.stringify(out?.args)}`);
}

const provider = (initial: () => Promise<{ token: string }>): CredentialProvider => ({
  initial,
  refresh: () => Promise.resolve({ token: 'refreshed' }),
});

describe('preflight', () => {
  it('preflight: a valid call of a tool without a credential → ready, its arguments parsed, no credential', async () => {
    const tool = readTool();
    await expect(
      preflight(tool, inv({ args: { id: 'o-1', extra: 1 } }), callContext(tool), noCredentials),
    ).resolves.toEqual({
      tool,
      args: { id: 'o-1' },
      credential: undefined,
    });
  });

  it('preflight: a tool this worker lacks → transient/not_on_worker, retryable (another worker may have it), nothing sent', async () => {
    const s = await stopped(undefined, inv({ tool: 'export_report' }), {
      ...noCredentials,
      catalogDigest: 'cat-1',
    } as never);
    expect(s.failure).toMatchObject({
      class: 'transient',
      reason: 'not_on_worker',
      phase: 'preflight',
      retryable: true,
      replaySafe: true,
      publicMessage:
        'The tool "export_report" could not run: the worker that took the call does not have it in its catalog.',
    });
    expect(s.diagnostic).toEqual({ notInThisWorkersCatalog: 'export_report', catalogDigest: 'cat-1' });
  });

  it('preflight: a header-carried key with a control character → unrecoverable, nothing sent', async () => {
    const tool = writeTool();
    const s = await stopped(tool, inv({ tool: 'refund', operationId: 'wf\n1:s1' }));
    expect(s.failure).toMatchObject({
      class: 'unrecoverable',
      reason: 'unspecified',
      phase: 'preflight',
      replaySafe: true,
    });
    expect(s.failure.publicMessage).toMatch(/^The idempotency key holds characters a header cannot carry/);
    expect(s.diagnostic).toBeInstanceOf(ToolHttpRequestError);
  });

  it('preflight: a field-carried key is written into its field, whatever the model sent there', async () => {
    const tool = writeTool({
      input: z.object({ id: z.string(), requestId: z.string() }),
      idempotency: { carrier: 'field', name: 'requestId', deduplicates: true },
    });
    const ready = await preflight(
      tool,
      inv({ tool: 'refund', args: { id: 'o-1', requestId: 'made-up' } }),
      callContext(tool),
      noCredentials,
    );
    expect(ready.args).toEqual({ id: 'o-1', requestId: 'wf-1@r1:s1' });
  });

  it('preflight: arguments that fail the input schema → invalid_arguments/schema naming the field', async () => {
    const s = await stopped(readTool(), inv({ args: { id: 7 } }));
    expect(s.failure).toMatchObject({
      class: 'invalid_arguments',
      reason: 'schema',
      phase: 'preflight',
      retryable: false,
    });
    expect(s.failure.issues?.map((i) => i.path)).toEqual([['id']]);
  });

  it('preflight: a business rule broken → invalid_arguments/business_rule, each violation a field issue', async () => {
    const tool = readTool({
      validate: {
        before: () => [{ path: ['id'], message: 'an order id starts with o-', suggestion: 'Use o-<number>.' }],
      },
    });
    const s = await stopped(tool);
    expect(s.failure).toMatchObject({
      class: 'invalid_arguments',
      reason: 'business_rule',
      publicMessage: 'The arguments break a business rule.',
      issues: [{ path: ['id'], expected: 'an order id starts with o-', received: '', suggestion: 'Use o-<number>.' }],
    });
  });

  it('preflight: the credential is at hand → the token and its version go with the call', async () => {
    const tool = readTool({ credential: 'crm' });
    const credentials = new CredentialBroker({ crm: provider(() => Promise.resolve({ token: 't-1' })) });
    const ready = await preflight(tool, inv(), callContext(tool), { credentials });
    expect(ready.credential).toEqual({ token: 't-1', version: 1 });
  });

  it('preflight: no provider for the credential → authentication/credential_missing, nothing sent', async () => {
    const s = await stopped(readTool({ credential: 'crm' }));
    expect(s.failure).toMatchObject({
      class: 'authentication',
      reason: 'credential_missing',
      phase: 'preflight',
      publicMessage: 'The credential for this tool is not available.',
    });
  });

  it('preflight: a provider that refused for good (invalid_grant) → authentication/refresh_failed', async () => {
    const credentials = new CredentialBroker({ crm: provider(() => Promise.reject(new Error('invalid_grant'))) });
    const s = await stopped(readTool({ credential: 'crm' }), inv(), { credentials });
    expect(s.failure).toMatchObject({ class: 'authentication', reason: 'refresh_failed', phase: 'preflight' });
  });

  it('preflight: a provider that failed for now (a refused connection) → transient, retryable, safe to try again', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const credentials = new CredentialBroker({ crm: provider(() => Promise.reject(refused)) });
    const s = await stopped(readTool({ credential: 'crm' }), inv(), { credentials });
    expect(s.failure).toMatchObject({
      class: 'transient',
      reason: 'network',
      phase: 'preflight',
      retryable: true,
      replaySafe: true,
      publicMessage:
        'The credential for this tool could not be obtained for now; nothing was sent, so it is safe to try again.',
    });
  });
});

describe('providerUnavailable', () => {
  it('preflight: after a 401 (phase dispatch) the words say the call was refused and can be retried', () => {
    const err = { failure: { reason: 'rate_limited', retryAfterMs: 2_000 } } as never;
    expect(providerUnavailable(callContext(readTool()), err, 'dispatch')).toMatchObject({
      class: 'transient',
      reason: 'rate_limited',
      phase: 'dispatch',
      retryable: true,
      replaySafe: true,
      retryAfterMs: 2_000,
      publicMessage:
        'The credential expired and could not be refreshed for now; the call was refused and can be retried.',
    });
  });
});
