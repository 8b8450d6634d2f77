/** The operator's functions (Node side): approvals and reviews from code. The command line is `operator/cli.ts`. */
export { connectClient } from './connect';
export {
  ApprovalError,
  decideApproval,
  listApprovals,
  pendingApprovals,
  type ApprovalListing,
  type ApprovalRequest,
} from './approvals';
export { approvalLedger, decideApprovals, revokeApproval, type BatchRequest } from './approval-lifecycle';
export { signApproval, type ApprovalSigningFields } from '../activities/approval-signature';
export { decideReview, listReviews, ReviewError, ReviewErrorCode, showReview, type ReviewListing } from './reviews';
export { startDesk, type DeskOptions, type RunningDesk } from './desk/server';
export { hashPassword } from './desk/password';
