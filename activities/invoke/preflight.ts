/**
 * The tool activity's first step, before any I/O of the tool: the tool exists; the arguments pass its input schema
 * (the idempotency key is written into its field when the tool carries it there) and its business rules
 * (`validate.before`); the credential is at hand. A failure here is `transient/not_on_worker` (retryable),
 * `invalid_arguments` or `authentication` in phase `preflight`, replay-safe: nothing was sent.
 * Node-side only.
 */
import { classify, classifyZodError, type CallContext } from '../../recovery/classify';
import { buildFailure } from '../../recovery/classify/build';
import { FailureClass, FailureReason, Phase, type FieldIssue, type ToolFailure } from '../../recovery/failure';
import { CredentialRefreshFailed, CredentialUnavailable, type CredentialBroker } from '../credentials';
import type { AnyTool, RuleViolation } from '../define-tool';
import { ToolHttpRequestError } from '../http';
import { parseCallArgs } from '../tool-read';
import { CallStopped, preflightFailure } from './stop';

/** A key a header can carry (RFC 9110 §5.5, no obs-text); another breaks the request after it counted as sent. */
const HEADER_VALUE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/** A call ready to dispatch. */
export interface Prepared {
  tool: AnyTool;
  /** The arguments the tool sees: parsed by its input schema, with the idempotency field set. */
  args: unknown;
  credential: { token: string; version: number } | undefined;
}

/**
 * @param worker this worker's broker, and the digest of its catalog (plugin/worker-data.ts) for the log.
 * @throws CallStopped when the call cannot be dispatched.
 */
export async function preflight(
  tool: AnyTool | undefined,
  inv: { tool: string; args: unknown; operationId: string; credentialVersion?: number },
  ctx: CallContext,
  worker: { credentials: CredentialBroker; catalogDigest?: string | undefined },
): Promise<Prepared> {
  if (!tool) {
    // The workflow's catalog has it (the router checked); this worker's does not: another application's worker on
    // this task queue, or an older deploy's. Another worker may have it: retryable, nothing was sent.
    const message = `The tool "${inv.tool}" could not run: the worker that took the call does not have it in its catalog.`;
    const failure = preflightFailure(ctx, FailureClass.TRANSIENT, FailureReason.NOT_ON_WORKER, message, {
      retryable: true,
    });
    throw new CallStopped(failure, { notInThisWorkersCatalog: inv.tool, catalogDigest: worker.catalogDigest });
  }
  if (tool.idempotency.carrier === 'header' && !HEADER_VALUE.test(inv.operationId)) {
    const message = `The idempotency key holds characters a header cannot carry (the workflow id has a control or bidirectional character), so nothing was sent. Start the workflow under a plain id.`;
    const why = new ToolHttpRequestError('invalid_http_request', `operation id unfit for ${tool.idempotency.name}`);
    throw new CallStopped(preflightFailure(ctx, FailureClass.UNRECOVERABLE, FailureReason.UNSPECIFIED, message), why);
  }
  const parsed = parseCallArgs(tool, inv.args, inv.operationId);
  if (!parsed.success)
    throw new CallStopped(
      classifyZodError(parsed.error, ctx, { input: inv.args, jsonSchema: tool.spec.inputSchema }),
      parsed.error,
    );
  const args: unknown = parsed.data;
  await checkRules(tool, args, ctx);
  return { tool, args, credential: await credentialFor(tool, ctx, worker.credentials, inv.credentialVersion) };
}

/** Business invariants checked by trusted code (`validate.before`): a violation names its field. */
async function checkRules(tool: AnyTool, args: unknown, ctx: CallContext): Promise<void> {
  let violations: RuleViolation[];
  try {
    violations = (await tool.validate?.before?.(args)) ?? [];
  } catch (err) {
    throw new CallStopped(classify({ kind: 'thrown', error: err, requestSent: false }, ctx), err);
  }
  if (violations.length === 0) return;
  const issues = violations.map(
    (v): FieldIssue => ({ path: v.path, expected: v.message, received: '', suggestion: v.suggestion ?? v.message }),
  );
  const failure = preflightFailure(
    ctx,
    FailureClass.INVALID_ARGUMENTS,
    FailureReason.BUSINESS_RULE,
    'The arguments break a business rule.',
    { issues },
  );
  throw new CallStopped(failure, violations);
}

async function credentialFor(
  tool: AnyTool,
  ctx: CallContext,
  credentials: CredentialBroker,
  atLeast: number | undefined,
): Promise<Prepared['credential']> {
  if (!tool.credential) return undefined;
  try {
    return await credentials.current(tool.credential, atLeast);
  } catch (err) {
    // Before anything left: a provider that failed for now is transient and replay-safe for any tool.
    if (CredentialUnavailable.is(err)) throw new CallStopped(providerUnavailable(ctx, err, Phase.PREFLIGHT), err);
    const reason = CredentialRefreshFailed.is(err) ? FailureReason.REFRESH_FAILED : FailureReason.CREDENTIAL_MISSING;
    const message = 'The credential for this tool is not available.';
    throw new CallStopped(preflightFailure(ctx, FailureClass.AUTHENTICATION, reason, message), err);
  }
}

/**
 * The credential provider failed for now (a timeout, a refused connection): `transient`, retryable and replay-safe
 * whatever the tool's effect, since the tool's request was not sent (`preflight`) or was refused with a 401
 * (`dispatch`). The credential is not marked dead (activities/credentials.ts).
 */
export function providerUnavailable(ctx: CallContext, err: CredentialUnavailable, phase: Phase): ToolFailure {
  return buildFailure(ctx, {
    class: FailureClass.TRANSIENT,
    reason: err.failure.reason,
    phase,
    retryable: true,
    replaySafe: true,
    ...(err.failure.retryAfterMs === undefined ? {} : { retryAfterMs: err.failure.retryAfterMs }),
    publicMessage:
      phase === Phase.PREFLIGHT
        ? 'The credential for this tool could not be obtained for now; nothing was sent, so it is safe to try again.'
        : 'The credential expired and could not be refreshed for now; the call was refused and can be retried.',
  });
}
