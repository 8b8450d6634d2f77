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
import { redact } from '../recovery/redact';
import type { CredentialBroker } from './credentials';
import type { AnyTool } from './define-tool';
import { keepHeartbeating } from './heartbeat';
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

export function createLookupActivity(deps: { byName: ReadonlyMap<string, AnyTool>; credentials: CredentialBroker }) {
  return async function lookupOperation(req: LookupRequest): Promise<LookupAnswer> {
    const activity = Context.current();
    const tool = deps.byName.get(req.tool);
    if (!tool?.lookup) return { state: 'unknown', detail: `The tool "${req.tool}" cannot look up its operations.` };
    const stopHeartbeats = keepHeartbeating(activity, 1_000);
    try {
      const credential = tool.credential ? await deps.credentials.current(tool.credential) : undefined;
      // The call's arguments as the tool saw them; a request without them (an older workflow) passes undefined.
      const parsed = req.args === undefined ? undefined : tool.input.safeParse(req.args);
      const args: unknown = parsed?.success ? parsed.data : undefined;
      const answer = await tool.lookup(req.operationId, toolContextOf(activity, tool, req, credential), args);
      if (answer.state !== 'applied') {
        return answer.state === 'unknown'
          ? { state: 'unknown', detail: redact(answer.detail ?? 'The lookup could not tell.') }
          : answer;
      }
      const result = tool.output.safeParse(answer.result);
      if (!result.success)
        return { state: 'unknown', detail: 'The lookup found the operation but its record is not a valid result.' };
      return { state: 'applied', result: result.data };
    } catch (err) {
      activity.log.warn('lookup failed', { tool: req.tool, operationId: req.operationId, error: String(err) });
      return { state: 'unknown', detail: 'The lookup itself failed.' };
    } finally {
      stopHeartbeats();
    }
  };
}
