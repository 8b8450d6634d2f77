/**
 * The operator's functions (Node side): approvals, reviews and the shadow report from code. The command line is
 * `operator/cli.ts`.
 */
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
export {
  ROUTER_ACTIVITY_TYPES,
  shadowReport,
  shadowReportTable,
  type ClassRow,
  type ShadowReport,
  type ShadowReportOptions,
} from './shadow-report';
export type { ActivityExecution } from './shadow-report-history';
export { startDesk, type DeskOptions, type RunningDesk } from './desk/server';
export { hashPassword } from './desk/password';
