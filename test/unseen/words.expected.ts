/**
 * What each words case should route to. Sources: issue 28's two field cases, the services' documented wordings
 * (RFC 6750 §3.1 `invalid_token`'s description; RFC 9457 problem details; MediaWiki OAuth's
 * `mwoauth-invalid-authorization`; Google APIs' "insufficient authentication scopes"; Mailchimp's "Member Exists";
 * GitHub's `errors[].code: already_exists`) and docs/DESIGN.md ("Already done is done": a false positive costs one
 * verify read, so a refusal whose words say the state already holds reads the postcondition).
 */
import type { ExpectedTable } from './cases';

const ALREADY = 'DESIGN.md "Already done is done": the words say the state already holds → read verify first';

export const WORDS_EXPECTED: ExpectedTable = {
  'words.song-already-in-playlist.write': {
    class: 'semantic_rejection',
    action: 'replan',
    applied: 'no',
    verify: true,
    source: `issue 28 field case: 422 "The song is already in the playlist."; ${ALREADY}`,
  },
  'words.member-exists-problem.write': {
    class: 'semantic_rejection',
    action: 'replan',
    applied: 'no',
    verify: true,
    source: `Mailchimp 400 problem+json "Member Exists" / "is already a list member" (RFC 9457); ${ALREADY}`,
  },
  'words.label-already-exists-code.write': {
    class: 'semantic_rejection',
    action: 'replan',
    applied: 'no',
    verify: true,
    source: `GitHub REST "Validation Failed" errors[].code already_exists (a code, not a field to repair); ${ALREADY}`,
  },
  'words.already-following-mcp.write': {
    class: 'semantic_rejection',
    action: 'replan',
    verify: true,
    source: `MCP isError text "already following"; ${ALREADY}`,
  },
  'words.mwoauth-invalid-authorization.read': {
    class: 'authentication',
    action: 'reauth',
    source: 'issue 28 field case: MediaWiki OAuth mwoauth-invalid-authorization "Invalid access token" → reauth',
  },
  'words.rfc6750-invalid-token-words.read': {
    class: 'authentication',
    action: 'reauth',
    source: 'RFC 6750 §3.1: the invalid_token description, word for word; DESIGN.md Routes → reauth',
  },
  'words.session-expired.read': {
    class: 'authentication',
    action: 'reauth',
    source: 'code session_expired + "sign in again": an expired credential (DESIGN.md classes) → reauth',
  },
  'words.model-overloaded.read': {
    class: 'transient',
    action: 'retry',
    source: 'model providers\' "overloaded … try again later" (issue 28 vocabulary: overload*); a read → retry',
  },
  'words.resource-temporarily-unavailable.read': {
    class: 'transient',
    action: 'retry',
    source: 'POSIX EAGAIN strerror "Resource temporarily unavailable" (issue 28: unavailable); a read → retry',
  },
  'words.insufficient-scopes.read': {
    class: 'capability_missing',
    action: 'replan',
    source:
      'Google APIs 403 ACCESS_TOKEN_SCOPE_INSUFFICIENT wording; DESIGN.md classes: scopes do not grant → capability_missing',
  },
};
