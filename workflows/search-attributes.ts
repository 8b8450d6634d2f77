/**
 * Custom search attributes the plugin sets on workflows (Temporal docs: "Search Attributes").
 * The embedded dev server registers them at start (`temporal server start-dev --search-attribute NAME=Keyword`),
 * and so does the test environment. On a remote cluster or Temporal Cloud, register them once with
 * `temporal operator search-attribute create --name NAME --type Keyword`.
 */
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/** Where a recovery stands: `Reconciling`, `AwaitingReview`, `AwaitingApproval`, `Escalated`, `Done`. */
export const RecoveryStatus = defineSearchAttributeKey('RecoveryStatus', SearchAttributeType.KEYWORD);
/** The tool whose failure is being recovered. */
export const RecoveryTool = defineSearchAttributeKey('RecoveryTool', SearchAttributeType.KEYWORD);
/** The operation_id (idempotency key) of the write under recovery. */
export const RecoveryOperationId = defineSearchAttributeKey('RecoveryOperationId', SearchAttributeType.KEYWORD);

/**
 * The plugin's three Keyword search attributes, which a namespace must have (docs/operating.md, "Search
 * attributes").
 */
export const SEARCH_ATTRIBUTES = [RecoveryStatus, RecoveryTool, RecoveryOperationId] as const;
