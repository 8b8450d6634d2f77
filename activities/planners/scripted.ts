/**
 * A scripted planner: a JSON policy says, for each goal, which calls to make in order, how to react to each
 * failure the router reports, and what to submit at the end (issue 5: "a JSON policy saying, for a goal, which
 * calls to make and how to react to each failure class and feedback (field fix, other slot, other tool, stop)").
 * Tests and the demo use it in place of a model.
 *
 * The policy format is documented in scripted-policy.ts.
 *
 * The planner keeps no state: each turn it replays the script against the observations (the answer to the call it
 * made last is the next tool observation; user messages and rejected decisions are ignored), so it runs on any
 * worker, and any activity retry gives the same answer. An observation that is not the answer to the expected call fails loudly.
 */
import type { ModelFeedback } from '../../recovery/feedback';
import type { PlannerDecision, PlannerInput } from '../../workflows/planner-contract';
import type { Planner } from './planner';
import {
  parseScriptedPolicy,
  Reaction,
  ScriptedPolicyError,
  ScriptedPolicyErrorCode,
  defaultStepId,
  type Call,
  type Goal,
  type ScriptedPolicy,
  type Step,
} from './scripted-policy';

export {
  fieldPath,
  loadScriptedPolicy,
  parseScriptedPolicy,
  Reaction,
  ScriptedGoalSchema,
  ScriptedPolicyError,
  ScriptedPolicyErrorCode,
  ScriptedPolicySchema,
  type ScriptedPolicy,
} from './scripted-policy';

/**
 * The scripted planner for `policy` (a parsed policy, or a value `parseScriptedPolicy` accepts).
 * `plan` throws ScriptedPolicyError `unknown_goal` or `out_of_script`: a script that does not fit its run is a bug
 * of the test or demo, and fails loudly instead of improvising.
 * @throws ScriptedPolicyError `policy_invalid` when `policy` fails the schema.
 */
export function createScriptedPlanner(policy: unknown): Planner {
  const checked = parseScriptedPolicy(policy);
  return {
    // async: a script that does not fit the run rejects the promise, it does not throw synchronously.
    plan: async (input) => decide(checked, input),
  };
}

/** Where the replay of a goal's script stands. */
interface Cursor {
  step: number;
  /** 0 = the step's own call, i = alternatives[i - 1]. */
  variant: number;
  /** Fixes merged into the current call. */
  fixes: number;
  /** Calls issued for the current step so far. */
  calls: number;
  /** Values of steps that returned, by step id. */
  results: Map<string, unknown>;
  stopped?: string;
}

function decide(policy: ScriptedPolicy, input: PlannerInput): PlannerDecision {
  if (!Object.hasOwn(policy.goals, input.goal)) {
    const known = Object.keys(policy.goals)
      .map((g) => JSON.stringify(g))
      .join(', ');
    throw new ScriptedPolicyError(
      ScriptedPolicyErrorCode.UNKNOWN_GOAL,
      `the policy has no script for the goal ${JSON.stringify(input.goal)} (goals: ${known || 'none'})`,
    );
  }
  const goal = policy.goals[input.goal] as Goal;
  if (input.omittedObservations) {
    throw new ScriptedPolicyError(
      ScriptedPolicyErrorCode.OUT_OF_SCRIPT,
      `the script replays every observation, and ${input.omittedObservations} were dropped from the window: raise the agent's observationWindow`,
    );
  }
  const cur: Cursor = { step: 0, variant: 0, fixes: 0, calls: 0, results: new Map() };
  for (const obs of input.observations) {
    if (obs.kind === 'user_message' || obs.kind === 'decision_rejected') continue;
    const expected = cur.stopped === undefined && cur.step < goal.steps.length ? callIdOf(goal, cur) : undefined;
    if (obs.callId !== expected) {
      throw new ScriptedPolicyError(
        ScriptedPolicyErrorCode.OUT_OF_SCRIPT,
        `observation of call "${obs.callId}" (${obs.tool}) does not answer the scripted call ${expected ? `"${expected}"` : '(none: the script had ended)'}`,
      );
    }
    const step = goal.steps[cur.step] as Step;
    if (obs.kind === 'tool_result') {
      cur.results.set(stepId(goal, cur.step), obs.value);
      advance(cur);
    } else {
      react(goal, step, cur, obs.feedback);
    }
  }
  if (cur.stopped !== undefined) return { kind: 'stop', reason: cur.stopped };
  if (cur.step < goal.steps.length) {
    const call = currentCall(goal.steps[cur.step] as Step, cur);
    return {
      kind: 'tool_calls',
      calls: [{ callId: callIdOf(goal, cur), tool: call.tool, args: argsOf(call, cur.fixes) }],
    };
  }
  if ('result' in goal.submit) return { kind: 'submit', result: goal.submit.result };
  const from = goal.submit.resultFrom;
  if (!cur.results.has(from)) return { kind: 'stop', reason: `Step "${from}" has no result to submit.` };
  return { kind: 'submit', result: cur.results.get(from) };
}

function react(goal: Goal, step: Step, cur: Cursor, feedback: ModelFeedback): void {
  const on = { ...goal.on, ...step.on };
  const reaction: Reaction = on[feedback.errorClass] ?? on[feedback.action] ?? Reaction.STOP;
  const id = stepId(goal, cur.step);
  const what = `Step "${id}": ${feedback.tool} failed (${feedback.errorClass} → ${feedback.action}): ${feedback.message}`;
  cur.calls += 1;
  switch (reaction) {
    case Reaction.FIX_FIELDS:
      if (cur.fixes < currentCall(step, cur).fixes.length) cur.fixes += 1;
      else cur.stopped = `${what} No fix is left for this step.`;
      return;
    case Reaction.NEXT_ALTERNATIVE:
      if (cur.variant < step.alternatives.length) {
        cur.variant += 1;
        cur.fixes = 0;
      } else cur.stopped = `${what} No alternative is left for this step.`;
      return;
    case Reaction.RETRY_SAME:
      return;
    case Reaction.SKIP:
      advance(cur);
      return;
    case Reaction.STOP:
      cur.stopped = what;
  }
}

function advance(cur: Cursor): void {
  cur.step += 1;
  cur.variant = 0;
  cur.fixes = 0;
  cur.calls = 0;
}

function currentCall(step: Step, cur: Cursor): Call {
  return cur.variant === 0 ? step : (step.alternatives[cur.variant - 1] as Call);
}

/** The call's args with its first `n` fixes merged in (top-level keys). Non-object args are left as they are. */
function argsOf(call: Call, n: number): unknown {
  if (n === 0 || typeof call.args !== 'object' || call.args === null || Array.isArray(call.args)) return call.args;
  return Object.assign({}, call.args, ...call.fixes.slice(0, n));
}

function callIdOf(goal: Goal, cur: Cursor): string {
  return `${stepId(goal, cur.step)}#${cur.calls + 1}`;
}

function stepId(goal: Goal, index: number): string {
  return goal.steps[index]?.id ?? defaultStepId(index);
}
