/**
 * What each graphql-request case should route to. Sources: the GraphQL over HTTP spec (a `errors` entry is a
 * request error or a field error; `application/graphql-response+json` uses 4xx only for a request that was not
 * executed), Apollo Server's error codes (`UNAUTHENTICATED`: "the server failed to authenticate", `FORBIDDEN`: "the
 * server was unauthorized to access a required data source", `BAD_USER_INPUT`: "the GraphQL operation includes an
 * invalid value for a field argument"), GitHub's GraphQL `NOT_FOUND` and `RATE_LIMITED`, RFC 6585 §4 (429), and
 * docs/DESIGN.md. A GraphQL error code outranks the HTTP status it came with (200).
 */
import type { ExpectedTable4 } from './cases';

const NOT_SENT = 'DESIGN.md Phases: a refused connection left nothing; replay-safe for any tool → retry';
const AUTHN = 'Apollo error codes: extensions.code UNAUTHENTICATED on a 200; DESIGN.md classes → reauth';
const FORBIDDEN = 'Apollo error codes: extensions.code FORBIDDEN on a 200; DESIGN.md Routes: a 403 → stop';
const VARIABLES =
  'GraphQL spec §6.1.2 CoerceVariableValues: a variable of the wrong type is a request error, nothing executed → repair';
const LIMIT = 'RFC 6585 §4 429 (extensions.code RATE_LIMITED, Retry-After: 2): not processed → transient → retry';

const AUTHN_403 =
  'RFC 9110 §15.5.4: a server may answer 403 for a failed authentication (Azure Storage 403 AuthenticationFailed, 3scale APIcast 403 "Authentication failed"); the body names it (extensions.code AUTHENTICATION_FAILED): DESIGN.md "Facts, not libraries", a 403 that failed to authenticate is a credential → reauth, never transient';
const MODULE_LINK =
  'Node.js ESM docs: named imports are resolved when the module graph links, before any code runs ("does not provide an export named"); DESIGN.md vocabulary programming_error (import error) → unrecoverable/tool_bug → escalate: the tool\'s code is broken, no argument can fix it (not repair)';

export const GRAPHQL_REQUEST_EXPECTED: ExpectedTable4 = {
  'graphql-request.refused.read': { class: 'transient', action: 'retry', harm: 'costly', source: NOT_SENT },
  'graphql-request.refused.write': {
    class: 'transient',
    action: 'retry',
    applied: 'no',
    harm: 'costly',
    source: NOT_SENT,
  },
  'graphql-request.unauthenticated.read': { class: 'authentication', action: 'reauth', harm: 'costly', source: AUTHN },
  'graphql-request.unauthenticated.write': {
    class: 'authentication',
    action: 'reauth',
    applied: 'no',
    harm: 'costly',
    source: AUTHN,
  },
  'graphql-request.forbidden.read': { class: 'authorization', action: 'stop', harm: 'costly', source: FORBIDDEN },
  'graphql-request.forbidden.write': {
    class: 'authorization',
    action: 'stop',
    applied: 'no',
    harm: 'costly',
    source: FORBIDDEN,
  },
  'graphql-request.bad-user-input.write': {
    class: 'invalid_arguments',
    action: 'repair',
    applied: 'no',
    harm: 'costly',
    source: 'Apollo error codes: BAD_USER_INPUT (argumentName quantity): an argument to change → repair',
  },
  'graphql-request.variable-type-invalid.read': {
    class: 'invalid_arguments',
    action: 'repair',
    harm: 'costly',
    source: VARIABLES,
  },
  'graphql-request.variable-type-invalid.write': {
    class: 'invalid_arguments',
    action: 'repair',
    applied: 'no',
    harm: 'costly',
    source: VARIABLES,
  },
  'graphql-request.not-found.read': {
    class: 'semantic_rejection',
    action: 'replan',
    harm: 'costly',
    source: 'GitHub GraphQL errors[].type NOT_FOUND ("Could not resolve to …"); DESIGN.md classes: 404-like → replan',
  },
  'graphql-request.rate-limited-429.read': { class: 'transient', action: 'retry', harm: 'costly', source: LIMIT },
  'graphql-request.rate-limited-429.write': {
    class: 'transient',
    action: 'retry',
    applied: 'no',
    harm: 'costly',
    source: `${LIMIT}; a 429 on a write is a refusal, not an unknown outcome`,
  },
  'graphql-request.masked-internal-error.write': {
    class: 'outcome_unknown',
    action: 'reconcile',
    applied: 'maybe',
    harm: 'unsafe',
    source:
      'GraphQL Yoga error masking: "Unexpected error." says nothing of what ran; DESIGN.md Phases: unknown after dispatch on a write → reconcile',
  },
  'graphql-request.html-200.read': {
    class: 'invalid_result',
    action: 'reject',
    harm: 'unsafe',
    source:
      'DESIGN.md Routes, Reject: a 200 whose body is an HTML page, not a GraphQL result ("Invalid execution result") → reject',
  },
  'graphql-request.html-200.write': {
    class: 'outcome_unknown',
    action: 'reconcile',
    applied: 'maybe',
    harm: 'unsafe',
    source:
      'DESIGN.md Phases: a write answered by a page that is no GraphQL result may or may not have run → outcome_unknown (BRIEF: a login page is not "applied")',
  },
  'graphql-request.authentication-failed-403.read': {
    class: 'authentication',
    action: 'reauth',
    harm: 'costly',
    source: AUTHN_403,
  },
  'graphql-request.authentication-failed-403.write': {
    class: 'authentication',
    action: 'reauth',
    applied: 'no',
    harm: 'costly',
    source: `${AUTHN_403}; a refused request applied nothing`,
  },
  'graphql-request.resource-limit-exceeded-400.write': {
    class: 'unrecoverable',
    action: 'escalate',
    applied: 'no',
    harm: 'mild',
    source:
      'AWS API errors ResourceLimitExceeded (400, "You have exceeded a … resource limit"): an account quota, raised by a person, not an argument to repair; docs/tools.md kinds: quota → unrecoverable → escalate',
  },
  'graphql-request.module-link-syntax-error.read': {
    class: 'unrecoverable',
    action: 'escalate',
    harm: 'mild',
    source: MODULE_LINK,
  },
  'graphql-request.module-link-syntax-error.write': {
    class: 'unrecoverable',
    action: 'escalate',
    applied: 'maybe',
    harm: 'unsafe',
    source: `${MODULE_LINK}; DESIGN.md concept rows: a programming error is "maybe sent" (the tool may have acted before it failed), so the write is not replay-safe`,
  },
};
