/**
 * What an operator runs (`recovery-router/operator`, Node side): approvals, reviews and the approval desk from code;
 * shadow mode (the plugin that watches your existing activities, and its report); the state of shared mode's
 * entities; the attribute names of the router's spans and the search attributes it sets; the reconcile child's id.
 * The command line (`npx recovery-router`) is `operator/cli.ts`.
 *
 * @packageDocumentation
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
export { ShadowPlugin, type ShadowPluginOptions } from '../plugin/shadow/shadow-plugin';
export type {
  ShadowActivityDeclaration,
  ShadowLookupResult,
  ShadowMode,
  ShadowOptions,
} from '../plugin/shadow/options';
export {
  breakerEntityId,
  breakerStateQuery,
  credentialEntityId,
  credentialStateQuery,
  type BreakerEntityState,
  type CredentialEntityState,
} from '../workflows/entity-definitions';
export type { Breakers } from '../activities/breaker';
export { SharedBreaker } from '../activities/shared-breaker';
export { ERROR_TYPES, GenAiAttr, RecoveryAttr } from '../recovery/trace-attributes';
export { CredentialRefreshFailed, UnknownCredential } from '../activities/credentials';
export { MAX_BATCH_CALLS, reconcileWorkflowId } from '../workflows/definitions';
export { RecoveryOperationId, RecoveryStatus, RecoveryTool, SEARCH_ATTRIBUTES } from '../workflows/search-attributes';
export { TerminalState } from '../recovery/records';
export { APPLICATION_FAILURE_TYPES } from '../recovery/failure-types';
export { RECOVERY_ERROR_BRAND } from '../recovery/recovery-error';
