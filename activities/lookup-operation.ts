/**
 * The `lookupOperation` activity: asks a tool for the terminal state of a write by its operation_id (the reconcile
 * route; docs/DESIGN.md, "Reconcile"). One lookup per activity: polling, with its
 * backoff and budget, belongs to the reconcile workflow, where each poll is a new time window.
 *
 * Returns `applied` (with the result, validated against the tool's output schema), `not_applied`, or `unknown`.
 * A lookup that throws (the lookup endpoint is down, say) answers `unknown` with a public reason: the workflow
 * polls again or escalates; it never treats a failed lookup as "not applied".
 */
import { readProp, readString } from '../recovery/classify/safe';
import { wrappedHttp } from '../recovery/classify/wrapped-http';
import { redact } from '../recovery/redact';
import type { CredentialBroker } from './credentials';
import type { AnyTool } from './define-tool';
import { carried } from './invoke/carry';
import { runToolRead } from './tool-read';

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
  // Kept applied, a larger result as the marker of one that cannot travel (recovery/bounds.ts).
  return { state: 'applied', result: carried({ effect: 'write' }, result.data) };
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
    const tool = deps.byName.get(req.tool);
    if (!tool?.lookup) return { state: 'unknown', detail: `The tool "${req.tool}" cannot look up its operations.` };
    return runToolRead(
      deps.credentials,
      tool,
      req,
      async (args, ctx) => lookupAnswerOf(tool, await tool.lookup!(req.operationId, ctx, args)),
      (err, interrupted): LookupAnswer => ({
        state: 'unknown',
        detail: interrupted ? 'The lookup was interrupted.' : failedLookupDetail(err),
      }),
    );
  };
}
