/**
 * What each ldapts case should route to. Sources: RFC 4511 §4.1.9 and Appendix A (LDAP result codes: 4
 * sizeLimitExceeded, 21 invalidAttributeSyntax, 32 noSuchObject, 49 invalidCredentials, 50 insufficientAccessRights,
 * 65 objectClassViolation, 66 notAllowedOnNonLeaf, 68 entryAlreadyExists; a result code other than success means the
 * operation was not performed), slapd's diagnostics, and docs/DESIGN.md. An LDAP result code is read in LDAP's
 * table: 50 is not an HTTP-like number, 4 is not an errno.
 */
import type { ExpectedTable4 } from './cases';

const NOT_SENT = 'DESIGN.md Phases: a refused connection left nothing; replay-safe for any tool → retry';
const CREDENTIALS = 'RFC 4511 A.2 invalidCredentials (49) on bind; DESIGN.md classes: a rejected credential → reauth';
const FORBIDDEN =
  'RFC 4511 A.2 insufficientAccessRights (50): "the client does not have sufficient access rights"; DESIGN.md Routes → stop';
const NO_OBJECT = 'RFC 4511 A.2 noSuchObject (32): the target does not exist; DESIGN.md classes: 404-like → replan';

export const LDAPTS_EXPECTED: ExpectedTable4 = {
  'ldapts.refused.read': { class: 'transient', action: 'retry', harm: 'costly', source: NOT_SENT },
  'ldapts.refused.write': { class: 'transient', action: 'retry', applied: 'no', harm: 'costly', source: NOT_SENT },
  'ldapts.invalid-credentials-49.read': {
    class: 'authentication',
    action: 'reauth',
    harm: 'costly',
    source: CREDENTIALS,
  },
  'ldapts.invalid-credentials-49.write': {
    class: 'authentication',
    action: 'reauth',
    applied: 'no',
    harm: 'costly',
    source: `${CREDENTIALS}; the add was never sent`,
  },
  'ldapts.size-limit-exceeded-4.read': {
    class: 'invalid_arguments',
    action: 'repair',
    harm: 'costly',
    source:
      'RFC 4511 A.2 sizeLimitExceeded (4): the search matched more entries than the limit; a narrower filter passes → repair',
  },
  'ldapts.no-such-object-32.read': {
    class: 'semantic_rejection',
    action: 'replan',
    harm: 'costly',
    source: NO_OBJECT,
  },
  'ldapts.no-such-object-32.write': {
    class: 'semantic_rejection',
    action: 'replan',
    applied: 'no',
    harm: 'costly',
    source: `${NO_OBJECT}; the delete was not performed`,
  },
  'ldapts.already-exists-68.write': {
    class: 'semantic_rejection',
    action: 'replan',
    applied: 'no',
    verify: true,
    harm: 'costly',
    source: 'RFC 4511 A.2 entryAlreadyExists (68); DESIGN.md "Already done is done": read the postcondition first',
  },
  'ldapts.object-class-violation-65.write': {
    class: 'invalid_arguments',
    action: 'repair',
    applied: 'no',
    harm: 'costly',
    source:
      'RFC 4511 A.2 objectClassViolation (65), slapd "requires attribute \'sn\'": the entry as sent is invalid → repair',
  },
  'ldapts.invalid-syntax-21.write': {
    class: 'invalid_arguments',
    action: 'repair',
    applied: 'no',
    harm: 'costly',
    source: 'RFC 4511 A.2 invalidAttributeSyntax (21), slapd "uidNumber: value #0 invalid per syntax" → repair',
  },
  'ldapts.not-allowed-on-non-leaf-66.write': {
    class: 'semantic_rejection',
    action: 'replan',
    applied: 'no',
    harm: 'costly',
    source:
      'RFC 4511 A.2 notAllowedOnNonLeaf (66), slapd "subordinate objects must be deleted first": the tree\'s state, not a permission → replan',
  },
  'ldapts.insufficient-access-50.write': {
    class: 'authorization',
    action: 'stop',
    applied: 'no',
    harm: 'costly',
    source: FORBIDDEN,
  },
  'ldapts.insufficient-access-50.read': { class: 'authorization', action: 'stop', harm: 'costly', source: FORBIDDEN },
  'ldapts.reset-after-request.read': {
    class: 'transient',
    action: 'retry',
    harm: 'costly',
    source: 'DESIGN.md classes: a read whose connection was reset after its request left is replay-safe → retry',
  },
  'ldapts.reset-after-request.write': {
    class: 'outcome_unknown',
    action: 'reconcile',
    applied: 'maybe',
    harm: 'unsafe',
    source: 'DESIGN.md Phases: a connection lost after a write was sent is outcome_unknown → reconcile',
  },
};
