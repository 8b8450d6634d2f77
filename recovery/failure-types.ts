/**
 * The `type` of every `ApplicationFailure` the library throws, in one table (docs/DESIGN.md, "Errors"). The type is
 * what a retry policy's `nonRetryableErrorTypes` matches and what a caller reads from a failed run's `cause.type`
 * (Temporal docs: "Failures", `ApplicationFailure.type`).
 *
 * One naming form: lower-case snake_case, the form the library already used for all but one kind of type (the
 * failure classes, `invalid_input`, `approval_refused`, `planner_invalid_*`). The one exception is kept as it is:
 * a non-transient tool failure with a provider business code leaves as `PascalCase + Error`
 * (`insufficient_funds` → `InsufficientFundsError`, `errorTypeFor` in failure.ts) because users' retry policies
 * name those types (Temporal's money-transfer sample: `nonRetryableErrorTypes: ['InsufficientFundsError']`).
 * Failure-class types are recorded in the histories test/temporal/replay.test.ts replays and listed in every tool
 * activity's `nonRetryableErrorTypes` (activity-options.ts), so none of these strings may change.
 *
 * Pure and sandbox-safe.
 */
import { FAILURE_CLASSES, type FailureClass } from './failure';
import type { CodeOf } from './recovery-error';

/** The types thrown by the library's own checks. A tool's failure has its class (or business type) instead. */
export const ApplicationFailureType = {
  /**
   * A workflow's argument, option or call fails its schema or a documented rule; thrown from workflow code,
   * non-retryable, so the run FAILS instead of its workflow task retrying forever (workflows/input-errors.ts).
   */
  INVALID_INPUT: 'invalid_input',
  /** The `recovery.decideApproval` update refused a decision (wrong digest, no such call, a bad signature). */
  APPROVAL_REFUSED: 'approval_refused',
  /**
   * The `recovery.decideReview` update refused a decision its validator had let through: another decision was taken
   * first, in the same workflow task (workflows/reconcile-review.ts).
   */
  REVIEW_REFUSED: 'review_refused',
  /** A planner's answer is not a valid decision (the planner activity, and the agent workflow checking it again). */
  PLANNER_INVALID_DECISION: 'planner_invalid_decision',
  /** The planner activity was given a `PlannerInput` it cannot use (a bug in the calling workflow). */
  PLANNER_INVALID_INPUT: 'planner_invalid_input',
} as const;
export type ApplicationFailureType = CodeOf<typeof ApplicationFailureType>;

/**
 * Every snake_case type the library throws: its own (`ApplicationFailureType`) and a tool failure's class
 * (`FailureClass`, activities/failure-edge.ts and toolPlanWorkflow's `failOnTerminal`). Business types
 * (`errorTypeFor`) are not listed: they depend on the provider's code.
 */
export const APPLICATION_FAILURE_TYPES: readonly (ApplicationFailureType | FailureClass)[] = Object.freeze([
  ...Object.values(ApplicationFailureType),
  ...FAILURE_CLASSES,
]);

/** The one naming form of `APPLICATION_FAILURE_TYPES`: lower-case snake_case, a letter first. */
export const APPLICATION_FAILURE_TYPE_FORM = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;
