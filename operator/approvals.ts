/**
 * Tool calls that wait for a human approval after a 403 an approval can lift: list them (with the argument digest
 * and a redacted preview), and send a decision (the `recovery.decideApproval` update, workflows/definitions.ts;
 * docs/approvals.md, "Trust: what a decision must carry").
 */
import { WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { isApprovalKey, signApproval } from '../activities/approval-signature';
import { closedReason } from '../workflows/approval-ledger';
import {
  approvalLedgerQuery,
  decideApprovalUpdate,
  pendingApprovalsQuery,
  type ApprovalDecision,
  type ApprovalGrant,
  type PendingApproval,
} from '../workflows/definitions';
import { approvalDecisionSchema, parseMessage } from '../workflows/messages';
import { RecoveryTool } from '../workflows/search-attributes';
import { listWaiting } from './waiting';
import { RecoveryError } from '../recovery/recovery-error';

/** A workflow with a call that waits for approval, as visibility shows it. */
export interface ApprovalListing {
  workflowId: string;
  /** `RecoveryTool`: the tool of the call that began to wait last ('' if unset). */
  tool: string;
  /** When the workflow started, ms since the epoch (each call's own `sinceMs`: `pendingApprovals`). */
  startedAtMs: number;
  /** The workflow's task queue (a worker polling it answers the queries that show its calls). */
  taskQueue: string;
}

/**
 * Workflows, across the namespace, with a call waiting for approval: the visibility query
 * `RecoveryStatus = "AwaitingApproval" AND ExecutionStatus = "Running"` (Temporal docs: "Visibility"). Their calls
 * and call ids: `pendingApprovals(client, workflowId)`.
 *
 * Visibility is eventually consistent: a workflow that began to wait a moment ago may not be listed yet, and one
 * just decided may still be.
 * @throws the client's `ServiceError` when the server rejects the query (e.g. `RecoveryStatus` not registered).
 */
export async function listApprovals(client: Client): Promise<ApprovalListing[]> {
  return (await listWaiting(client, 'AwaitingApproval')).map((info) => ({
    workflowId: info.workflowId,
    tool: info.typedSearchAttributes.get(RecoveryTool) ?? '',
    startedAtMs: info.startTime.getTime(),
    taskQueue: info.taskQueue,
  }));
}

/** The calls of a workflow that wait for approval. */
export function pendingApprovals(client: Client, workflowId: string): Promise<PendingApproval[]> {
  return client.workflow.getHandle(workflowId).query(pendingApprovalsQuery);
}

/** A decision that cannot be sent. */
export class ApprovalError extends RecoveryError<'approval_failed'> {
  override readonly name = 'ApprovalError';
  static override readonly codes: readonly string[] = ['approval_failed'];
  constructor(message: string) {
    super('approval_failed', message);
  }
}

/** The decision as `decideApproval` takes it: the signature is computed when a signing key is given. */
export type ApprovalRequest = Omit<ApprovalDecision, 'signature'>;

/**
 * Sends a decision on a waiting call with the `recovery.decideApproval` UPDATE, so a decision the workflow refuses
 * (wrong digest, no such call, a bad or missing signature) is refused at once, with its reason, and the identity
 * Temporal records for this client (`Client` option `identity`) is the approver's identity in the run.
 * @param options.signingKey the approval key (≥ 32 bytes) when the workers require signed approvals: the
 *   signature binds workflow, call, tool, argument digest and decision (activities/approval-signature.ts).
 * @param options.pending the run's waiting calls as the caller just queried them (else queried here); the run's
 *   update validator checks the decision against its own state either way.
 * @returns the grant as the run recorded it (`by`, `identity`, `signed`, `via: 'update'`).
 * @throws ApprovalError when `decision` is not an object, `by` is empty or `argsDigest` is not 64 hex characters, or
 *   `signingKey` is shorter than 32 bytes (before sending); when the workflow does not exist; when the call is not
 *   waiting (checked with the query first, so a mistyped call id is reported with the ones that wait); or when the
 *   workflow rejects the decision (the message is its reason).
 */
export async function decideApproval(
  client: Client,
  workflowId: string,
  decision: ApprovalRequest,
  options: { signingKey?: string | Uint8Array; pending?: readonly PendingApproval[] } = {},
): Promise<ApprovalGrant & { callId: string; approved: boolean }> {
  if (typeof decision !== 'object' || decision === null || Array.isArray(decision)) {
    throw new ApprovalError('an approval decision must be an object { callId, argsDigest, approved, by, reason? }');
  }
  if (typeof decision.by !== 'string' || !decision.by.trim()) {
    throw new ApprovalError('an approval decision needs `by`: who decided');
  }
  if (typeof decision.argsDigest !== 'string' || !/^[0-9a-f]{64}$/.test(decision.argsDigest))
    throw new ApprovalError(
      'an approval decision needs the argsDigest that `approvals list` shows (64 hex characters)',
    );
  const key = signingKeyOf(options);
  // The workflow's own checks, before anything is sent (an oversized update cannot even be rejected cleanly).
  const parsed = parseMessage(approvalDecisionSchema(), decision, 'approval decision');
  if (!parsed.ok) throw new ApprovalError(parsed.why);
  return sending(workflowId, async () => {
    const pending = options.pending ?? (await pendingApprovals(client, workflowId));
    const call = pending.find((p) => p.callId === decision.callId);
    if (!call) throw new ApprovalError(await notWaiting(client, workflowId, decision.callId, pending));
    const signature = key === undefined ? undefined : signApproval(key, { workflowId, tool: call.tool, ...decision });
    return client.workflow
      .getHandle(workflowId)
      .executeUpdate(decideApprovalUpdate, { args: [{ ...decision, ...(signature ? { signature } : {}) }] });
  });
}

/** Maps the client's failures to ApprovalError (the workflow's reason, or a missing workflow). */
export async function sending<T>(workflowId: string, send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError) throw new ApprovalError(err.cause?.message ?? err.message);
    if (err instanceof WorkflowNotFoundError) throw new ApprovalError(`workflow ${workflowId} was not found`);
    throw err;
  }
}

/** Why `callId` cannot be decided: what its run's ledger says became of it, else the calls that do wait. */
export async function notWaiting(
  client: Client,
  workflowId: string,
  callId: string,
  pending: readonly PendingApproval[],
): Promise<string> {
  const entries = await client.workflow
    .getHandle(workflowId)
    .query(approvalLedgerQuery)
    .catch(() => []);
  const entry = entries.filter((e) => e.callId === callId).pop();
  const closed = entry && closedReason(entry);
  if (closed) return `${workflowId}: ${closed}`;
  const waiting = pending.map((p) => p.callId).join(', ') || 'none';
  return `call ${callId} of ${workflowId} is not waiting for approval (waiting: ${waiting})`;
}

/** `options.signingKey`, checked before anything is sent. @throws ApprovalError when it is not a key of ≥ 32 bytes. */
export function signingKeyOf(options: { signingKey?: string | Uint8Array }): string | Uint8Array | undefined {
  const key = (options as { signingKey?: unknown } | null | undefined)?.signingKey;
  if (key === undefined || isApprovalKey(key)) return key;
  throw new ApprovalError('options.signingKey must be a string or a Uint8Array of at least 32 bytes');
}
