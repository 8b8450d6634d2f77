/**
 * The contract between an agent workflow and its planner. The planner runs as an activity (it calls a model or
 * follows a script); the workflow feeds it only model-safe data: the goal, the permission-filtered capabilities,
 * and observations built from tool results and the router's `feedback` (never raw errors, headers or tokens).
 * Tool output is data, never control: nothing a tool returns can change a retry flag, a budget or a permission.
 * Pure types and a shape (recovery/shape.ts): sandbox-safe.
 */
import type { ModelFeedback } from '../recovery/feedback';
import type { Capability } from '../recovery/tool-spec';
import { shaped, type Infer } from '../recovery/shape';
import { ApplicationFailureType } from '../recovery/failure-types';

/**
 * What the planner sees of the run so far: the answer to each tool call it made (a result is data; a failure is the
 * router's public feedback), the user's messages, and its own answers that could not be used. `turn` (1-based) is
 * the planner turn that made the call; calls of one turn were one decision.
 */
export type Observation =
  | { kind: 'tool_result'; callId: string; tool: string; args: unknown; value: unknown; empty: boolean; turn?: number }
  | { kind: 'tool_failure'; callId: string; tool: string; args: unknown; feedback: ModelFeedback; turn?: number }
  | { kind: 'user_message'; text: string }
  /** The planner's previous answer was not a valid decision; `message` says why (public, redacted). */
  | { kind: 'decision_rejected'; message: string; turn?: number };

/** `ApplicationFailure.type` of a planner answer that is not a valid decision (activity and workflow alike). */
export const PLANNER_INVALID_DECISION = ApplicationFailureType.PLANNER_INVALID_DECISION;

/** Observation kinds, for input checks. */
export const OBSERVATION_KINDS = ['tool_result', 'tool_failure', 'user_message', 'decision_rejected'] as const;

/**
 * What a planner sees each turn: the goal, the permitted capabilities (names, descriptions, JSON Schemas) and
 * the observations so far — tool results as data, failures only as the router's feedback.
 */
export interface PlannerInput {
  goal: string;
  /** 1-based turn number. */
  turn: number;
  capabilities: Capability[];
  /** The newest observations (`AgentOptions.observationWindow`), oldest first. */
  observations: Observation[];
  /** Older observations the window dropped (absent when none was): tell the model they existed. */
  omittedObservations?: number;
}

/**
 * What `agentWorkflow` sends the planner activity each turn: a `PlannerInput` whose capabilities are only their
 * names (sorted). The activity expands them from the worker's catalog before the planner sees them, so a run's
 * history does not carry every tool's description and JSON Schema every turn (docs/DESIGN.md, "Workflow code and
 * the worker"). The activity also takes a full `PlannerInput` (runs recorded before: `patched` in workflows/agent.ts).
 */
export interface PlannerStepInput extends Omit<PlannerInput, 'capabilities'> {
  capabilityNames: string[];
}

/** The `patched()` id of the planner input that names capabilities (`PlannerStepInput`) instead of carrying them. */
export const PLANNER_CAPABILITY_NAMES_PATCH = 'recovery-router:planner-capability-names';

/**
 * The planner's next step.
 * - `tool_calls`: run these calls (in order) through the router, then ask again. callIds are unique in a decision.
 * - `submit`: the structured final answer (terminal delivery); `result` must be present (any JSON value but
 *   `undefined`). A planner that stops without submitting ends the run as `no_submission`, never as success.
 * - `stop`: give up honestly, with a reason for the user.
 */
export const plannerDecisionSchema = shaped((s) =>
  s
    .discriminatedUnion('kind', [
      s
        .object({
          kind: s.literal('tool_calls'),
          calls: s.array(s.object({ callId: s.string().min(1), tool: s.string(), args: s.unknown() }).strict()).min(1),
        })
        .strict(),
      s.object({ kind: s.literal('submit'), result: s.unknown() }).strict(),
      s.object({ kind: s.literal('stop'), reason: s.string().min(1) }).strict(),
    ])
    .superRefine((decision, ctx) => {
      // A submit must deliver something: `{ kind: 'submit' }` is not a result (attack review T1).
      if (decision.kind === 'submit' && decision.result === undefined) {
        ctx.addIssue({ code: 'custom', path: ['result'], message: 'a submit needs a result (any JSON value)' });
      }
      // Each call's answer is matched to it by callId: two calls may not share one (attack review B4).
      if (decision.kind === 'tool_calls') {
        const seen = new Set<string>();
        decision.calls.forEach((c, i) => {
          if (seen.has(c.callId)) {
            ctx.addIssue({ path: ['calls', i, 'callId'], message: `duplicate callId "${c.callId.slice(0, 64)}"` });
          }
          seen.add(c.callId);
        });
      }
    }),
);
/**
 * A planner's answer: `tool_calls` (one or more calls with the planner's call ids), `submit` (the result) or
 * `stop` (a reason).
 */
export type PlannerDecision = Infer<ReturnType<typeof plannerDecisionSchema>>;
