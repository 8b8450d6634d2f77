/**
 * What each @hubspot/api-client case should route to. Sources: HubSpot API docs ("Error handling": categories
 * EXPIRED_AUTHENTICATION, MISSING_SCOPES, OBJECT_NOT_FOUND, CONFLICT, VALIDATION_ERROR; "API usage guidelines and
 * limits": 429 RATE_LIMIT, back off and retry), RFC 9110 and docs/DESIGN.md.
 */
import type { ExpectedTable } from './cases';

const RATE = 'HubSpot limits: 429 RATE_LIMIT (secondly policy), nothing was created; back off → retry';

export const HUBSPOT_EXPECTED: ExpectedTable = {
  'hubspot.refused.read': {
    class: 'transient',
    action: 'retry',
    source: 'DESIGN.md Phases: refused connection → retry',
  },
  'hubspot.refused.write': {
    class: 'transient',
    action: 'retry',
    applied: 'no',
    source: 'DESIGN.md Phases: a refused connection left nothing; replay-safe for any tool → retry',
  },
  'hubspot.rate-limit.read': { class: 'transient', action: 'retry', source: RATE },
  'hubspot.rate-limit.write': { class: 'transient', action: 'retry', applied: 'no', source: RATE },
  'hubspot.expired-token.read': {
    class: 'authentication',
    action: 'reauth',
    source: 'HubSpot: 401 EXPIRED_AUTHENTICATION; DESIGN.md Routes: an expired credential is refreshed → reauth',
  },
  'hubspot.missing-scopes.write': {
    class: 'capability_missing',
    action: 'replan',
    applied: 'no',
    source:
      "HubSpot: 403 MISSING_SCOPES; DESIGN.md classes: capability_missing is a tool this caller's scopes do not grant",
  },
  'hubspot.object-not-found.read': {
    class: 'semantic_rejection',
    action: 'replan',
    source: 'HubSpot: 404 OBJECT_NOT_FOUND; DESIGN.md classes: a 404 → replan',
  },
  'hubspot.contact-exists.write': {
    class: 'semantic_rejection',
    action: 'replan',
    applied: 'no',
    verify: true,
    source: 'HubSpot: 409 CONFLICT "Contact already exists"; DESIGN.md "Already done is done" → read verify first',
  },
  'hubspot.invalid-email.write': {
    class: 'invalid_arguments',
    action: 'repair',
    applied: 'no',
    source: 'HubSpot: 400 VALIDATION_ERROR INVALID_EMAIL on property email; DESIGN.md: a 400 naming a field → repair',
  },
  'hubspot.unknown-property.write': {
    class: 'invalid_arguments',
    action: 'repair',
    applied: 'no',
    source: 'HubSpot: 400 VALIDATION_ERROR PROPERTY_DOESNT_EXIST; the argument must change → repair',
  },
  'hubspot.gateway-timeout.read': {
    class: 'transient',
    action: 'retry',
    source: 'RFC 9110 §15.6.5: 504 on a read; DESIGN.md classes: 504 is transient → retry',
  },
  'hubspot.internal-error.write': {
    class: 'outcome_unknown',
    action: 'reconcile',
    applied: 'maybe',
    source:
      'RFC 9110 §15.6.1: a 500 does not say whether the create ran; DESIGN.md Phases: "may have been sent" wins → reconcile',
  },
};
