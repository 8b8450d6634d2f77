/**
 * The `classify.rules` entry (recovery/classify/rules.ts) an operator would add for a fingerprint, apart from the
 * rules' matching so that workflow code (the reconcile review) imports this alone. Pure: no I/O.
 */

/** The rule an operator would add to route errors with this fingerprint: for the log and the review. */
export function suggestedRule(fingerprint: string): string {
  return JSON.stringify({ match: { fingerprint }, class: '<class>', reason: '<reason>' });
}
