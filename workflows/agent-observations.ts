/**
 * What the planner sees of one tool call (workflows/agent.ts). Results and arguments are bounded so the
 * observations stay within Temporal's payload limit (attack review G1–G3). Sandbox-safe.
 */
import type { Observation } from './planner-contract';
import type { ToolOutcome } from './tool-router';

/** Largest tool result an observation carries as is, in characters of JSON; a larger one becomes a preview. */
export const MAX_OBSERVED_VALUE_CHARS = 64 * 1024;
/** Largest call arguments an observation echoes, in characters of JSON; larger ones become a preview. */
export const MAX_OBSERVED_ARGS_CHARS = 8 * 1024;
/** Characters of JSON a preview keeps. */
export const PREVIEW_CHARS = 2_000;

/**
 * What the planner sees of one call: the value as data, or the router's public feedback. A result over
 * `MAX_OBSERVED_VALUE_CHARS`, or arguments over `MAX_OBSERVED_ARGS_CHARS`, are replaced by a preview
 * `{ truncated: true, chars, preview }` so the observations stay within Temporal's payload limit; the tool name is
 * cut to 128 characters and the callId to 128.
 */
export function observationOf(
  call: { callId: string; tool: string; args: unknown },
  outcome: ToolOutcome,
  turn: number,
): Observation {
  const base = {
    callId: call.callId.slice(0, 128),
    tool: typeof call.tool === 'string' ? call.tool.slice(0, 128) : '',
    args: boundedJson(call.args, MAX_OBSERVED_ARGS_CHARS),
    turn,
  };
  return outcome.ok
    ? {
        kind: 'tool_result',
        ...base,
        value: boundedJson(outcome.value, MAX_OBSERVED_VALUE_CHARS),
        empty: outcome.empty,
      }
    : { kind: 'tool_failure', ...base, feedback: outcome.feedback };
}

/** `value` itself when its JSON fits `maxChars`, else a preview of it. Values that are not JSON become a note. */
function boundedJson(value: unknown, maxChars: number): unknown {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return { truncated: true, note: 'not a JSON value' };
  }
  if (text === undefined || text.length <= maxChars) return value;
  return { truncated: true, chars: text.length, preview: text.slice(0, PREVIEW_CHARS) };
}
