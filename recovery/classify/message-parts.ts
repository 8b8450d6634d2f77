/**
 * A `publicMessage` composed of parts already in their public form, so `buildFailure` need not redact the whole
 * message a second time (docs/DESIGN.md, "What the model sees" and "Performance").
 *
 * A message is the repository's own template text (the tagged template's strings, and `literal` sentences),
 * numbers and the tool's name (`toolPart`, in recovery/classify/public-parts.ts, which redacts; this module does not,
 * so the workflow side's phase decision, recovery/classify/sent.ts, uses it without the redaction rules). A server's
 * words are never part of a message (docs/DESIGN.md, "Whose words reach the model"): they are `serverSaid`.
 * Redacting a part apart is not redacting the whole: a secret key at the end of the tool's name takes the template's
 * next word as its value. So the tool's part is `settled` only when no rule can reach across its edges, and a message
 * is settled only when every part is; `buildFailure` gives an unsettled message the whole final pass, as any plain
 * string. test/unit/public-parts.property.test.ts checks that every settled message of the HTTP rules is a fixed
 * point of that pass (`finishPublicMessage(m) === m`), for hostile tool names and bodies.
 *
 * Pure: no I/O, no clock.
 */

const TOKEN = Symbol('PublicPart');

/** Text in its public form; made only by `literal`, `composeMessage` and recovery/classify/public-parts.ts. */
export class PublicPart {
  /** @throws TypeError when called from outside these modules. */
  constructor(
    token: symbol,
    /** the text, redacted, one line, no control characters */
    readonly text: string,
    /** no redaction rule can match this text, nor across its edges inside a message (see the module docs) */
    readonly settled: boolean,
  ) {
    if (token !== TOKEN) throw new TypeError('PublicPart: use literal, toolPart or composeMessage');
  }

  toString(): string {
    return this.text;
  }
}

/**
 * A part of `text` already redacted, one line, without controls: for recovery/classify/public-parts.ts, which
 * redacts what it passes here. Not for other callers.
 */
export function redactedPart(text: string, settled: boolean): PublicPart {
  return new PublicPart(TOKEN, text, settled);
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
 * A tagged template of parts: `` composeMessage`${toolPart(t)}: HTTP ${status}, ${what}.` ``. A number
 * is written with `String(n)`.
 * @throws TypeError when a part is neither a `PublicPart` nor a number (a caller outside TypeScript): data goes in
 * as `serverSaid`, never in a message.
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
    } else
      throw new TypeError(
        `composeMessage: part ${i} is a ${typeof part}, not a PublicPart; a server's words go in serverSaid`,
      );
    text += strings[i + 1] ?? '';
  }
  return new PublicPart(TOKEN, text, settled);
}
