/**
 * The `lookupOperation` activity: asks a tool for the terminal state of a write by its operation_id (the reconcile
 * route; docs/DESIGN.md, "Reconcile"). One lookup per activity: polling, with its
 * backoff and budget, belongs to the reconcile workflow, where each poll is a new time window.
 *
 * Returns `applied` (with the result, validated against the tool's output schema), `not_applied`, or `unknown`.
 * A lookup that throws (the lookup endpoint is down, say) answers `unknown` with a public reason: the workflow
 * polls again or escalates; it never treats a failed lookup as "not applied".
 */
import { Context } from '@temporalio/activity';
import { MAX_RESULT_BYTES, measureJson, omittedValue } from '../recovery/bounds';
import { readProp, readString } from '../recovery/classify/safe';
import { wrappedHttp } from '../recovery/classify/wrapped-http';
import { redact } from '../recovery/redact';
import { CallInterrupted, guardAttempt } from './attempt-guard';
import { describe } from './failure-edge';
import type { CredentialBroker } from './credentials';
import type { AnyTool } from './define-tool';
import { keepHeartbeating } from './heartbeat';
import { parseCallArgs } from './invoke/preflight';
import { toolContextOf } from './tool-context-of';

export interface LookupRequest {
  tool: string;
  operationId: string;
  callId: string;
  /** The call's arguments (validated by the tool's input schema before `lookup` sees them). */
  args?: unknown;
}

/** What workflow code receives. `detail` is public (redacted). */
export type LookupAnswer =
  | { state: 'applied'; result: unknown }
  | { state: 'not_applied' }
  | { state: 'unknown'; detail: string };

/**
 * The tool's answer as workflow code may receive it: a state it names, an `applied` result that passes the output
 * schema and fits a payload (recovery/bounds.ts: a larger one is kept applied, its result a marker), anything else
 * `unknown`. Never throws.
 */
export function lookupAnswerOf(tool: AnyTool, answer: unknown): LookupAnswer {
  const state = readProp(answer, 'state');
  if (state === 'not_applied') return { state: 'not_applied' };
  if (state === 'unknown') {
    const detail = readString(answer, 'detail');
    return { state: 'unknown', detail: redact(detail ?? 'The lookup could not tell.') };
  }
  if (state !== 'applied') return { state: 'unknown', detail: 'The lookup answered with a state it does not know.' };
  const result = tool.output.safeParse(readProp(answer, 'result'));
  if (!result.success)
    return { state: 'unknown', detail: 'The lookup found the operation but its record is not a valid result.' };
  const measured = measureJson(result.data);
  if (measured.kind === 'json' && measured.bytes <= MAX_RESULT_BYTES) {
    const value =
      measured.hadBigInt && measured.json !== undefined ? (JSON.parse(measured.json) as unknown) : result.data;
    return { state: 'applied', result: value };
  }
  const why =
    measured.kind === 'json' ? `it is ${measured.bytes} bytes, over the ${MAX_RESULT_BYTES}-byte limit` : measured.why;
  return { state: 'applied', result: omittedValue(why, measured.kind === 'json' ? measured.bytes : undefined, true) };
}

/**
 * What a person reviewing the write reads of a lookup that threw: the HTTP status it got, when it got one (never a
 * header, body or host), and for a 404 how a lookup reads "not found" as an answer (docs/tools.md, "Lookups").
 */
export function failedLookupDetail(err: unknown): string {
  // wrappedHttp reads ctx.http's HttpOutcomeError (its `outcome`) and the answers other clients carry.
  const status = wrappedHttp(err)?.status;
  if (status === 404) {
    return 'The lookup itself failed: its request was answered HTTP 404. A lookup that reads "not found" as not applied requests it with accept: [404] and returns { state: "not_applied" }.';
  }
  return status === undefined
    ? 'The lookup itself failed.'
    : `The lookup itself failed: its request was answered HTTP ${status}.`;
}

export function createLookupActivity(deps: { byName: ReadonlyMap<string, AnyTool>; credentials: CredentialBroker }) {
  return async function lookupOperation(req: LookupRequest): Promise<LookupAnswer> {
    const activity = Context.current();
    const tool = deps.byName.get(req.tool);
    if (!tool?.lookup) return { state: 'unknown', detail: `The tool "${req.tool}" cannot look up its operations.` };
    const stopHeartbeats = keepHeartbeating(activity, 1_000);
    const guard = guardAttempt(activity);
    try {
      const credential = tool.credential ? await deps.credentials.current(tool.credential) : undefined;
      // The call's arguments as the tool saw them; a request without them (an older workflow) passes undefined.
      const parsed = req.args === undefined ? undefined : parseCallArgs(tool, req.args, req.operationId);
      const args: unknown = parsed?.success ? parsed.data : undefined;
      const ctx = toolContextOf(activity, tool, req, credential, undefined, guard.signal);
      const answer: unknown = await guard.race(Promise.resolve().then(() => tool.lookup!(req.operationId, ctx, args)));
      return lookupAnswerOf(tool, answer);
    } catch (err) {
      const interrupted = err instanceof CallInterrupted ? err : guard.interruption();
      if (interrupted?.why === 'cancel_requested') throw interrupted.cancellation ?? interrupted;
      activity.log.warn('lookup failed', { tool: req.tool, operationId: req.operationId, error: describe(err) });
      return { state: 'unknown', detail: interrupted ? 'The lookup was interrupted.' : failedLookupDetail(err) };
    } finally {
      guard.dispose();
      stopHeartbeats();
    }
  };
}
