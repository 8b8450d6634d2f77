/**
 * A `publicMessage` composed of parts already in their public form, so `buildFailure` need not redact the whole
 * message a second time (docs/DESIGN.md, "What the model sees" and "Performance").
 *
 * A message is the repository's own template text (the tagged template's strings, and `literal` sentences),
 * numbers, the tool's name (`toolPart`) and the server's words (`dataPart`), each data part redacted on its own.
 * Redacting parts apart is not redacting the whole: a rule can match across a part's edge (a secret key at the
 * end of the tool's name takes the template's next word as its value; a quote in the server's words pairs with
 * the template's quote). So a data part is `settled` only when no rule can reach across its edges, and a message
 * is settled only when every part is; `buildFailure` gives an unsettled message the whole final pass, as any plain
 * string. test/unit/public-parts.property.test.ts checks that every settled message of the HTTP rules is a fixed
 * point of that pass (`finishPublicMessage(m) === m`), for hostile tool names and bodies.
 *
 * Pure: no I/O, no clock. The tool-name memo is a bounded cache of a pure function (same answer with or without it).
 */
import { redact } from '../redact';
import { MAX_PUBLIC_MESSAGE_CHARS } from '../failure';
import { settlePublicText, stripControls } from './text';

const TOKEN = Symbol('PublicPart');

/** Text in its public form; made only by the functions of this module. */
export class PublicPart {
  /** @throws TypeError when called from outside this module. */
  constructor(
    token: symbol,
    /** the text, redacted, one line, no control characters */
    readonly text: string,
    /** no redaction rule can match this text, nor across its edges inside a message (see the module docs) */
    readonly settled: boolean,
  ) {
    if (token !== TOKEN) throw new TypeError('PublicPart: use literal, toolPart, dataPart or composeMessage');
  }

  toString(): string {
    return this.text;
  }
}

/** The empty part (a template's missing clause). */
export const EMPTY_PART = new PublicPart(TOKEN, '', true);

/**
 * A sentence of a message's template, written in this repository: never data. test/unit/public-parts.test.ts
 * checks that every call in `recovery/` passes a string literal.
 */
export function literal(text: string): PublicPart {
  return new PublicPart(TOKEN, text, true);
}

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
  const part = new PublicPart(TOKEN, text, settled);
  if (tool.length <= MAX_MEMO_NAME_CHARS) {
    if (toolParts.size >= MAX_MEMO_NAMES) toolParts.clear();
    toolParts.set(tool, part);
  }
  return part;
}

/**
 * Quotes and escapes are what the quote-aware rules read (`"token": "x"`, `password "x"`), and a trailing `:` or
 * `=` makes the template's next character a value: such data may pair with the template's own text.
 */
const EDGE_RISK = /["'`\\]|[:=]$/;

/**
 * The server's (or any outside) words as a part: controls stripped, redacted, folded to one line, trimmed, cut to
 * `maxChars` (see `publicText`). Settled when that form is its own `publicText` (`settlePublicText`'s `stable`)
 * and has no `EDGE_RISK`.
 * @throws RangeError when `maxChars` < 1.
 */
export function dataPart(raw: string, maxChars: number): PublicPart {
  const { text, stable } = settlePublicText(stripControls(raw), maxChars);
  return new PublicPart(TOKEN, text, stable && !EDGE_RISK.test(text));
}

/**
 * A tagged template of parts: `` composeMessage`${toolPart(t)}: HTTP ${status}, ${what}.${said}` ``. A number
 * is written with `String(n)`; anything else that is not a `PublicPart` (a caller outside TypeScript) becomes an
 * unsettled `dataPart`, so the message gets the whole final pass.
 */
export function composeMessage(strings: TemplateStringsArray, ...parts: readonly (PublicPart | number)[]): PublicPart {
  let text = strings[0] ?? '';
  let settled = true;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (typeof part === 'number') text += String(part);
    else if (part instanceof PublicPart) {
      text += part.text;
      settled &&= part.settled;
    } else {
      text += dataPart(String(part), MAX_PUBLIC_MESSAGE_CHARS).text;
      settled = false;
    }
    text += strings[i + 1] ?? '';
  }
  return new PublicPart(TOKEN, text, settled);
}
