/**
 * A scripted planner: a JSON policy says, for each goal, which calls to make in order, how to react to each
 * failure the router reports, and what to submit at the end (issue 5: "a JSON policy saying, for a goal, which
 * calls to make and how to react to each failure class and feedback (field fix, other slot, other tool, stop)").
 * Tests and the demo use it in place of a model.
 *
 * ## The policy format
 *
 * ```json
 * {
 *   "goals": {
 *     "Book a 30-minute call with Ada tomorrow": {
 *       "on": { "repair": "fix_fields", "replan": "next_alternative", "escalate": "stop" },
 *       "steps": [
 *         { "id": "find", "tool": "find_contact", "args": { "name": "Ada" } },
 *         {
 *           "id": "book",
 *           "tool": "book_slot",
 *           "args": { "start": "10:00", "minutes": "30" },
 *           "fixes": [{ "minutes": 30 }],
 *           "alternatives": [{ "tool": "book_slot", "args": { "start": "11:00", "minutes": 30 } }],
 *           "on": { "authorization": "stop" }
 *         }
 *       ],
 *       "submit": { "resultFrom": "book" }
 *     }
 *   }
 * }
 * ```
 *
 * - `goals`: the exact goal text → its script. A goal the policy does not know fails the planner step loudly.
 * - `steps`: run in order, one call per turn; a step is done when its call returns a result.
 *   - `id` (optional, `[A-Za-z0-9_.-]{1,64}`, unique in the goal; @default `step-<n>`, 1-based) names the step in
 *     call ids (`<id>#<k>`, k = the step's k-th call) and in `resultFrom`.
 *   - `tool`, `args` (any JSON; @default `{}`): the call.
 *   - `fixes` (@default `[]`): for `fix_fields`, the n-th repair shallow-merges fixes[0..n-1] into the call's
 *     top-level args, in order (so fixes accumulate).
 *   - `alternatives` (@default `[]`): other calls `{ tool, args, fixes? }` for `next_alternative`, in order; each
 *     starts with its own args and fixes.
 *   - `on`: reactions for this step; they override the goal's.
 * - `on`: failure feedback → reaction. Keys are a failure class (`semantic_rejection`, `invalid_arguments`, ...) or
 *   a recovery action (`repair`, `replan`, `reject`, `escalate`, `stop`, ...); a class key wins over an action key,
 *   a step's map over the goal's, and anything unnamed is `stop`. Reactions:
 *   - `fix_fields`: the same call with the next fix merged in (no fix left → stop);
 *   - `next_alternative`: the next alternative call (none left → stop);
 *   - `retry_same`: the identical call again (the router's Change-before-Retry gate decides; useful in tests);
 *   - `skip`: leave the step without a result and go on;
 *   - `stop`: give up with a reason that quotes the failure's public message.
 * - `submit`: after the last step, `{ "result": <JSON> }` submits that value; `{ "resultFrom": "<step id>" }`
 *   submits the value of that step's result (a skipped step has none: the planner stops instead).
 *
 * The planner keeps no state: each turn it replays the script against the observations (the answer to the call it
 * made last is the next tool observation; user messages and rejected decisions are ignored), so it runs on any worker, and any activity
 * retry gives the same answer. An observation that is not the answer to the expected call fails loudly.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { FAILURE_CLASSES } from '../../recovery/failure';
import type { ModelFeedback } from '../../recovery/feedback';
import { RECOVERY_ACTIONS } from '../../recovery/routes';
import type { PlannerDecision, PlannerInput } from '../../workflows/planner-contract';
import type { Planner } from './planner';
import { RecoveryError, type CodeOf } from '../../recovery/recovery-error';

/** What the scripted planner does after a failure. */
export const Reaction = {
  FIX_FIELDS: 'fix_fields',
  NEXT_ALTERNATIVE: 'next_alternative',
  RETRY_SAME: 'retry_same',
  SKIP: 'skip',
  STOP: 'stop',
} as const;
export type Reaction = (typeof Reaction)[keyof typeof Reaction];

const ReactionSchema = z.enum(Object.values(Reaction) as [Reaction, ...Reaction[]]);
const OnSchema = z.partialRecord(z.enum([...FAILURE_CLASSES, ...RECOVERY_ACTIONS]), ReactionSchema);
const ArgsPatchSchema = z.record(z.string(), z.json());
const callShape = {
  tool: z.string().min(1),
  args: z.json().default({}),
  fixes: z.array(ArgsPatchSchema).default([]),
};
const CallSchema = z.object(callShape).strict();
const StepSchema = z
  .object({
    ...callShape,
    id: z
      .string()
      .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'step ids are 1-64 characters of [A-Za-z0-9_.-]')
      .optional(),
    alternatives: z.array(CallSchema).default([]),
    on: OnSchema.default({}),
  })
  .strict();
/** One goal's script (the value under `goals[<goal>]`). */
export const ScriptedGoalSchema = z
  .object({
    on: OnSchema.default({}),
    steps: z.array(StepSchema),
    submit: z.union([z.object({ result: z.json() }).strict(), z.object({ resultFrom: z.string().min(1) }).strict()]),
  })
  .strict()
  .superRefine((goal, ctx) => {
    const ids = goal.steps.map((s, i) => s.id ?? defaultStepId(i));
    ids.forEach((id, i) => {
      if (ids.indexOf(id) !== i)
        ctx.addIssue({ code: 'custom', path: ['steps', i, 'id'], message: `duplicate step id "${id}"` });
    });
    if ('resultFrom' in goal.submit && !ids.includes(goal.submit.resultFrom)) {
      ctx.addIssue({
        code: 'custom',
        path: ['submit', 'resultFrom'],
        message: `no step has the id "${goal.submit.resultFrom}" (steps: ${ids.join(', ') || 'none'})`,
      });
    }
  });

/** The policy schema (zod 4). `ScriptedPolicy` is its parsed form, defaults filled in. */
export const ScriptedPolicySchema = z.object({ goals: z.record(z.string().min(1), ScriptedGoalSchema) }).strict();
export type ScriptedPolicy = z.output<typeof ScriptedPolicySchema>;
type Goal = ScriptedPolicy['goals'][string];
type Step = Goal['steps'][number];
type Call = z.output<typeof CallSchema>;

/** Why a policy or a scripted run cannot go on. */
export const ScriptedPolicyErrorCode = {
  /** The policy file cannot be read. */
  UNREADABLE: 'policy_unreadable',
  /** The policy file is not JSON. */
  NOT_JSON: 'policy_not_json',
  /** The policy fails its schema; the message names the field. */
  INVALID: 'policy_invalid',
  /** The planner was asked about a goal the policy does not script. */
  UNKNOWN_GOAL: 'unknown_goal',
  /** The observations do not answer the calls the script made. */
  OUT_OF_SCRIPT: 'out_of_script',
} as const;
export type ScriptedPolicyErrorCode = CodeOf<typeof ScriptedPolicyErrorCode>;

/** A policy that cannot be used, or a scripted run that cannot go on; `code` says which. */
export class ScriptedPolicyError extends RecoveryError<ScriptedPolicyErrorCode> {
  override readonly name = 'ScriptedPolicyError';
  static override readonly codes: readonly string[] = Object.values(ScriptedPolicyErrorCode);
}

/**
 * Validates a policy value.
 * @param source names the policy in messages (a file path). @default "policy"
 * @throws ScriptedPolicyError `policy_invalid`, e.g. `policy.json: goals["Refund O-1"].steps[0].tool: Invalid
 *   input: expected string, received undefined`.
 */
export function parseScriptedPolicy(value: unknown, source = 'policy'): ScriptedPolicy {
  const parsed = ScriptedPolicySchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new ScriptedPolicyError(
    ScriptedPolicyErrorCode.INVALID,
    `${source}: ${fieldPath(issue?.path ?? [])}: ${issue?.message ?? 'invalid value'}`,
  );
}

/**
 * Reads and validates a policy file (UTF-8 JSON).
 * @throws ScriptedPolicyError `policy_unreadable` / `policy_not_json` / `policy_invalid`; each message starts with
 *   the path.
 */
export async function loadScriptedPolicy(path: string): Promise<ScriptedPolicy> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    throw new ScriptedPolicyError(
      ScriptedPolicyErrorCode.UNREADABLE,
      `${path}: cannot read the policy file${typeof code === 'string' ? ` (${code})` : ''}`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ScriptedPolicyError(ScriptedPolicyErrorCode.NOT_JSON, `${path}: not JSON (${(err as Error).message})`);
  }
  return parseScriptedPolicy(value, path);
}

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

function defaultStepId(index: number): string {
  return `step-${index + 1}`;
}

/** `goals["Refund O-1"].steps[0].tool`: a zod issue path as it reads in JSON. */
export function fieldPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(root)';
  return path
    .map((p, i) =>
      typeof p === 'number'
        ? `[${p}]`
        : typeof p === 'string' && /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(p)
          ? `${i === 0 ? '' : '.'}${p}`
          : `[${JSON.stringify(String(p))}]`,
    )
    .join('');
}
