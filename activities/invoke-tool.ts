/**
 * The tool activity: every tool call runs here, as a Temporal activity.
 *
 * Order, one module each under activities/invoke/:
 *   1. preflight — the tool exists; arguments pass the input schema and the business rules. A failure is
 *      `invalid_arguments` (or `capability_missing`) and nothing is dispatched.
 *   2. dispatch — through the downstream's circuit breaker, with the credential from the broker and the
 *      operation_id as idempotency key. A 401 to the broker's credential makes the broker refresh (single-flight) and
 *      the failure carries the new credential version, so workflow code can re-execute with evidence
 *      `credential_refreshed`.
 *   3. postcheck — the result passes the output schema and the `after` invariants, else `invalid_result`.
 *
 * The steps run against the attempt's cancellation and deadline (activities/attempt-guard.ts): a tool that never
 * settles gives its slot back at the deadline, and a worker's shutdown ends the attempt at once. What no step
 * shaped — an interruption, a non-Error throw, an error of the edge itself — is classified by whether the request
 * may have left (recovery/classify/sent.ts), so a write that may have been applied is `outcome_unknown`, never a
 * tool bug. A result the payload cannot carry is cut to a marker (activities/invoke/carry.ts).
 *
 * A failure leaves as `ApplicationFailure` (activities/failure-edge.ts): type = failure class, nonRetryable unless
 * transient and replay-safe, `nextRetryDelay` = jittered backoff with Retry-After as its floor, details = the
 * ToolFailure (public by construction). Full diagnostics go to the worker's log under `diagnosticRef` only.
 */
import { Context } from '@temporalio/activity';
import type { BackoffPolicy } from '../recovery/backoff';
import type { ClassifyRule } from '../recovery/classify/rules';
import type { ApprovalGrant } from '../workflows/definitions';
import { BreakerRegistry, type Breakers } from './breaker';
import { CredentialBroker } from './credentials';
import type { AnyTool } from './define-tool';
import { failWith } from './failure-edge';
import { afterAnswer, appliedValue } from './invoke/applied';
import { dispatch } from './invoke/dispatch';
import { HttpEvidence } from './http-evidence';
import { toolContextOf } from './tool-context-of';
import { postcheck } from './invoke/postcheck';
import { preflight } from './invoke/preflight';
import { CallStopped, callContextOf, earlierAttemptOf } from './invoke/stop';
import { carried, unshapedFailure } from './invoke/carry';
import { CallInterrupted, guardAttempt } from './attempt-guard';
import { createLookupActivity } from './lookup-operation';
import { operationOwner } from './operation-owner';
import { createVerifyActivity } from './postcondition';
import { previewArguments, withApprovalPreview } from './preview-arguments';
import { tracedToolActivity } from './tracing/tool-span';
import type { Tracing } from './tracing/tracing';
import { markSending, rememberFirstFailure, retriedAfterOf, sendsOnce, type RetriedAfter } from './retried-after';

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
  /**
   * The credential version the replay after a refresh must use (the one the refresh returned, maybe on another
   * worker): with a shared refresh, a worker holding an older one adopts the cluster's newest before the call.
   */
  credentialVersion?: number;
}

/** Result of the `invokeTool` activity. */
export interface ToolInvocationResult {
  /** The validated output. */
  value: unknown;
  /** The activity attempt that succeeded, 1-based. */
  attempt: number;
  /** The credential version the call succeeded with, if the tool uses one. */
  credentialVersion?: number;
  /** When Temporal retried the call: the class and reason of its first failure (activities/retried-after.ts). */
  retriedAfter?: RetriedAfter;
}

export interface ToolActivityDeps {
  tools: readonly AnyTool[];
  backoff: BackoffPolicy;
  /** Per-tool overrides of `backoff` (temporal.config.json `tools.<name>.backoff`). */
  toolBackoff?: Record<string, Partial<BackoffPolicy>>;
  credentials?: CredentialBroker;
  breakers?: Breakers;
  /** Operators' classification rules (temporal.config.json `classify.rules`), over the built-in answer. @default [] */
  classifyRules?: readonly ClassifyRule[];
  /** Spans and the duration histogram of every attempt (activities/tracing). @default none */
  tracing?: Tracing;
  /** The digest of this worker's catalog (plugin/worker-data.ts), logged when a call names a tool it lacks. */
  catalogDigest?: string;
}

/** Builds the activities the plugin registers (a factory with injected dependencies, as Temporal samples build activities). */
export function createToolActivities(deps: ToolActivityDeps) {
  const byName = new Map(deps.tools.map((t) => [t.name, t]));
  const rules = deps.classifyRules ?? [];
  const breakers: Breakers = deps.breakers ?? new BreakerRegistry();
  const credentials = deps.credentials ?? new CredentialBroker();
  const backoffFor = (tool: string): BackoffPolicy =>
    Object.hasOwn(deps.toolBackoff ?? {}, tool) ? { ...deps.backoff, ...deps.toolBackoff?.[tool] } : deps.backoff;

  /**
   * preflight → dispatch → postcheck, against the attempt's cancellation and deadline; a step that stops the call
   * leaves through the activity edge, and so does anything else that goes wrong (unshapedFailure).
   */
  async function invokeTool(inv: ToolInvocation): Promise<ToolInvocationResult> {
    const activity = Context.current();
    const { info } = activity;
    const tool = byName.get(inv.tool);
    const ctx = callContextOf(tool, inv, info);
    const guard = guardAttempt(activity);
    // Once `execute` has been called, the request may have left (docs/DESIGN.md, "Phases").
    let mayHaveSent = false;
    const evidence = new HttpEvidence();
    try {
      const call = await guard.race(preflight(tool, inv, ctx, { credentials, catalogDigest: deps.catalogDigest }));
      // A write sent once per activity: an attempt an operator added (activities/retried-after.ts) looks it up.
      const beat = sendsOnce(call.tool.spec)
        ? markSending(activity, () => new CallStopped(earlierAttemptOf(ctx), 'an earlier attempt may have sent it'))
        : undefined;
      mayHaveSent = true;
      let value: unknown;
      try {
        const raw = await dispatch(call, inv, ctx, activity, { breakers, credentials, guard, rules, evidence, beat });
        value = carried(call.tool, postcheck(call.tool, raw, call.args, ctx), ctx);
      } catch (err) {
        // A write's unusable answer: applied all the same (activities/invoke/applied.ts).
        const toolCtx = toolContextOf(
          activity,
          call.tool,
          inv,
          call.credential,
          inv.approval,
          guard.signal,
          undefined,
          beat,
        );
        value = carried(call.tool, await guard.race(appliedValue(err, call.tool, call.args, toolCtx)), ctx);
      }
      const retriedAfter = retriedAfterOf(info);
      return {
        value,
        attempt: info.attempt,
        ...(call.credential ? { credentialVersion: call.credential.version } : {}),
        ...(retriedAfter ? { retriedAfter } : {}),
      };
    } catch (err) {
      if (err instanceof CallInterrupted && err.why === 'cancel_requested') throw err.cancellation ?? err;
      const stopped = err instanceof CallStopped ? err : unshapedFailure(err, ctx, mayHaveSent);
      const failure = tool ? afterAnswer(stopped.failure, tool, evidence.writeAccepted, ctx) : stopped.failure;
      rememberFirstFailure(activity, failure);
      return failWith(failure, {
        diagnostic: stopped.diagnostic,
        meta: withApprovalPreview(stopped.meta, failure, tool?.spec, inv.args),
        attempt: info.attempt,
        backoff: backoffFor(inv.tool),
        log: activity.log,
      });
    } finally {
      guard.dispose();
    }
  }

  const downstreamOf = (tool: string) => byName.get(tool)?.downstream ?? tool;
  return {
    invokeTool: deps.tracing
      ? tracedToolActivity(invokeTool, deps.tracing, (tool) => breakers.state(downstreamOf(tool)))
      : invokeTool,
    lookupOperation: createLookupActivity({ byName, credentials }),
    previewArguments,
    verifyPostcondition: createVerifyActivity({ byName, credentials }),
    operationOwner,
  };
}
