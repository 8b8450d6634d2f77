/**
 * A call's arguments as a person deciding on the call may read them (recovery/observed-state.ts
 * `publicObservedState`: every string and key redacted, the values of keys that name a secret dropped, depth,
 * breadth and length bounded), computed on the Node side so that the workflow bundle carries no redaction rules
 * (docs/DESIGN.md, "What the model sees"):
 * - for an approval: the tool activity whose 403 a person may lift carries the preview in its failure's details
 *   (`FailureMeta.argsPreview`), which the approval request shows (workflows/router/recoveries.ts);
 * - for a review: the `previewArguments` activity, which the reconciliation runs for its review case
 *   (workflows/reconcile.ts, `argsSummary`), since a write whose outcome is unknown may have no answer at all.
 * Never throws.
 */
import { FailureClass, type FailureMeta, type ToolFailure } from '../recovery/failure';
import { publicObservedState, type JsonValue } from '../recovery/observed-state';
import { RecoveryAction, routeFor } from '../recovery/routes';
import type { ToolSpec } from '../recovery/tool-spec';
import { hashedArgs } from '../workflows/router-helpers';

/** What the workflow sends: the arguments of the call under review. */
export interface PreviewRequest {
  args?: unknown;
}

/** The `previewArguments` activity: the redacted, bounded arguments; `null` when there is nothing to show. */
export async function previewArguments(request: PreviewRequest): Promise<JsonValue | null> {
  const args = typeof request === 'object' && request !== null ? request.args : undefined;
  return publicObservedState(args) ?? null;
}

/**
 * `meta` with the preview a person approves, when `failure` routes to `request_approval`: the arguments the gate
 * hashes (workflows/router-helpers.ts `hashedArgs`: those the tool's schema keeps, without the idempotency field),
 * as the approval's `argsDigest` covers them. `meta` itself otherwise.
 */
export function withApprovalPreview(
  meta: FailureMeta,
  failure: ToolFailure,
  spec: ToolSpec | undefined,
  args: unknown,
): FailureMeta {
  // Only an authorization failure has a row to request_approval (recovery/routes.ts): no other failure is routed here.
  if (spec === undefined || failure.class !== FailureClass.AUTHORIZATION) return meta;
  if (routeFor(failure).action !== RecoveryAction.REQUEST_APPROVAL) return meta;
  return { ...meta, argsPreview: publicObservedState(hashedArgs(spec, args)) ?? null };
}
