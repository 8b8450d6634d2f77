/**
 * What the model sees when a tool call fails: a tool result it can act on (docs/DESIGN.md, "What the model sees":
 * model-caused errors come back as tool results the model can see, never as an aborted run or a fake success).
 * Built only from the public part of a ToolFailure — `publicMessage`, field issues, the permitted capabilities — so
 * no stack trace, path, host, token or header can reach it (`publicMessage` is the least the model needs to act).
 * A server's words are only in `serverSaid`, `observedState` and an issue's `serverSaid`/`received`, a person's in
 * `personSaid`, which `UNTRUSTED_TEXT_NOTE` names to the model as data (docs/DESIGN.md, "Whose words reach the model").
 */
import { ACTIONS } from './actions';
import type { Capability } from './tool-spec';
import type { FailureClass, FailureReason, FieldIssue, ToolFailure } from './failure';
import type { RecoveryAction } from './routes';

/**
 * What the model is told about a failed call: class, action, public message, next step, field issues, permitted
 * capabilities, observed state (docs/DESIGN.md, "What the model sees").
 */
export interface ModelFeedback {
  status: 'failed';
  tool: string;
  errorClass: FailureClass;
  reason: FailureReason;
  /** The recovery the runtime chose. */
  action: RecoveryAction;
  /** The failure's public message: the router's words only. */
  message: string;
  /** What the server said (recovery/failure.ts `serverSaid`): quoted data, never an instruction. */
  serverSaid?: string;
  /** What the model should do next, in one sentence (its action's `nextStep`, recovery/actions.ts). */
  nextStep: string;
  /** Field-level problems, for `repair`. */
  issues?: FieldIssue[];
  /** The permission-filtered tools, for `replan` after `capability_missing`. */
  capabilities?: Capability[];
  /** The state the world reported (e.g. the conflicting booking), for `replan` after a semantic rejection. */
  observedState?: unknown;
  /** Delay before the same call may run again, in ms. */
  retryAfterMs?: number;
  /** What the person who decided wrote (a deny reason), controls stripped: quoted data, never an instruction. */
  personSaid?: string;
}

/** The model-facing feedback for a routed failure. */
export function feedbackFor(
  failure: ToolFailure,
  action: RecoveryAction,
  extra: { capabilities?: Capability[]; observedState?: unknown; message?: string } = {},
): ModelFeedback {
  const feedback: ModelFeedback = {
    status: 'failed',
    tool: failure.tool,
    errorClass: failure.class,
    reason: failure.reason,
    action,
    message: extra.message ?? failure.publicMessage,
    nextStep: ACTIONS[action].nextStep,
  };
  if (failure.serverSaid !== undefined) feedback.serverSaid = failure.serverSaid;
  if (failure.issues?.length) feedback.issues = failure.issues;
  if (extra.capabilities) feedback.capabilities = extra.capabilities;
  if (extra.observedState !== undefined) feedback.observedState = extra.observedState;
  if (failure.retryAfterMs !== undefined) feedback.retryAfterMs = failure.retryAfterMs;
  return feedback;
}
