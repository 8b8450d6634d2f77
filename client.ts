/**
 * The client side: list and decide pending approvals and write reviews. Functions for code, and a CLI (commander):
 *
 *   npm run client -- approvals pending
 *   npm run client -- approvals list <workflowId>          # call id, tool, argument digest and preview
 *   npm run client -- approvals approve <workflowId> <callId> --digest <argsDigest> --by ops@example \
 *     --reason "one-off export" [--key-file approval.key]
 *   npm run client -- approvals deny <workflowId> <callId> --digest <argsDigest> --by ops@example
 *   npm run client -- reviews list
 *   npm run client -- reviews show <operationId>
 *   npm run client -- reviews decide <operationId> mark-applied|replay|abandon --by <who> --reason <text> \
 *     [--result-ref <ref>]
 *
 * The plain Temporal CLI equivalents:
 *   temporal workflow query --workflow-id <workflowId> --name recovery.pendingApprovals
 *   temporal workflow update execute --workflow-id <workflowId> --name recovery.decideApproval \
 *     --input '{"callId":"<callId>","argsDigest":"<argsDigest>","approved":true,"by":"ops@example"}'
 *   temporal workflow list --query 'RecoveryStatus="AwaitingReview" AND ExecutionStatus="Running"'
 *   temporal workflow query --workflow-id reconcile:<operationId> --name recovery.reviewCase
 *   temporal workflow update execute --workflow-id reconcile:<operationId> --name recovery.decideReview \
 *     --input '{"operationId":"<operationId>","decision":"replay","by":"ops@example","reason":"..."}'
 *
 * Connection settings: Temporal's environment configuration, else the embedded dev server (config/connection.ts).
 */
import { readFileSync } from 'node:fs';
import { Argument, Command } from 'commander';
import { Client, Connection, WorkflowUpdateFailedError, type WorkflowExecutionInfo } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import { loadConfig } from './config/load';
import { resolveConnection } from './config/connection';
import { signApproval } from './activities/approval-signature';
import {
  decideApprovalUpdate,
  decideReviewUpdate,
  pendingApprovalsQuery,
  reviewCaseQuery,
  type ApprovalDecision,
  type ApprovalGrant,
  type PendingApproval,
  type ReviewCase,
  type ReviewDecision,
  reconcileWorkflowId,
} from './workflows/definitions';
import { approvalDecisionSchema, parseMessage, reviewDecisionSchema } from './workflows/messages';
import { RecoveryOperationId, RecoveryTool } from './workflows/search-attributes';

/** A connected client for the configured target. Close `client.connection` when done. */
export async function connectClient(configPath?: string): Promise<Client> {
  const target = resolveConnection(loadConfig(configPath));
  const connection = await Connection.connect(target.connectionOptions);
  return new Client({ connection, namespace: target.namespace });
}

/**
 * The visibility query of running workflows whose `RecoveryStatus` search attribute is `status`. Running only: a
 * workflow terminated while it waited keeps its last `RecoveryStatus`, yet nobody waits for a decision any more.
 */
function waitingQuery(status: 'AwaitingReview' | 'AwaitingApproval'): string {
  return `RecoveryStatus = "${status}" AND ExecutionStatus = "Running"`;
}

async function listWaiting(client: Client, status: 'AwaitingReview' | 'AwaitingApproval') {
  const found: WorkflowExecutionInfo[] = [];
  for await (const info of client.workflow.list({ query: waitingQuery(status) })) found.push(info);
  return found;
}

/** A workflow with a call that waits for approval, as visibility shows it. */
export interface ApprovalListing {
  workflowId: string;
  /** `RecoveryTool`: the tool of the call that began to wait last ('' if unset). */
  tool: string;
  /** When the workflow started, ms since the epoch (each call's own `sinceMs`: `pendingApprovals`). */
  startedAtMs: number;
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
  }));
}

/** The calls of a workflow that wait for approval. */
export function pendingApprovals(client: Client, workflowId: string): Promise<PendingApproval[]> {
  return client.workflow.getHandle(workflowId).query(pendingApprovalsQuery);
}

/** A decision that cannot be sent. */
export class ApprovalError extends Error {
  override readonly name = 'ApprovalError';
}

/** The decision as `decideApproval` takes it: the signature is computed when a signing key is given. */
export type ApprovalRequest = Omit<ApprovalDecision, 'signature'>;

/**
 * Sends a decision on a waiting call with the `recovery.decideApproval` UPDATE, so a decision the workflow refuses
 * (wrong digest, no such call, a bad or missing signature) is refused at once, with its reason, and the identity
 * Temporal records for this client (`Client` option `identity`) is the approver's identity in the run.
 * @param options.signingKey the approval key (≥ 32 bytes) when the workers require signed approvals: the
 *   signature binds workflow, call, tool, argument digest and decision (activities/approval-signature.ts).
 * @returns the grant as the run recorded it (`by`, `identity`, `signed`, `via: 'update'`).
 * @throws ApprovalError when `by` is empty or `argsDigest` is not 64 hex characters (before sending), when the
 *   call is not waiting (checked with the query first, so a mistyped call id is reported with the ones that wait),
 *   or when the workflow rejects the decision (the message is its reason).
 */
export async function decideApproval(
  client: Client,
  workflowId: string,
  decision: ApprovalRequest,
  options: { signingKey?: string | Uint8Array } = {},
): Promise<ApprovalGrant & { callId: string; approved: boolean }> {
  if (!decision.by?.trim()) throw new ApprovalError('an approval decision needs `by`: who decided');
  if (!/^[0-9a-f]{64}$/.test(decision.argsDigest ?? ''))
    throw new ApprovalError(
      'an approval decision needs the argsDigest that `approvals list` shows (64 hex characters)',
    );
  // The workflow's own checks, before anything is sent (an oversized update cannot even be rejected cleanly).
  const parsed = parseMessage(approvalDecisionSchema(), decision, 'approval decision');
  if (!parsed.ok) throw new ApprovalError(parsed.why);
  const pending = await pendingApprovals(client, workflowId);
  const call = pending.find((p) => p.callId === decision.callId);
  if (!call) {
    const waiting = pending.map((p) => p.callId).join(', ') || 'none';
    throw new ApprovalError(
      `call ${decision.callId} of ${workflowId} is not waiting for approval (waiting: ${waiting})`,
    );
  }
  const signature =
    options.signingKey === undefined
      ? undefined
      : signApproval(options.signingKey, { workflowId, tool: call.tool, ...decision });
  try {
    return await client.workflow
      .getHandle(workflowId)
      .executeUpdate(decideApprovalUpdate, { args: [{ ...decision, ...(signature ? { signature } : {}) }] });
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError) throw new ApprovalError(err.cause?.message ?? err.message);
    throw err;
  }
}

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
export type ReviewErrorCode = (typeof ReviewErrorCode)[keyof typeof ReviewErrorCode];

/** A review request that failed; `message` is the reason (for `rejected`, the validator's own words). */
export class ReviewError extends Error {
  override readonly name = 'ReviewError';
  constructor(
    readonly code: ReviewErrorCode,
    message: string,
    readonly operationId: string,
  ) {
    super(message);
  }
}

const notFound = (operationId: string) =>
  new ReviewError(
    ReviewErrorCode.NotFound,
    `no open reconciliation for operation ${operationId} (workflow ${reconcileWorkflowId(operationId)})`,
    operationId,
  );

/**
 * The review case of an operation: the `recovery.reviewCase` query on `reconcile:<operationId>` (tool, call id,
 * status `reconciling | awaiting_review | done`, the failure's public message, redacted arguments, replays,
 * lookups, `awaitingSinceMs`). Works on a finished reconciliation too, while a worker can answer the query.
 * @throws ReviewError `not_found` when no workflow `reconcile:<operationId>` exists.
 */
export async function showReview(client: Client, operationId: string): Promise<ReviewCase> {
  try {
    return await client.workflow.getHandle(reconcileWorkflowId(operationId)).query(reviewCaseQuery);
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) throw notFound(operationId);
    throw err;
  }
}

const DECISIONS: readonly string[] = ['mark_applied', 'replay', 'abandon'];

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
  if (!DECISIONS.includes(decision.decision))
    throw invalid(`unknown decision ${String(decision.decision)} (expected ${DECISIONS.join(', ')})`);
  if (!decision.by?.trim() || !decision.reason?.trim()) throw invalid('a decision needs `by` and `reason`');
  if (decision.decision === 'mark_applied' && !decision.resultRef?.trim())
    throw invalid('mark_applied needs a resultRef: where the result of the applied write is');
  const parsed = parseMessage(reviewDecisionSchema(), { ...decision, operationId }, 'review decision');
  if (!parsed.ok) throw invalid(parsed.why);
  try {
    return await client.workflow
      .getHandle(reconcileWorkflowId(operationId))
      .executeUpdate(decideReviewUpdate, { args: [{ ...decision, operationId }] });
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) throw notFound(operationId);
    if (err instanceof WorkflowUpdateFailedError)
      throw new ReviewError(ReviewErrorCode.Rejected, err.cause?.message ?? err.message, operationId);
    throw err;
  }
}

const iso = (ms: number) => new Date(ms).toISOString();

function cli(): Command {
  const program = new Command().name('recovery-client').option('--config <path>', 'temporal.config.json to use');
  const withClient = async (fn: (client: Client) => Promise<void>) => {
    const client = await connectClient(program.opts<{ config?: string }>().config);
    try {
      await fn(client);
    } finally {
      await client.connection.close();
    }
  };

  const approvals = program.command('approvals').description('tool calls waiting for a human approval');
  approvals
    .command('pending')
    .description('workflows with a call waiting for approval, across the namespace (visibility)')
    .action(() =>
      withClient(async (c) => {
        const listed = await listApprovals(c);
        if (listed.length === 0) console.log('no workflow waits for approval');
        for (const a of listed) console.log(`${a.workflowId}\t${a.tool}\t${iso(a.startedAtMs)}`);
      }),
    );
  approvals
    .command('list <workflowId>')
    .description('the calls of one workflow that wait for approval')
    .action((workflowId: string) =>
      withClient(async (c) => {
        const pending = await pendingApprovals(c, workflowId);
        if (pending.length === 0) console.log('no calls wait for approval');
        for (const p of pending) {
          console.log(`${p.callId}\t${p.tool}\t${p.operationId}\t${p.message}`);
          console.log(`  argsDigest ${p.argsDigest}`);
          console.log(`  args       ${JSON.stringify(p.argsPreview)}`);
        }
      }),
    );
  for (const verb of ['approve', 'deny'] as const) {
    approvals
      .command(`${verb} <workflowId> <callId>`)
      .requiredOption('--digest <argsDigest>', 'the argsDigest that `approvals list` shows: what you decide on')
      .requiredOption('--by <who>', 'who decides')
      .option('--reason <text>', 'why')
      .option('--key-file <path>', 'the approval signing key, when the workers require signed approvals')
      .action(
        (workflowId: string, callId: string, o: { digest: string; by: string; reason?: string; keyFile?: string }) =>
          withClient(async (c) => {
            const grant = await decideApproval(
              c,
              workflowId,
              {
                callId,
                argsDigest: o.digest,
                approved: verb === 'approve',
                by: o.by,
                ...(o.reason ? { reason: o.reason } : {}),
              },
              o.keyFile ? { signingKey: readFileSync(o.keyFile) } : {},
            );
            const who = grant.identity ? ` (recorded identity ${grant.identity})` : '';
            console.log(`${verb === 'approve' ? 'approved' : 'denied'} ${callId}${who}`);
          }),
      );
  }

  const reviews = program.command('reviews').description('writes whose outcome stayed unknown, waiting for a human');
  reviews
    .command('list')
    .description('operations awaiting review, across the namespace (visibility)')
    .action(() =>
      withClient(async (c) => {
        const listed = await listReviews(c);
        if (listed.length === 0) console.log('no operation awaits review');
        for (const r of listed) console.log(`${r.operationId}\t${r.tool}\t${r.workflowId}\t${iso(r.sinceMs)}`);
      }),
    );
  reviews
    .command('show <operationId>')
    .description('the review case of an operation, as JSON')
    .action((operationId: string) =>
      withClient(async (c) => console.log(JSON.stringify(await showReview(c, operationId), null, 2))),
    );
  reviews
    .command('decide')
    .description('decide a review: mark-applied (needs --result-ref), replay (same idempotency key) or abandon')
    .argument('<operationId>')
    .addArgument(new Argument('<decision>').choices(['mark-applied', 'replay', 'abandon']))
    .requiredOption('--by <who>', 'who decides')
    .requiredOption('--reason <text>', 'why')
    .option('--result-ref <ref>', 'with mark-applied: where the result of the applied write is')
    .action(
      (
        operationId: string,
        verb: 'mark-applied' | 'replay' | 'abandon',
        o: { by: string; reason: string; resultRef?: string },
      ) => {
        // Refused here, before connecting; decideReview checks it again for callers from code.
        if (verb === 'mark-applied' && !o.resultRef?.trim())
          program.error('mark-applied needs --result-ref <ref>: where the result of the applied write is');
        return withClient(async (c) => {
          await decideReview(c, operationId, {
            decision: verb === 'mark-applied' ? 'mark_applied' : verb,
            by: o.by,
            reason: o.reason,
            ...(o.resultRef ? { resultRef: o.resultRef } : {}),
          });
          console.log(`${verb} accepted for ${operationId}`);
        });
      },
    );
  return program;
}

if (require.main === module) {
  cli()
    .parseAsync(process.argv)
    .catch((err) => {
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    });
}
