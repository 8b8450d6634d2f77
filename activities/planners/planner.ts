/**
 * The planner activity: the agent workflow's "what next?" step, behind an interface so a script or a model can
 * answer it (issue 5: "The planner is an activity behind an interface, with two implementations").
 *
 * `createPlannerActivities(planner)` returns `{ planNextStep }`. The activity:
 *   - checks the planner's answer against `plannerDecisionSchema()` (workflows/planner-contract.ts). An answer that
 *     fails it, or a `PlannerOutputError` thrown by the planner, is an `ApplicationFailure` of type
 *     `planner_invalid_decision`, non-retryable: its message says what is wrong and quotes at most
 *     `MAX_DECISION_EXCERPT_CHARS` redacted characters of the answer; details[0] is a ToolFailure of class
 *     `invalid_result` (reason `schema_violation`, phase `postcheck`) so workflow code reads it like any tool's.
 *   - classifies anything else the planner throws (the model endpoint's 429, 503, 401, refused connections) with
 *     `classify`, exactly as a read-only tool call (a model call has no side effect): 429/503 are transient and
 *     retryable with `nextRetryDelay` (Retry-After as its floor), 401/403 are not retryable. It leaves through
 *     `failWith` (activities/failure-edge.ts), so Temporal owns the retries and the raw error goes to
 *     the worker log only.
 * The activity passes its cancellation signal to the planner, so a cancelled step aborts the model request and
 * ends as cancelled (Temporal's `CancelledFailure`), not as a classified failure. It heartbeats while the planner
 * runs (every third of the heartbeat timeout, 1 s without one), since cancellation reaches an activity only in a
 * heartbeat's response (Temporal docs, "Activity cancellation").
 */
import { Context } from '@temporalio/activity';
import { keepHeartbeating } from '../heartbeat';
import { ApplicationFailure } from '@temporalio/common';
import { DEFAULT_BACKOFF_POLICY, type BackoffPolicy } from '../../recovery/backoff';
import { classify, fieldIssuesFromZod, type CallContext } from '../../recovery/classify';
import { buildFailure } from '../../recovery/classify/build';
import { publicText } from '../../recovery/classify/text';
import { FailureClass, FailureReason, Phase, type FieldIssue } from '../../recovery/failure';
import { redact } from '../../recovery/redact';
import {
  PLANNER_INVALID_DECISION,
  plannerDecisionSchema,
  type PlannerDecision,
  type PlannerInput,
  type PlannerStepInput,
} from '../../workflows/planner-contract';
import { bare, readPlannerInput, WITH_CATALOG, type CatalogEntry } from './planner-input';
import { ScriptedPolicyError } from './scripted-policy';

export { PLANNER_INVALID_DECISION };
import { failWith } from '../failure-edge';
import { callContextOf } from '../invoke/stop';
import { RecoveryError } from '../../recovery/recovery-error';
import { jsonSchemaOfShape } from '../../recovery/shape-json';
import { ApplicationFailureType } from '../../recovery/failure-types';

/** Something that decides the next step of an agent run: a script, a model. */
export interface Planner {
  /**
   * The next step for `input`. Throw `PlannerOutputError` when the model's answer cannot be read as a decision;
   * let transport errors (the SDK's, fetch's) propagate unchanged so the activity can classify them.
   * @param options.signal aborts the request when the activity is cancelled.
   */
  plan(input: PlannerInput, options?: { signal?: AbortSignal }): Promise<PlannerDecision>;
}

/** `ApplicationFailure.type` of a `PlannerInput` the activity cannot use (a bug in the calling workflow). */
export const PLANNER_INVALID_INPUT = ApplicationFailureType.PLANNER_INVALID_INPUT;
/** Most characters of a model's answer quoted in a `planner_invalid_decision` message (after redaction). */
export const MAX_DECISION_EXCERPT_CHARS = 200;

/**
 * A planner's model answered something that is not a decision (no choices, a `submit` without `result`, ...).
 * `reason` is public (it names the problem, never the key or the endpoint); `received` is the raw answer, of which
 * the activity quotes at most `MAX_DECISION_EXCERPT_CHARS` redacted characters.
 */
export class PlannerOutputError extends RecoveryError<typeof PLANNER_INVALID_DECISION> {
  override readonly name = 'PlannerOutputError';
  static override readonly codes: readonly string[] = [PLANNER_INVALID_DECISION];
  constructor(
    readonly reason: string,
    readonly received?: unknown,
  ) {
    super(PLANNER_INVALID_DECISION, reason);
  }
}

/** Options of the `planNextStep` activity. */
export interface PlannerActivityOptions {
  /** Backoff for retryable transport failures of the model endpoint. @default DEFAULT_BACKOFF_POLICY */
  backoff?: BackoffPolicy;
  /** The name failures carry as `tool`. @default "planner" */
  name?: string;
  /**
   * The tools whose names `agentWorkflow` sends (`PlannerStepInput`): `plugin.catalog`, or any `{ name,
   * description, inputSchema }` list. On a Worker with the `RecoveryPlugin` the plugin supplies its own.
   * @default none: only a full `PlannerInput` is taken
   */
  catalog?: readonly CatalogEntry[];
  /** Random source for the backoff's jitter, in [0, 1). @default Math.random */
  random?: () => number;
}

/** The JSON Schema of `plannerDecisionSchema()`, built once (recovery/shape-json.ts). */
let decisionJson: Record<string, unknown> | undefined;
const decisionJsonSchema = () => (decisionJson ??= jsonSchemaOfShape(plannerDecisionSchema()));

/**
 * Builds the planner activities (a factory with injected dependencies, as Temporal samples build activities).
 * @returns `{ planNextStep(input: PlannerInput): Promise<PlannerDecision> }`.
 *   @throws ApplicationFailure `planner_invalid_input` (non-retryable) when `input` is not a PlannerInput (names the
 *   field); `planner_invalid_decision` (non-retryable) for an answer that is not a decision; the failure class
 *   (`transient`, `authentication`, ...) for a classified transport failure, retryable only when transient.
 */
export function createPlannerActivities(planner: Planner, options: PlannerActivityOptions = {}) {
  const backoff = options.backoff ?? DEFAULT_BACKOFF_POLICY;
  const name = options.name ?? 'planner';

  /**
   * The activity: expands a step's capability names from the catalog (`PlannerStepInput`, the agent's since
   * `recovery-router:planner-capability-names`) or takes a whole `PlannerInput`, asks the planner, then checks its
   * answer (`PlannerOutputError` for an unusable one, which the agent shows back to the planner). Failures of the
   * model call are classified like a tool's.
   */
  async function planNextStep(input: PlannerInput | PlannerStepInput): Promise<PlannerDecision> {
    const activity = Context.current();
    const { info } = activity;
    const plannerInput = readPlannerInput(input, options.catalog);
    // A read of no tool of the catalog: effect `read`, nothing deduplicated or liftable (./invoke/stop.ts).
    const ctx = callContextOf(undefined, { tool: name, callId: `turn-${plannerInput.turn}` }, info);
    let answer: unknown;
    // Heartbeat while the model thinks: Temporal delivers a cancellation in a heartbeat's response, so without this
    // a cancelled run would leave the model request running to its timeout (attack review X1). A third of the
    // heartbeat timeout, or every second when the step has none.
    const stopHeartbeats = keepHeartbeating(activity, 1_000);
    try {
      answer = await planner.plan(plannerInput, { signal: activity.cancellationSignal });
    } catch (err) {
      // A cancelled step ends as cancelled (the signal's reason is Temporal's CancelledFailure), not as a failure.
      if (activity.cancellationSignal.aborted) throw activity.cancellationSignal.reason ?? err;
      if (PlannerOutputError.is(err)) throw invalidDecision(ctx, err.reason, [], err.received, info.attempt);
      const failure = ScriptedPolicyError.is(err)
        ? policyMisfit(ctx, err.code)
        : classify({ kind: 'thrown', error: err }, ctx);
      return failWith(failure, {
        diagnostic: err,
        meta: {},
        attempt: info.attempt,
        backoff,
        log: activity.log,
        ...(options.random ? { random: options.random } : {}),
      });
    } finally {
      stopHeartbeats();
    }
    const parsed = plannerDecisionSchema().safeParse(answer);
    if (parsed.success) return parsed.data;
    const first = parsed.error.issues[0];
    const where = first?.path.length ? first.path.join('.') : '(decision)';
    throw invalidDecision(
      ctx,
      `${where}: ${first?.message ?? 'invalid value'}`,
      // Without `input`: issues name the received type, so no model text beyond the excerpt leaves. With the
      // decision's JSON Schema: `kind` expects "one of tool_calls|submit|stop".
      fieldIssuesFromZod(parsed.error, { jsonSchema: decisionJsonSchema() }),
      answer,
      info.attempt,
    );
  }

  if (options.catalog === undefined) {
    // The Worker's plugin may supply its catalog (plugin/plugin-config.ts); a copy, this one is left as it is.
    Object.defineProperty(planNextStep, WITH_CATALOG, {
      value: (catalog: readonly CatalogEntry[]) =>
        createPlannerActivities(planner, { ...options, catalog }).planNextStep,
    });
  }
  return {
    /** The planner activity `planNextStep(input: PlannerStepInput | PlannerInput): Promise<PlannerDecision>`. */
    planNextStep,
  };
}

/**
 * A scripted policy that does not fit the run (docs/agents.md: `unknown_goal`, `out_of_script`…): a bug of the test
 * or demo, said by its code; the goal and the policy's goals stay in the worker's log, not in the run's history.
 */
function policyMisfit(ctx: CallContext, code: string) {
  return buildFailure(ctx, {
    class: FailureClass.UNRECOVERABLE,
    reason: FailureReason.TOOL_BUG,
    phase: Phase.DISPATCH,
    retryable: false,
    replaySafe: true,
    publicMessage: `planner: the scripted policy does not fit this run (ScriptedPolicyError ${code}); the worker's log names the goal and the policy's goals.`,
  });
}

/** The `planner_invalid_decision` failure. Public by construction: a redacted reason and a ≤200-char excerpt. */
function invalidDecision(
  ctx: CallContext,
  reason: string,
  issues: FieldIssue[],
  received: unknown,
  attempt: number,
): ApplicationFailure {
  const excerpt = received === undefined ? '' : ` Received: ${excerptOf(received)}`;
  const failure = buildFailure(ctx, {
    class: FailureClass.INVALID_RESULT,
    reason: FailureReason.SCHEMA_VIOLATION,
    phase: Phase.POSTCHECK,
    retryable: false,
    replaySafe: true,
    publicMessage: `The planner's answer is not a valid decision: ${redact(reason)}.${excerpt}`,
    issues,
  });
  return bare(
    ApplicationFailure.create({
      type: PLANNER_INVALID_DECISION,
      message: failure.publicMessage,
      nonRetryable: true,
      details: [failure, { attempt }],
    }),
  );
}

/** At most `MAX_DECISION_EXCERPT_CHARS` redacted characters of a model's answer, on one line. */
export function excerptOf(received: unknown): string {
  let text: string;
  try {
    text = typeof received === 'string' ? received : (JSON.stringify(received) ?? String(received));
  } catch {
    text = String(received);
  }
  return publicText(text, MAX_DECISION_EXCERPT_CHARS);
}
