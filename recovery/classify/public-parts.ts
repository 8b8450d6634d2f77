/**
 * The part of a composed `publicMessage` that carries data, redacted on its own: the tool's name (`toolPart`). The
 * server's words are never part of a message: they are the failure's `serverSaid` (classify/text.ts `quoted`). The
 * parts, the template's `literal` sentences and `composeMessage` are recovery/classify/message-parts.ts (re-exported
 * here), which says when a part is `settled`.
 *
 * Pure: no I/O, no clock. The tool-name memo is a bounded cache of a pure function (same answer with or without it).
 */
import { redact } from '../redact';
import { stripControls } from '../untrusted';
import { redactedPart, type PublicPart } from './message-parts';

export { composeMessage, EMPTY_PART, literal, PublicPart } from './message-parts';

/**
 * Every HTTP template starts `<tool>: HTTP <status>, …`; the tool's name is settled when this probe, with the name
 * in front, is left as it is (a name ending in a secret key, `…password`, would take `HTTP` as its value).
 */
const TOOL_PROBE = ': HTTP 503, the request.';
/** Longest tool name kept in the memo, in characters; a longer one is redacted on every call. */
const MAX_MEMO_NAME_CHARS = 256;
/** Most names in the memo; it is emptied when full. */
const MAX_MEMO_NAMES = 512;
const toolParts = new Map<string, PublicPart>();

/** The tool's name as the head of an HTTP message: redacted once per name (a pure memo). */
export function toolPart(tool: string): PublicPart {
  const known = toolParts.get(tool);
  if (known !== undefined) return known;
  const text = redact(stripControls(tool));
  const settled = text === tool && !/[\s"'`\\]/.test(tool) && redact(`${tool}${TOOL_PROBE}`) === `${tool}${TOOL_PROBE}`;
  const part = redactedPart(text, settled);
  if (tool.length <= MAX_MEMO_NAME_CHARS) {
    if (toolParts.size >= MAX_MEMO_NAMES) toolParts.clear();
    toolParts.set(tool, part);
  }
  return part;
}
