/**
 * The review handlers of a reconciliation (workflows/reconcile.ts): the `recovery.reviewCase` query, the
 * `recovery.reviewDecision` signal and the `recovery.decideReview` update, whose validator rejects what the
 * workflow cannot take (docs/DESIGN.md, "Reconcile"). Inputs are parsed and bounded (workflows/messages.ts).
 * Sandbox-safe.
 */
import { ApplicationFailure, log, setHandler } from '@temporalio/workflow';
import { ApplicationFailureType } from '../recovery/failure-types';
import {
  decideReviewUpdate,
  reviewCaseQuery,
  reviewDecisionSignal,
  type ReviewCase,
  type ReviewDecision,
} from './definitions';
import { parseMessage, reviewDecisionSchema, type Parsed } from './messages';
import type { ReconcileInput } from './reconcile';
import type { Tally } from './reconcile-lookups';

/**
 * Registers the review query, signal and update. A decision that passes every check is put in `inbox` for the
 * workflow to carry out; while one is there, any other is refused (its validator and its handler check again, so
 * decisions sent at the same time, validated in one workflow task, cannot all be told they were taken).
 */
export function registerReview(
  input: ReconcileInput,
  caseView: ReviewCase,
  tally: Tally,
  replayBudget: number,
  inbox: { decision?: ReviewDecision | undefined },
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
  setHandler(reviewCaseQuery, () => ({ ...caseView, replays: tally.replays }));
  setHandler(reviewDecisionSignal, (raw: unknown) => {
    const checked = check(raw, 'recovery.reviewDecision');
    if (checked.ok) inbox.decision = checked.value;
    else log.warn('review decision ignored', { why: checked.why });
  });
  setHandler(
    decideReviewUpdate,
    (raw: ReviewDecision) => {
      const checked = check(raw, 'recovery.decideReview');
      if (!checked.ok) throw ApplicationFailure.nonRetryable(checked.why, ApplicationFailureType.REVIEW_REFUSED);
      inbox.decision = checked.value;
      return { ...caseView, replays: tally.replays };
    },
    {
      validator: (raw: unknown) => {
        const checked = check(raw, 'recovery.decideReview');
        if (!checked.ok) throw new Error(checked.why);
      },
    },
  );
}
