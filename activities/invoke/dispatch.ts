/**
 * The tool activity's second step: the tool's `execute`, through the downstream's circuit breaker, with the
 * credential and the operation_id as idempotency key, heartbeating when the tool has a heartbeat timeout. What it
 * throws is classified; an infrastructure fault counts against the breaker; a call the open circuit refuses was
 * never sent (phase `preflight`). A 401 to a call that presented the broker's credential makes the broker refresh
 * (single-flight) and the failure carries the new version, so workflow code can replay once with evidence
 * `credential_refreshed` (docs/DESIGN.md, "Routes": re-auth).
 * Node-side only.
 */
import type { Context } from '@temporalio/activity';
import type { CallContext } from '../../recovery/classify';
import type { ClassifyRule } from '../../recovery/classify/rules';
import { FailureClass, FailureReason, Phase, type ToolFailure } from '../../recovery/failure';
import type { ApprovalGrant } from '../../workflows/definitions';
import { CallInterrupted, type AttemptGuard } from '../attempt-guard';
import { CircuitOpen, DownstreamFault, type Breakers } from '../breaker';
import { CredentialUnavailable, type CredentialBroker } from '../credentials';
import { keepHeartbeating } from '../heartbeat';
import type { HttpEvidence } from '../http-evidence';
import { semanticMeta } from '../postcondition';
import { toolContextOf } from '../tool-context-of';
import { afterAnswer } from './applied';
import type { Prepared } from './preflight';
import { providerUnavailable } from './preflight';
import { CallStopped, classifyThrown, preflightFailure } from './stop';

export interface DispatchDeps {
  breakers: Breakers;
  credentials: CredentialBroker;
  /** The attempt's guard: `execute` runs against its cancellation and deadline. */
  guard: AttemptGuard;
  /** Operators' classification rules (recovery/classify/rules.ts). */
  rules: readonly ClassifyRule[];
  /** What `ctx.http` saw during the attempt (activities/http-evidence.ts). */
  evidence: HttpEvidence;
  /** How the attempt heartbeats, when it must keep details (activities/retried-after.ts `markSending`). */
  beat?: ((details?: unknown) => void) | undefined;
}

/** The raw result of the tool. @throws CallStopped with the classified failure. */
export async function dispatch(
  call: Prepared,
  inv: { callId: string; operationId: string; approval?: ApprovalGrant; refreshOnAuthFailure?: boolean },
  ctx: CallContext,
  activity: Context,
  deps: DispatchDeps,
): Promise<unknown> {
  const { tool, args, credential } = call;
  const stopHeartbeats = keepHeartbeating(activity, 0, deps.beat);
  const evidence = deps.evidence;
  const toolCtx = toolContextOf(activity, tool, inv, credential, inv.approval, deps.guard.signal, evidence, deps.beat);
  try {
    return await deps.breakers.execute(tool.downstream ?? tool.name, async () => {
      try {
        // A tool may throw synchronously: `execute` is called inside the promise so the guard still races it.
        return await deps.guard.race(Promise.resolve().then(() => tool.execute(args, toolCtx)));
      } catch (err) {
        const interrupted = interruptionOf(err, deps.guard);
        if (interrupted) throw interrupted.why === 'deadline' ? new DownstreamFault(interrupted) : interrupted;
        // Classified once, here; the breaker counts infrastructure faults, and the answer travels out with the error.
        const classified = classifyWithEvidence(err, evidence, ctx, tool, deps.rules);
        const fault = classified.failure.class === 'transient' || classified.failure.class === 'outcome_unknown';
        throw fault ? new DownstreamFault(classified) : classified;
      }
    });
  } catch (thrown) {
    if (thrown instanceof CircuitOpen) throw new CallStopped(circuitOpen(ctx, thrown), thrown);
    // An attempt cut short is shaped by the activity (activities/invoke-tool.ts), whatever the tool threw for it.
    const interrupted = interruptionOf(thrown, deps.guard);
    if (interrupted) throw interrupted;
    const err = thrown instanceof Classified ? thrown.error : thrown;
    const classified = thrown instanceof Classified ? thrown.failure : classifyThrown(err, ctx, tool, deps.rules);
    const failure = afterAnswer(classified, tool, evidence.writeAccepted, ctx);
    const refreshable =
      failure.class === FailureClass.AUTHENTICATION &&
      tool.credential &&
      credential &&
      inv.refreshOnAuthFailure !== false;
    if (refreshable) throw await refreshed(failure, err, tool.credential!, credential, ctx, deps.credentials);
    const source = thrown instanceof Classified ? thrown.source : err;
    throw new CallStopped(failure, err, semanticMeta(source, failure, tool));
  } finally {
    stopHeartbeats();
  }
}

/**
 * What the tool threw, classified; when no fact of it speaks (`unrecognized`), the answer `ctx.http` got before it
 * does (activities/http-evidence.ts): a buggy adapter that rethrows `new Error(...)` for a 422 still gets the 422's
 * route and observed state (docs/DESIGN.md, "Facts, not libraries").
 */
function classifyWithEvidence(
  err: unknown,
  evidence: HttpEvidence,
  ctx: CallContext,
  tool: Prepared['tool'],
  rules: readonly ClassifyRule[],
): Classified {
  const failure = classifyThrown(err, ctx, tool, rules);
  const implied = failure.reason === FailureReason.UNRECOGNIZED ? evidence.impliedCause() : undefined;
  return implied === undefined
    ? new Classified(err, failure, err)
    : new Classified(err, classifyThrown(implied, ctx, tool, rules), implied);
}

/** What the tool threw, with its classification: carried out of the breaker so the call is classified once. */
class Classified {
  constructor(
    readonly error: unknown,
    readonly failure: ToolFailure,
    /** What the failure was read from: the error, or the answer behind an opaque one. */
    readonly source: unknown,
  ) {}
}

/**
 * The interruption behind `err`: the guard's own rejection, or what the tool threw once the guard had fired and
 * aborted its signal (an `AbortError`, the SDK's `CancelledFailure`, the abort reason itself).
 */
function interruptionOf(err: unknown, guard: AttemptGuard): CallInterrupted | undefined {
  if (err instanceof CallInterrupted) return err;
  return guard.interruption();
}

/** Refused by the breaker: nothing left the process. */
function circuitOpen(ctx: CallContext, err: CircuitOpen): ToolFailure {
  const message = 'The service behind this tool is failing; calls to it are paused.';
  return preflightFailure(ctx, FailureClass.TRANSIENT, FailureReason.CIRCUIT_OPEN, message, {
    retryable: true,
    retryAfterMs: err.retryAfterMs,
  });
}

/**
 * Any 401 to a call that presented the broker's credential is answered with one refresh: many servers signal an
 * expired token without RFC 6750's `error="invalid_token"`. The router replays once with the new version and
 * escalates if that is refused too, so a wrong credential costs one refresh, not a loop.
 */
async function refreshed(
  failure: ToolFailure,
  err: unknown,
  credentialId: string,
  credential: { version: number },
  ctx: CallContext,
  credentials: CredentialBroker,
): Promise<CallStopped> {
  try {
    const version = await credentials.refresh(credentialId, credential.version);
    return new CallStopped(failure, err, { credentialVersion: version });
  } catch (refreshErr) {
    // The call was refused (401: nothing applied); the refresh failed for now, so it may run again later.
    if (CredentialUnavailable.is(refreshErr))
      return new CallStopped(providerUnavailable(ctx, refreshErr, Phase.DISPATCH), refreshErr);
    const publicMessage = 'The credential expired and could not be refreshed; a person must re-authorise.';
    return new CallStopped({ ...failure, reason: FailureReason.REFRESH_FAILED, publicMessage }, refreshErr);
  }
}
