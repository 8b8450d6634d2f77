/**
 * The one way workflow code refuses a malformed input: a non-retryable `ApplicationFailure` of type `invalid_input`
 * naming the first issue's field (recovery/shape.ts), so the run FAILS cleanly instead of its workflow task failing forever.
 * Sandbox-safe.
 */
import { ApplicationFailure } from '@temporalio/workflow';
import { ApplicationFailureType } from '../recovery/failure-types';
import type { ShapeError } from '../recovery/shape';

/**
 * `<prefix><path>: <message><note>`, e.g. `agentWorkflow options.maxTurns: Too small: expected number to be >=1`.
 * @param prefix what was checked, with its separator (`'toolPlanWorkflow input '`, `'agentWorkflow options.'`).
 * @param root the path shown when the issue is at the top. @default "(root)"
 */
export function invalidInput(prefix: string, error: ShapeError, note = '', root = '(root)'): ApplicationFailure {
  const issue = error.issues[0];
  return ApplicationFailure.nonRetryable(
    `${prefix}${issue?.path.join('.') || root}: ${issue?.message ?? 'invalid'}${note}`,
    ApplicationFailureType.INVALID_INPUT,
  );
}
