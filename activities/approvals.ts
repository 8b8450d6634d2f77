/**
 * The `confirmApproval` activity: what the worker checks before a person's decision on a waiting call counts.
 * Workflow code cannot hold a secret or read its own history, so the approval desk (workflows/approvals.ts) asks:
 * 1. the signature — with an approval key configured, every decision (approve or deny) must carry a valid
 *    HMAC over the run, call, tool, argument digest and decision (activities/approval-signature.ts), else it is
 *    refused; the key stays in the worker;
 * 2. the identity — the client identity Temporal recorded on the update (`WorkflowExecutionUpdateAccepted`, its
 *    request's `meta.identity`) or on the signal (`WorkflowExecutionSignaled.identity`), read from the run's
 *    history newest first (Temporal API `GetWorkflowExecutionHistoryReverse`). Absent when the history cannot be
 *    read (no client, a payload codec that hides the signal's input, or more than `HISTORY_SCAN_EVENTS` events
 *    since the decision).
 * Node-side only.
 */
import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';
import { verifyApprovalSignature, type ApprovalSigningFields } from './approval-signature';

/** What the desk sends: the decision (the signed fields but the run's id, read by the worker) and how it came. */
export interface ApprovalConfirmation extends Omit<ApprovalSigningFields, 'workflowId'> {
  signature?: string;
  via: 'update' | 'signal';
  /** The update's id (`currentUpdateInfo().id`), with `via: 'update'`. */
  updateId?: string;
}

/** The worker's verdict. `reason` is public (no secret, no value from the decision). */
export type ApprovalVerdict =
  | { accepted: true; identity?: string; signed: boolean }
  | { accepted: false; reason: 'signature_required' | 'signature_invalid' };

/**
 * `approvals` of the plugin: with a `signingKey` (≥ 32 bytes), every decision must carry an HMAC-SHA256
 * signature (`signApproval`), verified in the worker. docs/approvals.md.
 */
export interface ApprovalActivityOptions {
  /** Approval key (≥ 32 bytes): when set, every decision must be signed with it. */
  signingKey?: string | Uint8Array;
}

/** Events read back from the newest, at most. */
export const HISTORY_SCAN_EVENTS = 500;

export function createApprovalActivities(options: ApprovalActivityOptions = {}) {
  async function confirmApproval(c: ApprovalConfirmation): Promise<ApprovalVerdict> {
    const { info } = Context.current();
    const workflowId = info.workflowExecution?.workflowId ?? '';
    if (options.signingKey !== undefined) {
      if (c.signature === undefined) return { accepted: false, reason: 'signature_required' };
      const fields = { workflowId, callId: c.callId, tool: c.tool, argsDigest: c.argsDigest, approved: c.approved };
      if (!verifyApprovalSignature(options.signingKey, fields, c.signature))
        return { accepted: false, reason: 'signature_invalid' };
    }
    const identity = await recordedIdentity(c).catch((err: unknown) => {
      Context.current().log.warn('approver identity not readable from history', { error: String(err) });
      return undefined;
    });
    return {
      accepted: true,
      signed: options.signingKey !== undefined,
      ...(identity ? { identity: identity.slice(0, 200) } : {}),
    };
  }
  return { confirmApproval };
}

async function recordedIdentity(c: ApprovalConfirmation): Promise<string | undefined> {
  const ctx = Context.current();
  let client: Client;
  try {
    client = ctx.client;
  } catch {
    return undefined; // e.g. MockActivityEnvironment without a client
  }
  const execution = ctx.info.workflowExecution;
  if (!execution) return undefined;
  let nextPageToken: Uint8Array | undefined;
  let scanned = 0;
  do {
    const page = await client.workflowService.getWorkflowExecutionHistoryReverse({
      namespace: ctx.info.workflowNamespace,
      execution,
      maximumPageSize: 100,
      ...(nextPageToken ? { nextPageToken } : {}),
    });
    for (const event of page.history?.events ?? []) {
      const found = identityIn(event, c);
      if (found !== undefined) return found;
    }
    scanned += page.history?.events?.length ?? 0;
    nextPageToken = page.nextPageToken?.length ? page.nextPageToken : undefined;
  } while (nextPageToken && scanned < HISTORY_SCAN_EVENTS);
  return undefined;
}

function identityIn(event: temporal.api.history.v1.IHistoryEvent, c: ApprovalConfirmation): string | undefined {
  if (c.via === 'update') {
    const meta = event.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.meta;
    return meta?.updateId === c.updateId && meta?.identity ? meta.identity : undefined;
  }
  const signal = event.workflowExecutionSignaledEventAttributes;
  if (!signal || signal.signalName !== 'recovery.approval' || !signal.identity) return undefined;
  const payload = signal.input?.payloads?.[0];
  if (!payload) return undefined;
  let sent: unknown;
  try {
    sent = defaultPayloadConverter.fromPayload(payload);
  } catch {
    return undefined; // encoded by a codec the default converter cannot read
  }
  const d = sent as Partial<ApprovalConfirmation> | null;
  return d && d.callId === c.callId && d.argsDigest === c.argsDigest && d.approved === c.approved
    ? signal.identity
    : undefined;
}
