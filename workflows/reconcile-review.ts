/**
 * The review handlers of a reconciliation (workflows/reconcile.ts): the `recovery.reviewCase` query, the
 * `recovery.reviewDecision` signal and the `recovery.decideReview` update, whose validator rejects what the
 * workflow cannot take (docs/DESIGN.md, "Reconcile"). Inputs are parsed and bounded (workflows/messages.ts).
 * Sandbox-safe.
 */
import { log, setHandler } from '@temporalio/workflow';
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

/** Registers the review query, signal and update. `accept` takes a decision that passed every check. */
export function registerReview(
  input: ReconcileInput,
  caseView: ReviewCase,
  tally: Tally,
  replayBudget: number,
  accept: (d: ReviewDecision) => void,
): void {
  const check = (raw: unknown, via: string): Parsed<ReviewDecision> => {
    const parsed = parseMessage(reviewDecisionSchema(), raw, via);
    if (!parsed.ok) return parsed;
    const d = parsed.value;
    const refuse = (why: string) => ({ ok: false as const, why });
    if (caseView.status !== 'awaiting_review') return refuse(`operation ${input.operationId} is not awaiting review`);
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
    if (checked.ok) accept(checked.value);
    else log.warn('review decision ignored', { why: checked.why });
  });
  setHandler(
    decideReviewUpdate,
    (raw: ReviewDecision) => {
      const checked = check(raw, 'recovery.decideReview');
      if (checked.ok) accept(checked.value);
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
