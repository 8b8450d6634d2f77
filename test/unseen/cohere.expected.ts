/**
 * What each cohere-ai case should route to. Sources: Cohere docs "Errors" (400 invalid request, 401/498 invalid
 * token, 402 payment required / billing, 404 not found, 422 too many tokens, 429 rate limit for trial keys, 500, 503,
 * 504), RFC 9110 and docs/DESIGN.md. A chat has no side effect: every case is a read.
 */
import type { ExpectedTable } from './cases';

const TOKEN = 'Cohere docs: invalid api token; DESIGN.md Routes: a rejected credential → reauth';

export const COHERE_EXPECTED: ExpectedTable = {
  'cohere.refused.read': {
    class: 'transient',
    action: 'retry',
    source: 'DESIGN.md Phases: refused connection → retry',
  },
  'cohere.answer-timeout.read': {
    class: 'transient',
    action: 'retry',
    source: 'DESIGN.md classes: a read that timed out is transient and replay-safe → retry',
  },
  'cohere.trial-rate-limit.read': {
    class: 'transient',
    action: 'retry',
    source: 'Cohere docs: 429 rate limit; RFC 6585 §4; DESIGN.md classes: 429 is transient → retry',
  },
  'cohere.invalid-api-token-401.read': { class: 'authentication', action: 'reauth', source: `401; ${TOKEN}` },
  'cohere.invalid-token-498.read': {
    class: 'authentication',
    action: 'reauth',
    source: `Cohere's non-standard 498 Invalid Token; ${TOKEN}`,
  },
  'cohere.payment-required.read': {
    class: 'unrecoverable',
    action: 'escalate',
    source:
      'RFC 9110 §15.5.3 402; issue 28: billing is persistent and not replannable (replans would burn on an empty account); a person must pay → escalate',
  },
  'cohere.model-not-found.read': {
    class: 'semantic_rejection',
    action: 'replan',
    source: 'Cohere docs: 404 not found; DESIGN.md classes: a 404 → replan',
  },
  'cohere.empty-message.read': {
    class: 'invalid_arguments',
    action: 'repair',
    source: 'Cohere docs: 400 invalid request; DESIGN.md classes: 400 → invalid_arguments → repair',
  },
  'cohere.too-many-tokens.read': {
    class: 'invalid_arguments',
    action: 'repair',
    source: 'Cohere docs: 422 too many tokens; only a shorter prompt passes (issue 28: too_long) → repair',
  },
  'cohere.forbidden-model.read': {
    class: 'authorization',
    action: 'stop',
    source: 'RFC 9110 §15.5.4 403; DESIGN.md Routes: a 403 nobody here can lift → stop',
  },
  'cohere.service-unavailable.read': {
    class: 'transient',
    action: 'retry',
    source: 'RFC 9110 §15.6.4 503; DESIGN.md classes: 503 is transient → retry',
  },
  'cohere.gateway-timeout.read': {
    class: 'transient',
    action: 'retry',
    source: 'RFC 9110 §15.6.5 504; DESIGN.md classes: 504 is transient → retry',
  },
  'cohere.internal-error.read': {
    class: 'transient',
    action: 'retry',
    source:
      'RFC 9110 §15.6.1 500 on a read; DESIGN.md silent: a Temporal user expects a read to be retried (Temporal retries by default)',
  },
};
