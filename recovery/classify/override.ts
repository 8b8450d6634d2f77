/**
 * A tool's own classifier, merged over the built-in answer.
 *
 * Precedence: every field the tool answers overrides the built-in one; fields it leaves out keep the built-in
 * value, except that a changed `class` resets `reason` to `unspecified` (a reason belongs to its class) and a
 * changed `class` or `replaySafe` re-derives `retryable` (= transient and replay-safe) unless the tool gives it.
 * The merge is then re-normalised so it always validates: `retryable` is forced false unless the class is
 * `transient` and `replaySafe` is true; `outcome_unknown` is put in phase `commit_unknown`; `publicMessage` is
 * redacted and cut again, `serverSaid` (the server's words the tool quotes) quoted again; `retryAfterMs` is rounded
 * up to whole ms. Fields with a wrong type or value are ignored. A tool classifier that throws, or answers something that is not an object, leaves the built-in answer.
 * `phase`, `status`, `issues` and the identity fields are not the tool's to change, with one consequence: an
 * `outcome_unknown` the tool names as another, replay-safe class was the built-in rules' guess ("may have been
 * sent", docs/DESIGN.md "Phases"), so it moves to phase `dispatch`.
 * Pure: no I/O (the tool classifier is the caller's code, called once).
 */
import { FAILURE_CLASSES, FAILURE_REASONS, FailureClass, FailureReason, Phase } from '../failure';
import type { ToolFailure } from '../failure';
import { buildFailure } from './build';
import type { CallContext, RawOutcome } from './context';
import { isObjectLike, readProp } from './safe';

/** The fields a tool classifier may answer. */
export type ToolClassifierAnswer = Partial<
  Pick<ToolFailure, 'class' | 'reason' | 'publicMessage' | 'retryable' | 'replaySafe' | 'retryAfterMs' | 'serverSaid'>
>;

/**
 * A tool's classifier: sees the raw outcome, the call and the built-in answer; returns the fields to override,
 * or `undefined` to keep the built-in answer.
 */
export type ToolClassifier = (
  raw: RawOutcome,
  ctx: CallContext,
  builtIn: ToolFailure,
) => ToolClassifierAnswer | undefined;

function pick<T>(answer: object, key: string, ok: (v: unknown) => v is T): T | undefined {
  const v = readProp(answer, key);
  return ok(v) ? v : undefined;
}
/** `v` is a failure class (FAILURE_CLASSES). */
export const isClass = (v: unknown): v is FailureClass =>
  typeof v === 'string' && (FAILURE_CLASSES as readonly string[]).includes(v);
/** `v` is a failure reason (FAILURE_REASONS). */
export const isReason = (v: unknown): v is FailureReason =>
  typeof v === 'string' && (FAILURE_REASONS as readonly string[]).includes(v);
const isBool = (v: unknown): v is boolean => typeof v === 'boolean';
const isText = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';
const isDelay = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/**
 * Applies `toolClassifier` over `builtIn` (see the module docs for the precedence).
 * @returns a frozen, valid `ToolFailure`; `builtIn` itself when the tool answers nothing usable or throws.
 */
export function applyToolClassifier(
  raw: RawOutcome,
  ctx: CallContext,
  builtIn: ToolFailure,
  toolClassifier: ToolClassifier,
): ToolFailure {
  let answer: unknown;
  try {
    answer = toolClassifier(raw, ctx, builtIn);
  } catch {
    return builtIn;
  }
  if (!isObjectLike(answer)) return builtIn;
  const cls = pick(answer, 'class', isClass);
  const reason = pick(answer, 'reason', isReason);
  const publicMessage = pick(answer, 'publicMessage', isText);
  const retryable = pick(answer, 'retryable', isBool);
  const replaySafe = pick(answer, 'replaySafe', isBool);
  const retryAfterMs = pick(answer, 'retryAfterMs', isDelay);
  const said = pick(answer, 'serverSaid', isText);
  if ([cls, reason, publicMessage, retryable, replaySafe, retryAfterMs, said].every((v) => v === undefined))
    return builtIn;
  const serverSaid = said ?? builtIn.serverSaid;

  const nextClass = cls ?? builtIn.class;
  const classChanged = nextClass !== builtIn.class;
  const nextReplaySafe = replaySafe ?? builtIn.replaySafe;
  const derived =
    classChanged || nextReplaySafe !== builtIn.replaySafe
      ? nextClass === FailureClass.TRANSIENT && nextReplaySafe
      : builtIn.retryable;
  const nextRetryAfterMs = retryAfterMs ?? builtIn.retryAfterMs;
  return buildFailure(ctx, {
    class: nextClass,
    reason: reason ?? (classChanged ? FailureReason.UNSPECIFIED : builtIn.reason),
    // An unknown outcome the tool's classifier names as something replay-safe was not applied, and a result the
    // built-in rules read as unusable (postcheck) that it names as a refusal was a refusal: the phase is dispatch.
    phase:
      classChanged &&
      ((builtIn.class === FailureClass.OUTCOME_UNKNOWN && nextReplaySafe) || builtIn.phase === Phase.POSTCHECK)
        ? Phase.DISPATCH
        : builtIn.phase,
    retryable: retryable ?? derived,
    replaySafe: nextReplaySafe,
    publicMessage: publicMessage ?? builtIn.publicMessage,
    ...(nextRetryAfterMs === undefined ? {} : { retryAfterMs: nextRetryAfterMs }),
    ...(builtIn.status === undefined ? {} : { status: builtIn.status }),
    ...(builtIn.issues === undefined ? {} : { issues: builtIn.issues }),
    ...(serverSaid === undefined ? {} : { serverSaid }),
  });
}
