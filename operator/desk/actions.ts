/**
 * The desk's decisions, through the CLI's functions, as the operator (`by`; `identity` `recovery-router-desk/<name>`),
 * signed with the desk's key. An approval or replay names `viewDigest` (./human-view.ts): refused when the arguments
 * render otherwise now, cannot be read, or hold a fold this operator did not open (`part`). A call's rendering is
 * kept from the read that showed it (`details`): its `argsDigest` fixes its arguments, so it renders the same; a
 * decision on calls the desk read within FRESH_MS (the run's worker answered) is one update, with no query. Node side.
 */
import { Client } from '@temporalio/client';
import { decideApprovals, revokeApproval } from '../approval-lifecycle';
import { ApprovalError, decideApproval } from '../approvals';
import { decideReview, ReviewError, ReviewErrorCode } from '../reviews';
import { MESSAGE_BOUNDS } from '../../workflows/messages';
import {
  approvalLedgerQuery,
  pendingApprovalsQuery,
  reconcileWorkflowId,
  reviewCaseQuery,
  type PendingApproval,
  type ReviewCase,
} from '../../workflows/definitions';
import { HttpError, optionalText, textField } from './http';
import { rendered, unopened, type Rendered } from './human-view';
import { mustRead, readDetails, WITH_ARGUMENTS } from './views';

/** Renderings kept at most (the oldest go first), and how recent a read spares a decision its query, in ms. */
const MAX_SHOWN = 10_000;
const FRESH_MS = 5_000;
/** Folds opened kept at most (each operator's, for the renderings they decide on); the oldest go first. */
const MAX_OPENED = 100_000;

const HEX64 = /^[0-9a-f]{64}$/;
/** Longest workflow id the desk passes on, in characters. */
const MAX_WORKFLOW_ID = 1_000;

/** @throws HttpError 400 naming `field` unless `value` is 64 lowercase hex characters */
function hex64(value: unknown, field: string, what = 'argsDigest the desk shows'): string {
  if (typeof value !== 'string' || !HEX64.test(value))
    throw new HttpError(400, `\`${field}\` must be the 64-character ${what}`);
  return value;
}
const viewDigest = (value: unknown, field: string) =>
  hex64(value, field, 'digest of the arguments as the desk showed them');
const reasonOf = (body: Record<string, unknown>, reason = optionalText(body, 'reason', MESSAGE_BOUNDS.reason)) =>
  reason ? { reason } : {};

function flag(body: Record<string, unknown>): boolean {
  if (typeof body.approved !== 'boolean') throw new HttpError(400, '`approved` must be true or false');
  return body.approved;
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

/** A waiting call's rendering; undefined when no such call waits (with that digest). */
function callShown(pending: readonly PendingApproval[], callId: unknown, argsDigest?: string) {
  const p = pending.find((w) => w.callId === callId && w.argsDigest === (argsDigest ?? w.argsDigest));
  return p && rendered(p.args, p.argsDigest);
}

export class DeskActions {
  private readonly clients = new Map<string, Client>();
  /** `user \0 viewDigest \0 fold`: what each operator opened. */
  private readonly opened = new Set<string>();
  /** `workflowId \0 callId \0 argsDigest` → the call as read (without its arguments), its rendering, when read. */
  private readonly shown = new Map<string, { call: PendingApproval; rendering: Rendered | null; atMs: number }>();

  constructor(
    private readonly base: Client,
    private readonly signingKey?: Uint8Array,
    /** Told each workflow the desk decided on (`LiveFeed.decided`). */
    private readonly onDecided: (workflowId: string) => void = () => {},
  ) {}

  /** The client whose recorded identity names `user`, one per operator. */
  private clientFor(user: string): Client {
    const { connection, namespace } = this.base.options;
    const made =
      this.clients.get(user) ?? new Client({ connection, namespace, identity: `recovery-router-desk/${user}` });
    return this.clients.set(user, made).get(user)!;
  }

  private get keyOption() {
    return this.signingKey ? { signingKey: this.signingKey } : {};
  }

  /** `{ workflowId, callId, argsDigest, viewDigest (to approve), approved, reason? }` → the grant the run recorded. */
  async decide(user: string, body: Record<string, unknown>) {
    const { workflowId, approved, reason, calls, options } = await this.checked(user, body, [body]);
    const decision = { ...calls[0]!, approved, by: user, ...reason };
    return this.sent(workflowId, () => decideApproval(this.clientFor(user), workflowId, decision, options), calls);
  }

  /** `{ workflowId, calls: [{ callId, argsDigest, viewDigest (to approve) }], approved, reason? }` → all or none. */
  async decideBatch(user: string, body: Record<string, unknown>) {
    if (!Array.isArray(body.calls) || body.calls.length === 0) throw new HttpError(400, '`calls` must be a list');
    const { workflowId, approved, reason, calls, options } = await this.checked(user, body, body.calls);
    const batch = { calls, approved, by: user, ...reason };
    return this.sent(workflowId, () => decideApprovals(this.clientFor(user), workflowId, batch, options), calls);
  }

  /**
   * `send`'s answer (`answering`); the feed then reads `workflowId` again, whatever the run answered, and a next
   * decision on `calls` reads them again (a second click is refused with what became of the call).
   */
  private sent<T>(
    workflowId: string,
    send: () => Promise<T>,
    calls: Array<{ callId: string; argsDigest: string }> = [],
  ) {
    return answering(send).finally(() => {
      for (const c of calls) this.shown.delete(`${workflowId}\0${c.callId}\0${c.argsDigest}`);
      this.onDecided(workflowId);
    });
  }

  /**
   * A decision's fields and the run's waiting calls: as the desk read them within FRESH_MS when it read every call
   * named, else queried now (one query, one update); to approve, each call checked against its rendering (the run
   * refuses a call that does not wait with that digest).
   */
  private async checked(user: string, body: Record<string, unknown>, list: unknown[]) {
    const [workflowId, reason, approved] = [textField(body, 'workflowId', MAX_WORKFLOW_ID), reasonOf(body), flag(body)];
    const fields = list.map((c, i) => {
      const call = (typeof c === 'object' && c !== null ? c : {}) as Record<string, unknown>;
      const at = list.length === 1 && c === body ? '' : `calls.${i}.`;
      const callId = textField(call, 'callId', MESSAGE_BOUNDS.callId);
      return { call, at, callId, argsDigest: hex64(call.argsDigest, `${at}argsDigest`) };
    });
    const kept = fields.map((f) => this.shown.get(`${workflowId}\0${f.callId}\0${f.argsDigest}`));
    const checkAll = (shownOf: (i: number) => Rendered | null | undefined) => {
      for (const [i, { call, at, callId }] of (approved ? fields : []).entries()) {
        const shown = shownOf(i);
        if (shown !== undefined)
          this.check(user, `call ${callId}`, shown, viewDigest(call.viewDigest, `${at}viewDigest`), 'approving');
      }
    };
    const passes = (shownOf: (i: number) => Rendered | null) => {
      try {
        checkAll(shownOf);
        return true;
      } catch {
        return false; // refused as kept: read now, and refuse with what the run says now
      }
    };
    const fresh = kept.every((k) => k && Date.now() - k.atMs < FRESH_MS) && passes((i) => kept[i]!.rendering);
    const pending = fresh ? kept.map((k) => k!.call) : await this.pendingOf(workflowId);
    if (!fresh) checkAll((i) => callShown(pending, fields[i]!.callId, fields[i]!.argsDigest));
    const calls = fields.map(({ callId, argsDigest }) => ({ callId, argsDigest }));
    return { workflowId, approved, reason, calls, options: { ...this.keyOption, pending } };
  }

  /** `?workflowId` → the run's details read now (views.ts `readDetails`), each call's rendering kept. @throws HttpError 404 */
  async details(query: Record<string, unknown>) {
    const workflowId = textField(query, 'workflowId', MAX_WORKFLOW_ID);
    const details = await readDetails(this.base, workflowId, (call, rendering) => {
      const key = `${workflowId}\0${call.callId}\0${call.argsDigest}`;
      this.shown.delete(key);
      if (this.shown.size >= MAX_SHOWN) this.shown.delete(this.shown.keys().next().value as string);
      this.shown.set(key, { call, rendering, atMs: Date.now() });
    });
    if (!details) throw new HttpError(404, `workflow ${workflowId.slice(0, 200)} was not found`);
    return details;
  }

  /** The run's waiting calls with their arguments, read now. @throws HttpError 404, 409 (no worker answers) */
  private pendingOf(workflowId: string): Promise<PendingApproval[]> {
    return mustRead(this.base, workflowId, (h) => h.query(pendingApprovalsQuery, WITH_ARGUMENTS));
  }

  /** @throws HttpError 409 when the arguments cannot be shown, were shown otherwise, or have a fold `user` never opened. */
  private check(user: string, what: string, shown: Rendered | null, viewDigest: string, doing: string): void {
    if (!shown) throw new HttpError(409, `the arguments of ${what} cannot be shown, so the desk does not decide it`);
    const { view } = shown;
    if (view.digest !== viewDigest)
      throw new HttpError(
        409,
        `the arguments of ${what} were shown differently than the desk renders them now: reload`,
      );
    const closed = unopened(view, (f) => this.opened.has(`${user}\0${view.digest}\0${f}`));
    if (closed) throw new HttpError(409, `open every folded part of ${what} before ${doing} it (${closed})`);
  }

  /** `?workflowId&callId&fold` or `?operationId&fold` → what the fold hides, read now; `user` opened it. */
  async part(user: string, query: Record<string, unknown>) {
    const fold = textField(query, 'fold', 20);
    const shown =
      query.operationId === undefined
        ? callShown(await this.pendingOf(textField(query, 'workflowId', MAX_WORKFLOW_ID)), query.callId)
        : rendered((await this.reviewCase(query)).args);
    const part = shown?.parts.get(fold);
    if (!shown || !part) throw new HttpError(404, 'no such call, or no such folded part of its arguments');
    if (this.opened.size >= MAX_OPENED) this.opened.delete(this.opened.values().next().value as string);
    this.opened.add(`${user}\0${shown.view.digest}\0${fold}`);
    return { viewDigest: shown.view.digest, fold, ...part };
  }

  /** `{ operationId }`'s review case with its arguments, read now. @throws HttpError 404, 409 (no worker answers) */
  private reviewCase(query: Record<string, unknown>): Promise<ReviewCase> {
    const id = reconcileWorkflowId(textField(query, 'operationId', MESSAGE_BOUNDS.operationId));
    return mustRead(this.base, id, (h) => h.query(reviewCaseQuery, WITH_ARGUMENTS));
  }

  /** `?workflowId` → the run's approval ledger; `?operationId` → the review's last decision: who, what, when. */
  async decided(query: Record<string, unknown>) {
    if (query.operationId !== undefined) return { decision: (await this.reviewCase(query)).decision ?? null };
    return mustRead(this.base, textField(query, 'workflowId', MAX_WORKFLOW_ID), (h) => h.query(approvalLedgerQuery));
  }

  /** `{ workflowId, callId, reason? }` → the revoked ledger entry. */
  revoke(user: string, body: Record<string, unknown>) {
    const workflowId = textField(body, 'workflowId', MAX_WORKFLOW_ID);
    const revoke = { callId: textField(body, 'callId', MESSAGE_BOUNDS.callId), by: user, ...reasonOf(body) };
    return this.sent(workflowId, () => revokeApproval(this.clientFor(user), workflowId, revoke));
  }

  /** `{ operationId, decision, reason, resultRef?, viewDigest and confirmRisk (replay) }` → the case as accepted. */
  async decideReview(user: string, body: Record<string, unknown>) {
    const operationId = textField(body, 'operationId', MESSAGE_BOUNDS.operationId);
    const resultRef = optionalText(body, 'resultRef', MESSAGE_BOUNDS.resultRef);
    const decision = {
      decision: textField(body, 'decision', 20) as 'mark_applied' | 'replay' | 'abandon',
      by: user,
      reason: textField(body, 'reason', MESSAGE_BOUNDS.reason),
      ...(resultRef ? { resultRef } : {}),
      // The run refuses a replay of a write that does not deduplicate without it (workflows/reconcile-review.ts).
      ...(body.confirmRisk === true ? { confirmRisk: true } : {}),
    };
    if (decision.decision === 'replay') {
      const c = await this.reviewCase(body);
      this.check(
        user,
        `operation ${operationId}`,
        rendered(c.args),
        viewDigest(body.viewDigest, 'viewDigest'),
        'replaying',
      );
    }
    return this.sent(reconcileWorkflowId(operationId), () => decideReview(this.clientFor(user), operationId, decision));
  }
}
