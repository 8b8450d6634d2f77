/**
 * The review case's `argsSummary` (workflows/reconcile.ts): the call's arguments as the `previewArguments` activity
 * returns them, redacted and bounded on the Node side (activities/preview-arguments.ts), so the workflow bundle has
 * no redaction rules (docs/DESIGN.md, "What the model sees"). Sandbox-safe.
 */
import { isCancellation, patched, proxyActivities } from '@temporalio/workflow';
import type { ToolActivities } from './router/dispatch';
import type { ReviewCase } from './definitions';

/** The patch that moved the review case's argument preview to the Node side (Temporal docs, "Patching"). */
export const ARGS_PREVIEW_PATCH = 'recovery-router:args-preview-activity';

/** StartToClose timeout of one `previewArguments` attempt, in ms. */
const PREVIEW_TIMEOUT_MS = 10_000;
/** Longest the preview may take, all attempts and queueing together, in ms: then the case keeps `null`. */
const PREVIEW_DEADLINE_MS = 60_000;

/**
 * Sets `caseView.argsSummary` from the `previewArguments` activity, when the case goes to a person (a case a lookup
 * settles runs none); the promise settles when it is set or when none comes. The review does not wait for it: the
 * case shows `null` until it comes. A run recorded before the patch ran no such activity: its case shows `null`. A
 * preview that fails, or that no worker answers within `PREVIEW_DEADLINE_MS`, leaves `null` too; it never fails the
 * reconciliation.
 * @throws CancelledFailure (rejects) when the run is cancelled meanwhile: a cancellation is never swallowed.
 */
export function previewArgs(input: { args: unknown }, caseView: ReviewCase): Promise<void> {
  if (!patched(ARGS_PREVIEW_PATCH)) return Promise.resolve();
  const { previewArguments } = proxyActivities<ToolActivities>({
    startToCloseTimeout: PREVIEW_TIMEOUT_MS,
    scheduleToCloseTimeout: PREVIEW_DEADLINE_MS,
    retry: { maximumAttempts: 3, initialInterval: 200, backoffCoefficient: 2 },
  });
  return previewArguments({ args: input.args }).then(
    (summary) => {
      caseView.argsSummary = summary;
    },
    (err: unknown) => {
      if (isCancellation(err)) throw err;
    },
  );
}
