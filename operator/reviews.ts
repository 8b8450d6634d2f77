/**
 * Writes whose outcome stayed unknown and wait for a reviewer: list them, show a case (the `recovery.reviewCase`
 * query) and decide it (the `recovery.decideReview` update on `reconcile:<operationId>`, workflows/definitions.ts).
 */
import { WorkflowUpdateFailedError, type Client, type WorkflowHandle } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import {
  decideReviewUpdate,
  reconcileWorkflowId,
  reviewCaseQuery,
  type ReviewCase,
  type ReviewDecision,
} from '../workflows/definitions';
import { parseMessage, reviewDecisionSchema } from '../workflows/messages';
import { RecoveryOperationId, RecoveryTool } from '../workflows/search-attributes';
import { listWaiting } from './waiting';
import { RecoveryError, type CodeOf } from '../recovery/recovery-error';

/** A write whose outcome stayed unknown and waits for a human, as visibility shows it. */
export interface ReviewListing {
  /** `RecoveryOperationId`: the operation_id (idempotency key) of the write. */
  operationId: string;
  /** `RecoveryTool`: the tool of the write. */
  tool: string;
  /** `reconcile:<operationId>`. */
  workflowId: string;
  /**
   * When its reconciliation started (the workflow's start time), ms since the epoch: since when the outcome is
   * unknown. When the review itself began: `showReview(...).awaitingSinceMs`.
   */
  sinceMs: number;
  /** The reconciliation's task queue (a worker there answers its query), and its parent: the agent's workflow. */
  taskQueue: string;
  agentWorkflowId?: string;
}

/**
 * Writes awaiting review, across the namespace: the visibility query
 * `RecoveryStatus = "AwaitingReview" AND ExecutionStatus = "Running"` (Temporal docs: "Visibility").
 *
 * Visibility is eventually consistent: a case that began to wait a moment ago may not be listed yet, and one just
 * decided may still be.
 * @throws the client's `ServiceError` when the server rejects the query (e.g. `RecoveryStatus` not registered).
 */
export async function listReviews(client: Client): Promise<ReviewListing[]> {
  return (await listWaiting(client, 'AwaitingReview')).map((info) => ({
    operationId: info.typedSearchAttributes.get(RecoveryOperationId) ?? info.workflowId.replace(/^reconcile:/, ''),
    tool: info.typedSearchAttributes.get(RecoveryTool) ?? '',
    workflowId: info.workflowId,
    sinceMs: info.startTime.getTime(),
    taskQueue: info.taskQueue,
    ...(info.parentExecution?.workflowId ? { agentWorkflowId: info.parentExecution.workflowId } : {}),
  }));
}

/** Why a review request failed. */
export const ReviewErrorCode = {
  /** The decision is incomplete; refused before anything was sent. */
  InvalidDecision: 'invalid_decision',
  /** The workflow's update validator rejected it (e.g. the operation is not awaiting review). Nothing changed. */
  Rejected: 'rejected',
  /** No reconciliation workflow `reconcile:<operationId>`, or it has ended. */
  NotFound: 'not_found',
} as const;
export type ReviewErrorCode = CodeOf<typeof ReviewErrorCode>;

/** A review request that failed; `message` is the reason (for `rejected`, the validator's own words). */
export class ReviewError extends RecoveryError<ReviewErrorCode> {
  override readonly name = 'ReviewError';
  static override readonly codes: readonly string[] = Object.values(ReviewErrorCode);
  constructor(
    code: ReviewErrorCode,
    message: string,
    readonly operationId: string,
  ) {
    super(code, message);
  }
}

/**
 * `send` on `reconcile:<operationId>`, its failures as ReviewError: `not_found` when no such workflow runs,
 * `rejected` (the validator's reason) when an update is refused.
 */
async function onCase<T>(client: Client, operationId: string, send: (h: WorkflowHandle) => Promise<T>): Promise<T> {
  const workflowId = reconcileWorkflowId(operationId);
  try {
    return await send(client.workflow.getHandle(workflowId));
  } catch (err) {
    const why = `no open reconciliation for operation ${operationId} (workflow ${workflowId})`;
    if (err instanceof WorkflowNotFoundError) throw new ReviewError(ReviewErrorCode.NotFound, why, operationId);
    if (err instanceof WorkflowUpdateFailedError)
      throw new ReviewError(ReviewErrorCode.Rejected, err.cause?.message ?? err.message, operationId);
    throw err;
  }
}

/**
 * The review case of an operation: the `recovery.reviewCase` query on `reconcile:<operationId>` (tool, call id,
 * status `reconciling | awaiting_review | done`, the failure's public message, redacted arguments, replays,
 * lookups, `awaitingSinceMs`). Works on a finished reconciliation too, while a worker can answer the query.
 * @throws ReviewError `not_found` when no workflow `reconcile:<operationId>` exists.
 */
export function showReview(client: Client, operationId: string): Promise<ReviewCase> {
  return onCase(client, operationId, (h) => h.query(reviewCaseQuery));
}

const DECISIONS: readonly string[] = ['mark_applied', 'replay', 'abandon'];

/** A string with something other than whitespace in it. */
const filled = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

/**
 * Sends a reviewer's decision with the `recovery.decideReview` UPDATE on `reconcile:<operationId>`, so a decision
 * the workflow cannot take is rejected synchronously, with its validator's reason, instead of being ignored as a
 * signal would be (Temporal docs: "Workflow message passing", update validators).
 * @param decision `{ decision: 'mark_applied' | 'replay' | 'abandon', by, reason, resultRef? }`; the operation id is
 *   filled in from `operationId`.
 * @returns the case as the workflow saw it when it accepted the decision (status still `awaiting_review`).
 * @throws ReviewError `invalid_decision`, before sending, when `by` or `reason` is empty, the decision is unknown,
 *   or `mark_applied` has no `resultRef`;
 *   `rejected` when the validator refuses it (e.g. "operation <id> is not awaiting review" while a replay runs);
 *   `not_found` when no reconciliation of that operation is running (none started, or it has ended).
 */
export async function decideReview(
  client: Client,
  operationId: string,
  decision: Omit<ReviewDecision, 'operationId'>,
): Promise<ReviewCase> {
  const invalid = (why: string) => new ReviewError(ReviewErrorCode.InvalidDecision, why, operationId);
  if (typeof decision !== 'object' || decision === null || Array.isArray(decision)) {
    throw invalid('a decision must be an object { decision, by, reason, resultRef? }');
  }
  if (!DECISIONS.includes(decision.decision))
    throw invalid(`unknown decision ${String(decision.decision)} (expected ${DECISIONS.join(', ')})`);
  if (!filled(decision.by) || !filled(decision.reason)) throw invalid('a decision needs `by` and `reason` (text)');
  if (decision.decision === 'mark_applied' && !filled(decision.resultRef))
    throw invalid('mark_applied needs a resultRef: where the result of the applied write is');
  const parsed = parseMessage(reviewDecisionSchema(), { ...decision, operationId }, 'review decision');
  if (!parsed.ok) throw invalid(parsed.why);
  return onCase(client, operationId, (h) =>
    h.executeUpdate(decideReviewUpdate, { args: [{ ...decision, operationId }] }),
  );
}
