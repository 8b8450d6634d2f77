/**
 * The review handlers of a reconciliation (workflows/reconcile.ts): the `recovery.reviewCase` query, the
 * `recovery.reviewDecision` signal and the `recovery.decideReview` update, whose validator rejects what the
 * workflow cannot take (docs/DESIGN.md, "Reconcile"). Inputs are parsed and bounded (workflows/messages.ts).
 * Sandbox-safe.
 */
import { ApplicationFailure, log, patched, setHandler } from '@temporalio/workflow';
import { ApplicationFailureType } from '../recovery/failure-types';
import { argsHash } from '../recovery/canonical';
import type { ToolFailure } from '../recovery/failure';
import {
  checkOwnerSignal,
  decideReviewUpdate,
  reviewCaseQuery,
  reviewDecisionSignal,
  type ReviewCase,
  type ReviewDecision,
  type UnknownErrorFacts,
  wantsArguments,
} from './definitions';
import { parseMessage, reviewDecisionSchema, type Parsed } from './messages';
import { suggestedRule } from '../recovery/classify/suggested-rule';
import type { ReconcileInput } from './reconcile';
import type { Tally } from './reconcile-lookups';

/** The failure's facts and fingerprint, for the reviewer. */
export function errorFacts(f: ToolFailure): UnknownErrorFacts {
  const status = f.status ?? null;
  const code = f.code ?? null;
  return {
    class: f.class,
    reason: f.reason,
    phase: f.phase,
    ...(f.status !== undefined ? { status: f.status } : {}),
    ...(f.code !== undefined ? { code: f.code } : {}),
    fingerprint: f.fingerprint ?? argsHash({ class: f.class, reason: f.reason, status, code }),
    ...(f.fingerprint === undefined ? {} : { suggestedRule: suggestedRule(f.fingerprint) }),
  };
}

/** Asked where a signalled replay of a write that does not deduplicate is refused for want of `confirmRisk`. */
export const REPLAY_CONFIRM_PATCH = 'recovery-router:replay-needs-confirmed-risk';

/**
 * Why `d` cannot be taken as it is: a replay of a write whose receiver does not deduplicate, without the person's
 * `confirmRisk` (a replay may apply it twice; docs/DESIGN.md, "Reconcile"). The desk, the CLI and `decideReview`
 * callers all meet it here.
 */
export function unconfirmedRisk(d: ReviewDecision, caseView: ReviewCase): string | undefined {
  if (d.decision !== 'replay' || caseView.deduplicates || d.confirmRisk === true) return undefined;
  return `${caseView.tool} does not deduplicate: a replay may apply the write twice. Confirm the risk to replay.`;
}

/** What the handlers hand the reconciliation: a decision to carry out, a request to check the owner, an owner gone. */
export interface Inbox {
  decision?: ReviewDecision | undefined;
  recheck?: boolean;
  gone?: string;
}

/**
 * Registers the review query, signals and update. A decision that passes every check is put in `inbox` for the
 * workflow to carry out; while one is there, any other is refused (its validator and its handler check again, so
 * decisions sent at the same time, validated in one workflow task, cannot all be told they were taken). The update
 * asks `owner` first and refuses, saying why, when the run that started the reconciliation cannot receive its result.
 */
export function registerReview(
  input: ReconcileInput,
  caseView: ReviewCase,
  tally: Tally,
  replayBudget: number,
  inbox: Inbox,
  owner: () => Promise<string | undefined>,
): void {
  const check = (raw: unknown, via: string): Parsed<ReviewDecision> => {
    const parsed = parseMessage(reviewDecisionSchema(), raw, via);
    if (!parsed.ok) return parsed;
    const d = parsed.value;
    const refuse = (why: string) => ({ ok: false as const, why });
    if (caseView.status !== 'awaiting_review') return refuse(`operation ${input.operationId} is not awaiting review`);
    const taken = inbox.decision;
    if (taken !== undefined) {
      return refuse(`operation ${input.operationId} already has a decision (${taken.decision} by ${taken.by})`);
    }
    if (d.operationId !== input.operationId)
      return refuse(`this workflow reviews ${input.operationId}, not ${d.operationId.slice(0, 200)}`);
    if (d.decision === 'replay' && tally.replays >= replayBudget)
      return refuse(
        `the replay budget of this operation is spent (${tally.replays} of ${replayBudget}): mark it applied or abandon it`,
      );
    return parsed;
  };
  // The decision to carry out, and for the case view (the desk's history) who took it and when.
  const take = (d: ReviewDecision) => {
    inbox.decision = d;
    caseView.decision = { ...d, atMs: Date.now() };
  };
  const view = (): ReviewCase => ({
    ...caseView,
    replays: tally.replays,
    allowed:
      caseView.status !== 'awaiting_review' || inbox.decision !== undefined
        ? []
        : tally.replays < replayBudget
          ? ['mark_applied', 'replay', 'abandon']
          : ['mark_applied', 'abandon'],
  });
  setHandler(reviewCaseQuery, (option?: unknown) =>
    wantsArguments(option) ? { ...view(), args: input.args } : view(),
  );
  setHandler(reviewDecisionSignal, (raw: unknown) => {
    const checked = check(raw, 'recovery.reviewDecision');
    // Runs recorded before the rule took a signalled replay as it came.
    const risk = checked.ok ? unconfirmedRisk(checked.value, caseView) : undefined;
    if (checked.ok && (risk === undefined || !patched(REPLAY_CONFIRM_PATCH))) take(checked.value);
    else log.warn('review decision ignored', { why: checked.ok ? risk : checked.why });
  });
  setHandler(checkOwnerSignal, () => void (inbox.recheck = true));
  // A refusal the handler throws is recorded in history (a validator's is not): without the workflow's stack.
  const refused = (why: string) =>
    Object.assign(ApplicationFailure.nonRetryable(why, ApplicationFailureType.REVIEW_REFUSED), { stack: '' });
  setHandler(
    decideReviewUpdate,
    async (raw: ReviewDecision) => {
      // The owner is asked for a decision the case would take; the checks run again once it answered.
      const gone = check(raw, 'recovery.decideReview').ok ? (inbox.gone ??= await owner()) : undefined;
      if (gone !== undefined) throw refused(gone);
      const checked = check(raw, 'recovery.decideReview');
      if (!checked.ok) throw refused(checked.why);
      take(checked.value);
      return view();
    },
    {
      // A validator runs only when the update arrives, never on replay: the risk's rule can live here alone.
      validator: (raw: unknown) => {
        const checked = check(raw, 'recovery.decideReview');
        const why = checked.ok ? unconfirmedRisk(checked.value, caseView) : checked.why;
        if (why !== undefined) throw new Error(why);
      },
    },
  );
}
