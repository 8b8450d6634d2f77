/**
 * The shape of a redaction rule and the placeholders rules put in place of what they remove (recovery/redact.ts).
 * Pure: no imports.
 */

/** Placeholders. Short and bracketed; no rule takes one apart, so a redacted text stays redacted. */
export const Placeholder = {
  REDACTED: '[redacted]',
  STACK: '[stack]',
  URL: '[url]',
  HOST: '[host]',
  IP: '[ip]',
  PATH: '[path]',
  /** an e-mail address, local part and domain */
  EMAIL: '[email]',
  /** an account or organisation identifier */
  ACCOUNT: '[account]',
} as const;
export type Placeholder = (typeof Placeholder)[keyof typeof Placeholder];

/** One redaction rule: what it removes (`name`), a global pattern, and the replacement. */
export interface RedactionRule {
  readonly name: string;
  readonly pattern: RegExp;
  readonly replace: string | ((match: string, ...groups: string[]) => string);
  /**
   * A cheap necessary condition: false only when `pattern` cannot match `text`, because every match contains a
   * literal or a character `text` lacks; `redact` then skips the rule (same result, less time). Where `pattern`
   * has the `i` flag the precheck does too, and neither has `u`: their ASCII letters then match the same
   * characters (ECMA-262 Canonicalize). Its regular expressions are not global, so they keep no `lastIndex`.
   * Absent: the rule always runs.
   */
  readonly mayMatch?: (text: string) => boolean;
}
