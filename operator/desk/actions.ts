/**
 * The desk's decisions, sent through the same functions (and so the same updates) the CLI uses: `decideApproval`,
 * `decideApprovals`, `revokeApproval`, `decideReview`. The decider is the authenticated operator: `by` is their
 * name, and each operator's updates go through a client whose Temporal `identity` is `recovery-router-desk/<name>`,
 * so the run records it too. Decisions are signed when the desk has the approval key. Node side.
 */
import { Client } from '@temporalio/client';
import { decideApprovals, revokeApproval } from '../approval-lifecycle';
import { ApprovalError, decideApproval } from '../approvals';
import { decideReview, ReviewError, ReviewErrorCode } from '../reviews';
import { MESSAGE_BOUNDS } from '../../workflows/messages';
import { HttpError, optionalText, textField } from './http';

const HEX64 = /^[0-9a-f]{64}$/;
/** Longest workflow id the desk passes on, in characters. */
const MAX_WORKFLOW_ID = 1_000;

function digest(value: unknown, name: string): string {
  if (typeof value !== 'string' || !HEX64.test(value))
    throw new HttpError(400, `\`${name}\` must be the 64-character argsDigest the desk shows`);
  return value;
}

function flag(body: Record<string, unknown>, name: string): boolean {
  if (typeof body[name] !== 'boolean') throw new HttpError(400, `\`${name}\` must be true or false`);
  return body[name] as boolean;
}

/** A refusal from the run or the operator functions as an HTTP answer: 409 refused, 404 missing, 400 malformed. */
async function answering<T>(send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (err) {
    if (err instanceof ReviewError) {
      const status = err.code === ReviewErrorCode.NotFound ? 404 : err.code === ReviewErrorCode.Rejected ? 409 : 400;
      throw new HttpError(status, err.message);
    }
    if (err instanceof ApprovalError) throw new HttpError(/was not found$/.test(err.message) ? 404 : 409, err.message);
    throw err;
  }
}

export class DeskActions {
  private readonly clients = new Map<string, Client>();

  constructor(
    private readonly base: Client,
    private readonly signingKey?: Uint8Array,
  ) {}

  /** The client whose recorded identity names `user`, one per operator. */
  private clientFor(user: string): Client {
    let client = this.clients.get(user);
    if (!client) {
      const { connection, namespace } = this.base.options;
      client = new Client({ connection, namespace, identity: `recovery-router-desk/${user}` });
      this.clients.set(user, client);
    }
    return client;
  }

  private get keyOption() {
    return this.signingKey ? { signingKey: this.signingKey } : {};
  }

  /** `{ workflowId, callId, argsDigest, approved, reason? }` → the grant the run recorded. */
  decide(user: string, body: Record<string, unknown>) {
    const workflowId = textField(body, 'workflowId', MAX_WORKFLOW_ID);
    const reason = optionalText(body, 'reason', MESSAGE_BOUNDS.reason);
    const decision = {
      callId: textField(body, 'callId', MESSAGE_BOUNDS.callId),
      argsDigest: digest(body.argsDigest, 'argsDigest'),
      approved: flag(body, 'approved'),
      by: user,
      ...(reason ? { reason } : {}),
    };
    return answering(() => decideApproval(this.clientFor(user), workflowId, decision, this.keyOption));
  }

  /** `{ workflowId, calls: [{ callId, argsDigest }], approved, reason? }` → the grants, all or none. */
  decideBatch(user: string, body: Record<string, unknown>) {
    const workflowId = textField(body, 'workflowId', MAX_WORKFLOW_ID);
    const reason = optionalText(body, 'reason', MESSAGE_BOUNDS.reason);
    if (!Array.isArray(body.calls) || body.calls.length === 0) throw new HttpError(400, '`calls` must be a list');
    const calls = body.calls.map((c: unknown, i) => {
      const call = (typeof c === 'object' && c !== null ? c : {}) as Record<string, unknown>;
      return {
        callId: textField(call, 'callId', MESSAGE_BOUNDS.callId),
        argsDigest: digest(call.argsDigest, `calls.${i}`),
      };
    });
    const batch = { calls, approved: flag(body, 'approved'), by: user, ...(reason ? { reason } : {}) };
    return answering(() => decideApprovals(this.clientFor(user), workflowId, batch, this.keyOption));
  }

  /** `{ workflowId, callId, reason? }` → the revoked ledger entry. */
  revoke(user: string, body: Record<string, unknown>) {
    const workflowId = textField(body, 'workflowId', MAX_WORKFLOW_ID);
    const reason = optionalText(body, 'reason', MESSAGE_BOUNDS.reason);
    const callId = textField(body, 'callId', MESSAGE_BOUNDS.callId);
    return answering(() =>
      revokeApproval(this.clientFor(user), workflowId, { callId, by: user, ...(reason ? { reason } : {}) }),
    );
  }

  /** `{ operationId, decision: mark_applied | replay | abandon, reason, resultRef? }` → the case as accepted. */
  decideReview(user: string, body: Record<string, unknown>) {
    const operationId = textField(body, 'operationId', MESSAGE_BOUNDS.operationId);
    const resultRef = optionalText(body, 'resultRef', MESSAGE_BOUNDS.resultRef);
    const decision = {
      decision: textField(body, 'decision', 20) as 'mark_applied' | 'replay' | 'abandon',
      by: user,
      reason: textField(body, 'reason', MESSAGE_BOUNDS.reason),
      ...(resultRef ? { resultRef } : {}),
    };
    return answering(() => decideReview(this.clientFor(user), operationId, decision));
  }
}
