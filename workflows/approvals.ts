/**
 * The approval desk of a workflow run: calls that a 403 stopped and that a human may approve wait here. The
 * `recovery.pendingApprovals` query lists them with the tool, a redacted preview of the arguments and their digest;
 * while one waits, the run's RecoveryStatus search attribute is `AwaitingApproval`. The design: a missing
 * permission means "request approval or stop" (docs/DESIGN.md, "Routes").
 *
 * A decision arrives by the `recovery.decideApproval` update (preferred) or the `recovery.approval` signal. It counts
 * only when all of these hold, else it is refused (update: rejected with the reason; signal: ignored, logged):
 * - it parses (`approvalDecisionSchema`: strict, bounded — workflows/messages.ts);
 * - its call waits here and its `argsDigest` is the waiting call's (an approval binds to exactly those arguments);
 * - the worker confirms it (`confirmApproval`, activities/approvals.ts): a valid signature when the worker has an
 *   approval key, and the approver's identity as Temporal recorded it.
 * The first confirmed decision on a call wins. Handlers never throw on any input.
 */
import {
  ApplicationFailure,
  condition,
  currentUpdateInfo,
  log,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { ApprovalConfirmation, ApprovalVerdict, createApprovalActivities } from '../activities/approvals';
import {
  approvalSignal,
  decideApprovalUpdate,
  pendingApprovalsQuery,
  type ApprovalDecision,
  type ApprovalGrant,
  type PendingApproval,
} from './definitions';
import { approvalDecisionSchema, parseMessage } from './messages';
import { RecoveryStatus, RecoveryTool } from './search-attributes';
import { ApplicationFailureType } from '../recovery/failure-types';

/** A decision the desk accepted. */
export type AcceptedDecision = ApprovalGrant & { approved: boolean };

export interface ApprovalDesk {
  /**
   * Waits for a decision on `call`, at most `timeoutMs` (ms). Resolves with the accepted decision, or `undefined`
   * when none arrived in time.
   */
  wait(call: Omit<PendingApproval, 'sinceMs'>): Promise<AcceptedDecision | undefined>;
}

type ApprovalActivities = ReturnType<typeof createApprovalActivities>;

/** Registers the signal, update and query handlers. Call once per run. */
export function createApprovalDesk(options: { timeoutMs: number; searchAttributes: boolean }): ApprovalDesk {
  const pending = new Map<string, PendingApproval>();
  const decisions = new Map<string, AcceptedDecision>();
  const { confirmApproval } = proxyActivities<ApprovalActivities>({
    startToCloseTimeout: '10s',
    retry: { maximumAttempts: 3, initialInterval: '200ms' },
  });
  const desk: Desk = { pending, decisions, confirmApproval };
  registerHandlers(desk);
  return { wait: (call) => waitFor(desk, options, call) };
}

/** One run's desk: the calls waiting and the accepted decisions not yet taken, by call id; the worker's check. */
interface Desk {
  pending: Map<string, PendingApproval>;
  decisions: Map<string, AcceptedDecision>;
  confirmApproval: (request: ApprovalConfirmation) => Promise<ApprovalVerdict>;
}

/** Why `d` cannot count now, or undefined. Never echoes a value of `d` but the call id it names. */
function refusal({ pending, decisions }: Desk, d: ApprovalDecision): string | undefined {
  const call = pending.get(d.callId);
  if (!call) return `call ${JSON.stringify(d.callId)} is not waiting for approval`;
  if (decisions.has(d.callId)) return `call ${JSON.stringify(d.callId)} is already decided`;
  if (call.argsDigest !== d.argsDigest)
    return 'argsDigest is not the digest of the waiting call: approve what it shows';
  return undefined;
}

/** Asks the worker; the decision counts if it is accepted and the call still waits undecided. */
async function confirm(desk: Desk, d: ApprovalDecision, via: 'update' | 'signal'): Promise<AcceptedDecision | string> {
  const call = desk.pending.get(d.callId);
  if (!call) return `call ${JSON.stringify(d.callId)} is not waiting for approval`;
  const request: ApprovalConfirmation = {
    callId: d.callId,
    tool: call.tool,
    argsDigest: d.argsDigest,
    approved: d.approved,
    via,
    ...(d.signature ? { signature: d.signature } : {}),
    ...(via === 'update' ? { updateId: currentUpdateInfo()?.id ?? '' } : {}),
  };
  let verdict: ApprovalVerdict;
  try {
    verdict = await desk.confirmApproval(request);
  } catch {
    return 'the worker could not confirm the decision; send it again';
  }
  if (!verdict.accepted) return `the decision was refused: ${verdict.reason}`;
  const why = refusal(desk, d);
  if (why) return why;
  const accepted: AcceptedDecision = {
    approved: d.approved,
    by: d.by,
    signed: verdict.signed,
    via,
    ...(verdict.identity ? { identity: verdict.identity } : {}),
    ...(d.reason ? { reason: d.reason } : {}),
  };
  desk.decisions.set(d.callId, accepted);
  return accepted;
}

/** The `recovery.approval` signal, the `recovery.decideApproval` update and the `recovery.pendingApprovals` query. */
function registerHandlers(desk: Desk): void {
  setHandler(approvalSignal, async (raw: unknown) => {
    const parsed = parseMessage(approvalDecisionSchema(), raw, 'recovery.approval');
    const result = parsed.ok
      ? (refusal(desk, parsed.value) ?? (await confirm(desk, parsed.value, 'signal')))
      : parsed.why;
    if (typeof result === 'string') log.warn('approval decision ignored', { why: result });
  });
  setHandler(
    decideApprovalUpdate,
    async (d: ApprovalDecision) => {
      const result = await confirm(desk, d, 'update');
      if (typeof result === 'string')
        throw ApplicationFailure.nonRetryable(result, ApplicationFailureType.APPROVAL_REFUSED);
      return { ...result, callId: d.callId };
    },
    {
      validator: (raw: unknown) => {
        const parsed = parseMessage(approvalDecisionSchema(), raw, 'recovery.decideApproval');
        const why = parsed.ok ? refusal(desk, parsed.value) : parsed.why;
        if (why !== undefined) throw new Error(why);
      },
    },
  );
  setHandler(pendingApprovalsQuery, () => [...desk.pending.values()]);
}

/** `ApprovalDesk.wait`: lists `call` as pending, waits for its decision, and sets RecoveryStatus around the wait. */
async function waitFor(
  { pending, decisions }: Desk,
  options: { timeoutMs: number; searchAttributes: boolean },
  call: Omit<PendingApproval, 'sinceMs'>,
): Promise<AcceptedDecision | undefined> {
  pending.set(call.callId, { ...call, sinceMs: Date.now() });
  if (options.searchAttributes) {
    upsertSearchAttributes([
      { key: RecoveryStatus, value: 'AwaitingApproval' },
      { key: RecoveryTool, value: call.tool },
    ]);
  }
  const arrived = await condition(() => decisions.has(call.callId), options.timeoutMs);
  pending.delete(call.callId);
  // Another call of this run may still wait: the run stays listed as AwaitingApproval until none does.
  if (options.searchAttributes && pending.size === 0) {
    upsertSearchAttributes([{ key: RecoveryStatus, value: arrived ? 'Resumed' : 'ApprovalTimedOut' }]);
  }
  const decision = decisions.get(call.callId);
  decisions.delete(call.callId);
  return arrived ? decision : undefined;
}
