/**
 * The tool activity: every tool call runs here, as a Temporal activity.
 *
 * Order (issue: "preflight → dispatch → postcheck"):
 *   1. preflight — the tool exists; arguments pass the input schema and the business rules. A failure is
 *      `invalid_arguments` (or `capability_missing`) and nothing is dispatched.
 *   2. dispatch — through the downstream's circuit breaker, with the credential from the broker and the
 *      operation_id as idempotency key. A 401 to the broker's credential makes the broker refresh (single-flight) and
 *      the failure carries the new credential version, so workflow code can re-execute with evidence
 *      `credential_refreshed`.
 *   3. postcheck — the result passes the output schema and the `after` invariants, else `invalid_result`.
 *
 * A failure leaves as `ApplicationFailure` (activities/failure-edge.ts): type = failure class, nonRetryable unless
 * transient and replay-safe, `nextRetryDelay` = jittered backoff with Retry-After as its floor, details = the
 * ToolFailure (public by construction). Full diagnostics go to the worker's log under `diagnosticRef` only.
 */
import { Context } from '@temporalio/activity';
import { classify, classifyInvalidResult, classifyZodError, type CallContext } from '../recovery/classify';
import { buildFailure } from '../recovery/classify/build';
import { FailureClass, FailureReason, Phase, type FieldIssue, type ToolFailure } from '../recovery/failure';
import { isReplaySafe } from '../recovery/tool-spec';
import type { BackoffPolicy } from '../recovery/backoff';
import { BreakerRegistry, CircuitOpen, DownstreamFault } from './breaker';
import { CredentialBroker, CredentialRefreshFailed, CredentialUnavailable } from './credentials';
import type { AnyTool, RuleViolation } from './define-tool';
import { failWith, type FailureMeta } from './failure-edge';
import { HttpOutcomeError } from './http';
import type { ApprovalGrant } from '../workflows/definitions';
import { keepHeartbeating } from './heartbeat';
import { createLookupActivity } from './lookup-operation';
import { createVerifyActivity, inputFieldsOf, semanticMeta } from './postcondition';
import { toolContextOf } from './tool-context-of';

/** Input of the `invokeTool` activity. */
export interface ToolInvocation {
  tool: string;
  args: unknown;
  /** Unique per logical call; names the call in records and failures. */
  callId: string;
  /** The operation_id / idempotency key of the business intent (stable across attempts and re-issues). */
  operationId: string;
  /** A person approved this call after a 403 (the request_approval route): who, as the run recorded it. */
  approval?: ApprovalGrant;
  /**
   * Refresh the credential when the call gets a 401. False for the replay that follows a refresh: one refresh per
   * call, so a 401 to the fresh token goes to a human instead of spending the rotating refresh token again.
   * @default true
   */
  refreshOnAuthFailure?: boolean;
}

/** Result of the `invokeTool` activity. */
export interface ToolInvocationResult {
  /** The validated output. */
  value: unknown;
  /** The activity attempt that succeeded, 1-based. */
  attempt: number;
  /** The credential version the call succeeded with, if the tool uses one. */
  credentialVersion?: number;
}

export interface ToolActivityDeps {
  tools: readonly AnyTool[];
  backoff: BackoffPolicy;
  /** Per-tool overrides of `backoff` (temporal.config.json `tools.<name>.backoff`). */
  toolBackoff?: Record<string, Partial<BackoffPolicy>>;
  credentials?: CredentialBroker;
  breakers?: BreakerRegistry;
}

/** Builds the activities the plugin registers (STYLE.md: activities from a factory with injected dependencies). */
export function createToolActivities(deps: ToolActivityDeps) {
  const byName = new Map(deps.tools.map((t) => [t.name, t]));
  const breakers = deps.breakers ?? new BreakerRegistry();
  const credentials = deps.credentials ?? new CredentialBroker();
  const backoffFor = (tool: string): BackoffPolicy =>
    Object.prototype.hasOwnProperty.call(deps.toolBackoff ?? {}, tool)
      ? { ...deps.backoff, ...deps.toolBackoff?.[tool] }
      : deps.backoff;

  async function invokeTool(inv: ToolInvocation): Promise<ToolInvocationResult> {
    const activity = Context.current();
    const { info } = activity;
    const tool = byName.get(inv.tool);
    const ctx: CallContext = {
      tool: inv.tool,
      callId: inv.callId,
      effect: tool?.effect ?? 'read',
      deduplicates: tool ? isReplaySafe(tool.spec) && tool.effect === 'write' : false,
      approvalCanLift: tool?.spec.approvalCanLift ?? false,
      ...(tool ? { inputFields: inputFieldsOf(tool) } : {}),
      ...(tool?.alreadyPhrases ? { alreadyPhrases: tool.alreadyPhrases } : {}),
      nowMs: Date.now(),
      diagnosticRef: `${info.workflowExecution?.workflowId ?? 'standalone'}/${info.activityId}/${info.attempt}`,
      ...(tool?.errors === undefined ? {} : { dialect: tool.errors }),
    };
    const fail = (failure: ToolFailure, diagnostic: unknown, meta: FailureMeta = {}): never =>
      failWith(failure, { diagnostic, meta, attempt: info.attempt, backoff: backoffFor(inv.tool), log: activity.log });

    // 1. preflight
    if (!tool) {
      return fail(
        preflightFailure(
          ctx,
          FailureClass.CAPABILITY_MISSING,
          FailureReason.UNKNOWN_TOOL,
          `There is no tool named "${inv.tool}".`,
        ),
        undefined,
      );
    }
    const parsed = tool.input.safeParse(inv.args);
    if (!parsed.success)
      return fail(classifyZodError(parsed.error, ctx, { input: inv.args, schema: tool.input }), parsed.error);
    // The idempotency key travels in a field when the tool says so; the model never supplies it (operation_id).
    const args =
      tool.idempotency.carrier === 'field' && typeof parsed.data === 'object' && parsed.data !== null
        ? { ...parsed.data, [tool.idempotency.name]: inv.operationId }
        : parsed.data;
    let violations: RuleViolation[];
    try {
      violations = (await tool.validate?.before?.(args)) ?? [];
    } catch (err) {
      return fail(classify({ kind: 'thrown', error: err, requestSent: false }, ctx), err);
    }
    if (violations.length > 0) {
      return fail(
        preflightFailure(
          ctx,
          FailureClass.INVALID_ARGUMENTS,
          FailureReason.BUSINESS_RULE,
          'The arguments break a business rule.',
          {
            issues: violations.map(
              (v): FieldIssue => ({
                path: v.path,
                expected: v.message,
                received: '',
                suggestion: v.suggestion ?? v.message,
              }),
            ),
          },
        ),
        violations,
      );
    }

    let credential: { token: string; version: number } | undefined;
    if (tool.credential) {
      try {
        credential = await credentials.current(tool.credential);
      } catch (err) {
        // Before anything left: a provider that failed for now is transient and replay-safe for any tool.
        if (err instanceof CredentialUnavailable) return fail(providerUnavailable(ctx, err, Phase.PREFLIGHT), err);
        const reason =
          err instanceof CredentialRefreshFailed ? FailureReason.REFRESH_FAILED : FailureReason.CREDENTIAL_MISSING;
        return fail(
          preflightFailure(ctx, FailureClass.AUTHENTICATION, reason, 'The credential for this tool is not available.'),
          err,
        );
      }
    }

    // 2. dispatch
    const stopHeartbeats = keepHeartbeating(activity);
    const toolCtx = toolContextOf(activity, tool, inv, credential, inv.approval);
    let raw: unknown;
    try {
      raw = await breakers.execute(tool.downstream ?? tool.name, async () => {
        try {
          return await tool.execute(args, toolCtx);
        } catch (err) {
          const failure = classifyThrown(err, ctx, tool);
          throw failure.class === 'transient' || failure.class === 'outcome_unknown' ? new DownstreamFault(err) : err;
        }
      });
    } catch (err) {
      if (err instanceof CircuitOpen) {
        return fail(
          buildFailure(ctx, {
            class: FailureClass.TRANSIENT,
            reason: FailureReason.CIRCUIT_OPEN,
            phase: Phase.PREFLIGHT, // refused by the breaker: nothing left the process
            retryable: true,
            replaySafe: true,
            retryAfterMs: err.retryAfterMs,
            publicMessage: 'The service behind this tool is failing; calls to it are paused.',
          }),
          err,
        );
      }
      const failure = classifyThrown(err, ctx, tool);
      // Any 401 to a call that presented the broker's credential is answered with one refresh (case C12): many
      // servers signal an expired token without RFC 6750's `error="invalid_token"`. The router replays once with
      // the new version and escalates if that is refused too, so a wrong credential costs 1 refresh, not a loop.
      if (
        failure.class === FailureClass.AUTHENTICATION &&
        tool.credential &&
        credential &&
        inv.refreshOnAuthFailure !== false
      ) {
        let version: number;
        try {
          version = await credentials.refresh(tool.credential, credential.version);
        } catch (refreshErr) {
          // The call was refused (401: nothing applied); the refresh failed for now, so it may run again later.
          if (refreshErr instanceof CredentialUnavailable)
            return fail(providerUnavailable(ctx, refreshErr, Phase.DISPATCH), refreshErr);
          return fail(
            {
              ...failure,
              reason: FailureReason.REFRESH_FAILED,
              publicMessage: 'The credential expired and could not be refreshed; a person must re-authorise.',
            },
            refreshErr,
          );
        }
        return fail(failure, err, { credentialVersion: version });
      }
      return fail(failure, err, semanticMeta(err, failure, tool));
    } finally {
      stopHeartbeats();
    }

    // 3. postcheck
    let output: ReturnType<typeof tool.output.safeParse>;
    let broken: string | undefined;
    try {
      output = tool.output.safeParse(raw);
      broken = output.success ? tool.validate?.after?.(output.data, args) : undefined;
    } catch (err) {
      // A throwing transform or invariant is a bug in the tool's declaration, after the call ran.
      return fail(classify({ kind: 'thrown', error: err, requestSent: true }, { ...ctx, effect: tool.effect }), err);
    }
    if (!output.success) return fail(classifyInvalidResult({ error: output.error, received: raw }, ctx), output.error);

    if (broken) return fail(classifyInvalidResult({ invariant: broken, received: raw }, ctx), broken);
    return credential
      ? { value: output.data, attempt: info.attempt, credentialVersion: credential.version }
      : { value: output.data, attempt: info.attempt };
  }

  return {
    invokeTool,
    lookupOperation: createLookupActivity({ byName, credentials }),
    verifyPostcondition: createVerifyActivity({ byName, credentials }),
  };
}

function classifyThrown(err: unknown, ctx: CallContext, tool: AnyTool): ToolFailure {
  return classify(err instanceof HttpOutcomeError ? err.outcome : { kind: 'thrown', error: err }, ctx, tool.classify);
}

/**
 * The credential provider failed for now (a timeout, a refused connection): `transient`, retryable and replay-safe
 * whatever the tool's effect, since the tool's request was not sent (`preflight`) or was refused with a 401
 * (`dispatch`). The credential is not marked dead (activities/credentials.ts).
 */
function providerUnavailable(ctx: CallContext, err: CredentialUnavailable, phase: Phase): ToolFailure {
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

/** A failure found before anything was dispatched: replay-safe, never retryable by time. */
function preflightFailure(
  ctx: CallContext,
  cls: FailureClass,
  reason: FailureReason,
  publicMessage: string,
  more: { issues?: FieldIssue[] } = {},
): ToolFailure {
  return buildFailure(ctx, {
    class: cls,
    reason,
    phase: Phase.PREFLIGHT,
    retryable: false,
    replaySafe: true,
    publicMessage,
    ...more,
  });
}
