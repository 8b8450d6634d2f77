/**
 * The policy of the scripted planner (scripted.ts): its schema, its errors, and how it is parsed and read from a
 * file. The format (goals, steps, fixes, alternatives, reactions, submit) is specified in docs/agents.md, "The
 * scripted planner"; its JSON Schema ships as `recovery-router/schemas/scripted-policy.schema.json`.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { formatPath } from '../../recovery/errors';
import { FAILURE_CLASSES } from '../../recovery/failure';
import { RECOVERY_ACTIONS } from '../../recovery/routes';
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

const ReactionSchema = z
  .enum(Object.values(Reaction) as [Reaction, ...Reaction[]])
  .describe('fix_fields | next_alternative | retry_same | skip | stop');
const OnSchema = z
  .partialRecord(z.enum([...FAILURE_CLASSES, ...RECOVERY_ACTIONS]), ReactionSchema)
  .describe(
    'Failure feedback → reaction; a key is a failure class or a recovery action. A class key wins over an action key, a step map over the goal map; anything unnamed is stop.',
  );
const ArgsPatchSchema = z.record(z.string(), z.json());
const callShape = {
  tool: z.string().min(1).describe('The tool to call, by name.'),
  args: z.json().default({}).describe("The call's arguments (any JSON)."),
  fixes: z
    .array(ArgsPatchSchema)
    .default([])
    .describe('For fix_fields: the n-th repair shallow-merges fixes[0..n-1] into the top-level args, in order.'),
};
const CallSchema = z.object(callShape).strict().describe('Another call for next_alternative.');
const StepSchema = z
  .object({
    ...callShape,
    id: z
      .string()
      .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'step ids are 1-64 characters of [A-Za-z0-9_.-]')
      .optional()
      .describe(
        'Names the step in call ids (<id>#<k>) and in submit.resultFrom; unique in the goal. Default step-<n>.',
      ),
    alternatives: z.array(CallSchema).default([]).describe('Other calls for next_alternative, in order.'),
    on: OnSchema.default({}),
  })
  .strict()
  .describe('One call per turn; the step is done when its call returns a result.');
/** One goal's script (the value under `goals[<goal>]`). */
export const ScriptedGoalSchema = z
  .object({
    on: OnSchema.default({}),
    steps: z.array(StepSchema).describe('Run in order.'),
    submit: z
      .union([z.object({ result: z.json() }).strict(), z.object({ resultFrom: z.string().min(1) }).strict()])
      .describe('After the last step: { result } submits that value, { resultFrom } the result of that step.'),
  })
  .strict()
  .describe("One goal's script.")
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
export const ScriptedPolicySchema = z
  .object({
    $schema: z.string().optional().describe('Where editors find this schema; ignored by the planner.'),
    goals: z.record(z.string().min(1), ScriptedGoalSchema).describe('The exact goal text → its script.'),
  })
  .strict()
  .meta({ title: 'recovery-router scripted planner policy' });

/**
 * The policy's JSON Schema (draft 2020-12), generated from `ScriptedPolicySchema` by zod's `z.toJSONSchema` in its
 * input form (fields with a default are optional). The package ships it as
 * `recovery-router/schemas/scripted-policy.schema.json` (`npm run schemas` writes it; a test keeps it current). Rules the
 * schema cannot say (unique step ids, a `resultFrom` naming a step) are checked by `parseScriptedPolicy` only.
 */
export function scriptedPolicyJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(ScriptedPolicySchema, { io: 'input' });
}
/**
 * A parsed scripted policy, defaults filled in (docs/agents.md, "The scripted planner"; JSON Schema:
 * `recovery-router/schemas/scripted-policy.schema.json`).
 */
export type ScriptedPolicy = z.output<typeof ScriptedPolicySchema>;
export type Goal = ScriptedPolicy['goals'][string];
export type Step = Goal['steps'][number];
export type Call = z.output<typeof CallSchema>;

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

/** `goals["Refund O-1"].steps[0].tool`: a zod issue path as it reads in JSON (`formatPath` without its `$.`). */
export function fieldPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(root)';
  return formatPath(path.map((p) => (typeof p === 'symbol' ? String(p) : p))).replace(/^\$\.?/, '');
}

/** The id of a step without one: `step-<n>`, n 1-based. */
export function defaultStepId(index: number): string {
  return `step-${index + 1}`;
}
