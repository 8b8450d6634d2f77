/**
 * Postconditions in the worker (docs/DESIGN.md, "Already done is done"):
 * - `semanticMeta`: what the activity edge attaches to a refusal — the observed state (the service's
 *   body, redacted and bounded) and, for a write, whether the answer may mean the state already holds or a version
 *   conflict (recovery/postcondition.ts), when the tool has a postcondition to read;
 * - the `verifyPostcondition` activity: runs the tool's `verify(args, ctx)`, a read. Its answer is public: a verdict
 *   and the state it found, redacted and bounded. A throw, or a verdict it does not know, is `unknown`.
 * Node-side only.
 */
import { readBodyFacts } from '../recovery/classify/body';
import { wrappedHttp } from '../recovery/classify';
import { FailureClass, FailureReason, type FailureMeta, type ToolFailure } from '../recovery/failure';
import { publicObservedState } from '../recovery/observed-state';
import { postconditionHint, type PostconditionVerdict } from '../recovery/postcondition';
import type { CredentialBroker } from './credentials';
import type { AnyTool } from './define-tool';
import type { LookupRequest } from './lookup-operation';
import { runToolRead } from './tool-read';

/** What a verify reads with: a lookup's request, the arguments always sent. */
export type VerifyRequest = Required<LookupRequest>;

/** What workflow code receives. `state` is model-safe. */
export interface VerifyAnswer {
  verdict: PostconditionVerdict;
  state?: unknown;
}

const VERDICTS: readonly PostconditionVerdict[] = ['holds', 'does_not_hold', 'unknown'];
const fields = new WeakMap<AnyTool, readonly string[]>();

/** The top-level fields of a tool's input schema (its JSON Schema's `properties`). */
export function inputFieldsOf(tool: AnyTool): readonly string[] {
  let known = fields.get(tool);
  if (!known) {
    const props = tool.spec.inputSchema.properties;
    known = Object.freeze(typeof props === 'object' && props !== null ? Object.keys(props) : []);
    fields.set(tool, known);
  }
  return known;
}

/** The statuses a refusal without an HTTP status stands for (a client library's unique or precondition error). */
const STATUS_OF_REASON: Readonly<Partial<Record<ToolFailure['reason'], number>>> = Object.freeze({
  [FailureReason.CONFLICT]: 409,
  [FailureReason.PRECONDITION_FAILED]: 412,
});

/**
 * The edge's facts for a refusal the model acts on: the observed state (a semantic rejection's, and an invalid
 * argument's: the server's numeric hints such as `{ max: 1500 }` help a repair as much as a replan) and, for a
 * semantic rejection of a write, the postcondition hint.
 */
export function semanticMeta(err: unknown, failure: ToolFailure, tool: AnyTool): FailureMeta {
  const semantic = failure.class === FailureClass.SEMANTIC_REJECTION;
  if (!semantic && failure.class !== FailureClass.INVALID_ARGUMENTS) return {};
  // The body may arrive wrapped (an adapter rethrowing with `cause`): read it where the classifier read it.
  const answer = wrappedHttp(err);
  const observedState = answer ? publicObservedState(answer.body) : undefined;
  const meta: FailureMeta = observedState === undefined ? {} : { observedState };
  if (!semantic || tool.effect !== 'write' || !tool.verify) return meta;
  // The body's message and its structured words (`errors[].code: already_exists`), or the error's own message.
  const body = answer ? readBodyFacts(answer.body) : undefined;
  const message = body
    ? [body.message, ...body.words].filter((t) => t !== undefined).join('. ')
    : err instanceof Error
      ? err.message
      : undefined;
  const hint = postconditionHint(failure.status ?? STATUS_OF_REASON[failure.reason], message, tool.alreadyPhrases);
  return hint ? { ...meta, postcondition: hint } : meta;
}

export function createVerifyActivity(deps: { byName: ReadonlyMap<string, AnyTool>; credentials: CredentialBroker }) {
  const unknown: VerifyAnswer = { verdict: 'unknown' };
  return async function verifyPostcondition(req: VerifyRequest): Promise<VerifyAnswer> {
    const tool = deps.byName.get(req.tool);
    if (!tool?.verify) return unknown;
    return runToolRead(
      deps.credentials,
      tool,
      req,
      async (args, ctx) => (args === undefined ? unknown : verifyAnswerOf(await tool.verify!(args, ctx))),
      () => unknown,
    );
  };
}

/** A verify's answer as workflow code may receive it: a verdict it names, with the state redacted; else `unknown`. */
function verifyAnswerOf(answer: unknown): VerifyAnswer {
  const verdict = typeof answer === 'string' ? answer : (answer as { verdict?: unknown } | null)?.verdict;
  if (!VERDICTS.includes(verdict as PostconditionVerdict)) return { verdict: 'unknown' };
  const state =
    typeof answer === 'object' && answer !== null
      ? publicObservedState((answer as { state?: unknown }).state)
      : undefined;
  return state === undefined
    ? { verdict: verdict as PostconditionVerdict }
    : { verdict: verdict as PostconditionVerdict, state };
}
