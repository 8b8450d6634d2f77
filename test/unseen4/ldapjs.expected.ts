/**
 * What each ldapjs case should route to: the same server, result codes and sources as ldapts (RFC 4511 Appendix
 * A; docs/DESIGN.md), through another client whose error classes name the result in words
 * (`InsufficientAccessRightsError`: insufficient access rights is a refusal by policy, not an unknown).
 */
import type { ExpectedTable4 } from './cases';

const NOT_SENT = 'DESIGN.md Phases: a refused connection left nothing; replay-safe for any tool → retry';
const FORBIDDEN =
  'RFC 4511 A.2 insufficientAccessRights (50), ldapjs InsufficientAccessRightsError; DESIGN.md Routes: forbidden → stop';

export const LDAPJS_EXPECTED: ExpectedTable4 = {
  'ldapjs.refused.read': { class: 'transient', action: 'retry', harm: 'costly', source: NOT_SENT },
  'ldapjs.refused.write': { class: 'transient', action: 'retry', applied: 'no', harm: 'costly', source: NOT_SENT },
  'ldapjs.invalid-credentials-49.read': {
    class: 'authentication',
    action: 'reauth',
    harm: 'costly',
    source: 'RFC 4511 A.2 invalidCredentials (49), ldapjs InvalidCredentialsError; DESIGN.md classes → reauth',
  },
  'ldapjs.size-limit-exceeded-4.read': {
    class: 'invalid_arguments',
    action: 'repair',
    harm: 'costly',
    source:
      'RFC 4511 A.2 sizeLimitExceeded (4): more entries matched than the limit; a narrower filter passes → repair',
  },
  'ldapjs.no-such-object-32.read': {
    class: 'semantic_rejection',
    action: 'replan',
    harm: 'costly',
    source: 'RFC 4511 A.2 noSuchObject (32), ldapjs NoSuchObjectError; DESIGN.md classes: 404-like → replan',
  },
  'ldapjs.already-exists-68.write': {
    class: 'semantic_rejection',
    action: 'replan',
    applied: 'no',
    verify: true,
    harm: 'costly',
    source: 'RFC 4511 A.2 entryAlreadyExists (68); DESIGN.md "Already done is done": read the postcondition first',
  },
  'ldapjs.object-class-violation-65.write': {
    class: 'invalid_arguments',
    action: 'repair',
    applied: 'no',
    harm: 'costly',
    source:
      'RFC 4511 A.2 objectClassViolation (65), "requires attribute \'sn\'": the entry as sent is invalid → repair',
  },
  'ldapjs.not-allowed-on-non-leaf-66.write': {
    class: 'semantic_rejection',
    action: 'replan',
    applied: 'no',
    harm: 'costly',
    source:
      'RFC 4511 A.2 notAllowedOnNonLeaf (66): the entry has subordinates (state, not a permission: "not allowed" here is no 403) → replan',
  },
  'ldapjs.insufficient-access-rights-50.write': {
    class: 'authorization',
    action: 'stop',
    applied: 'no',
    harm: 'costly',
    source: FORBIDDEN,
  },
  'ldapjs.insufficient-access-rights-50.read': {
    class: 'authorization',
    action: 'stop',
    harm: 'costly',
    source: FORBIDDEN,
  },
};
