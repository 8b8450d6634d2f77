/**
 * The approval desk's handlers (workflows/approvals.ts): the `recovery.approval` signal, the
 * `recovery.decideApproval`, `recovery.decideApprovals` and `recovery.revokeApproval` updates, and the
 * `recovery.pendingApprovals` and `recovery.approvalLedger` queries. Every input is parsed first
 * (workflows/messages.ts); an update's validator refuses what the run cannot take, and its handler checks again
 * after the worker's confirmation (decisions sent at the same time are validated in one workflow task: only the
 * first confirmed one is taken). Handlers never throw on any input. Sandbox-safe.
 */
import { ApplicationFailure, currentUpdateInfo, log, setHandler } from '@temporalio/workflow';
import type { ApprovalConfirmation, ApprovalVerdict } from '../activities/approvals';
import { ApplicationFailureType } from '../recovery/failure-types';
import { accept, ledger, openRequests, refusal, revokeRefusal, type Named } from './approval-ledger';
import type { AcceptedDecision, Desk } from './approvals';
import {
  approvalLedgerQuery,
  approvalSignal,
  decideApprovalsUpdate,
  decideApprovalUpdate,
  pendingApprovalsQuery,
  revokeApprovalUpdate,
  type ApprovalDecision,
  type ApprovalEntry,
  type BatchApprovalDecision,
  type RevokeApproval,
  wantsArguments,
} from './definitions';
import { approvalDecisionSchema, batchDecisionSchema, parseMessage, revokeApprovalSchema } from './messages';

type Granted = AcceptedDecision & { callId: string };
const refused = (why: string) => ApplicationFailure.nonRetryable(why, ApplicationFailureType.APPROVAL_REFUSED);
/** An update handler's answer, or its refusal (`why`) thrown as `approval_refused`. */
const orRefused = <T>(result: T | string): T => {
  if (typeof result === 'string') throw refused(result);
  return result;
};

/** Registers every handler of the desk. */
export function registerApprovalHandlers(desk: Desk): void {
  setHandler(approvalSignal, async (raw: unknown) => {
    const parsed = parseMessage(approvalDecisionSchema(), raw, 'recovery.approval');
    const result = parsed.ok
      ? (refusal(desk.book, parsed.value) ?? (await decideOne(desk, parsed.value, 'signal')))
      : parsed.why;
    if (typeof result === 'string') log.warn('approval decision ignored', { why: result });
  });
  setHandler(decideApprovalUpdate, async (d: ApprovalDecision) => orRefused(await decideOne(desk, d, 'update')), {
    validator: (raw: unknown) => validate(desk, raw),
  });
  setHandler(decideApprovalsUpdate, async (b: BatchApprovalDecision) => orRefused(await decideBatch(desk, b)), {
    validator: (raw: unknown) => validateBatch(desk, raw),
  });
  setHandler(revokeApprovalUpdate, (r: RevokeApproval) => revoke(desk, r), {
    validator: (raw: unknown) => {
      const parsed = parseMessage(revokeApprovalSchema(), raw, 'recovery.revokeApproval');
      const why = parsed.ok ? revokeRefusal(desk.book, parsed.value.callId) : parsed.why;
      if (why !== undefined) throw new Error(why);
    },
  });
  setHandler(pendingApprovalsQuery, (option?: unknown) => openRequests(desk.book, wantsArguments(option)));
  setHandler(approvalLedgerQuery, () => ledger(desk.book));
}

function validate(desk: Desk, raw: unknown): void {
  const parsed = parseMessage(approvalDecisionSchema(), raw, 'recovery.decideApproval');
  const why = parsed.ok ? refusal(desk.book, parsed.value) : parsed.why;
  if (why !== undefined) throw new Error(why);
}

function validateBatch(desk: Desk, raw: unknown): void {
  const parsed = parseMessage(batchDecisionSchema(), raw, 'recovery.decideApprovals');
  if (!parsed.ok) throw new Error(parsed.why);
  for (const call of parsed.value.calls) {
    const why = refusal(desk.book, call);
    if (why !== undefined) throw new Error(why);
  }
}

/** The worker's verdict on one call's decision, or why there is none. */
async function askWorker(
  desk: Desk,
  call: Named & { signature?: string | undefined },
  approved: boolean,
  via: 'update' | 'signal',
): Promise<ApprovalVerdict | string> {
  const request = desk.book.get(call.callId);
  if (!request) return `call ${JSON.stringify(call.callId)} is not waiting for approval`;
  const confirmation: ApprovalConfirmation = {
    callId: call.callId,
    tool: request.view.tool,
    argsDigest: call.argsDigest,
    approved,
    via,
    ...(call.signature ? { signature: call.signature } : {}),
    ...(via === 'update' ? { updateId: currentUpdateInfo()?.id ?? '' } : {}),
  };
  let verdict: ApprovalVerdict;
  try {
    verdict = await desk.confirmApproval(confirmation);
  } catch {
    return 'the worker could not confirm the decision; send it again';
  }
  return verdict.accepted ? verdict : `the decision was refused: ${verdict.reason}`;
}

/** The grant a confirmed decision records. */
function grantOf(
  d: { approved: boolean; by: string; reason?: string | undefined },
  verdict: ApprovalVerdict & { accepted: true },
  via: 'update' | 'signal',
): AcceptedDecision {
  return {
    approved: d.approved,
    by: d.by,
    signed: verdict.signed,
    via,
    ...(verdict.identity ? { identity: verdict.identity } : {}),
    ...(d.reason ? { reason: d.reason } : {}),
  };
}

/** Confirms one decision and takes it if its call still waits undecided; else why not. */
async function decideOne(desk: Desk, d: ApprovalDecision, via: 'update' | 'signal'): Promise<Granted | string> {
  const verdict = await askWorker(desk, d, d.approved, via);
  if (typeof verdict === 'string') return verdict;
  const why = refusal(desk.book, d);
  if (why) return why;
  const grant = grantOf(d, verdict as ApprovalVerdict & { accepted: true }, via);
  accept(desk.book.get(d.callId)!, grant, Date.now(), desk.holdMs);
  return { ...grant, callId: d.callId };
}

/** Confirms every call of a batch, then takes all of them, or none with the first reason. */
async function decideBatch(desk: Desk, b: BatchApprovalDecision): Promise<Granted[] | string> {
  const verdicts = await Promise.all(b.calls.map((c) => askWorker(desk, c, b.approved, 'update')));
  for (const [i, verdict] of verdicts.entries()) {
    if (typeof verdict === 'string') return `call ${JSON.stringify(b.calls[i]!.callId)}: ${verdict}`;
  }
  for (const call of b.calls) {
    const why = refusal(desk.book, call);
    if (why) return why;
  }
  const nowMs = Date.now();
  return b.calls.map((call, i) => {
    const grant = grantOf(b, verdicts[i] as ApprovalVerdict & { accepted: true }, 'update');
    accept(desk.book.get(call.callId)!, grant, nowMs, desk.holdMs);
    return { ...grant, callId: call.callId };
  });
}

/** Withdraws an approval held before use; the waiting call then stops. */
function revoke(desk: Desk, r: RevokeApproval): ApprovalEntry {
  const why = revokeRefusal(desk.book, r.callId);
  if (why) throw refused(why);
  const request = desk.book.get(r.callId)!;
  request.entry.state = 'revoked';
  request.entry.revoked = { by: r.by, atMs: Date.now(), ...(r.reason ? { reason: r.reason } : {}) };
  return { ...request.entry };
}
