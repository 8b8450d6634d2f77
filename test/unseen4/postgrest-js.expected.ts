/**
 * What each @supabase/postgrest-js case should route to. Sources: PostgREST docs, "Errors" (the SQLSTATE → HTTP
 * status table; PGRST116, PGRST303), PostgreSQL Appendix A (23503 foreign_key_violation, 23505 unique_violation,
 * 40P01 deadlock_detected: the transaction was rolled back, 42501 insufficient_privilege), docs/tools.md's kinds
 * (40P01 → transient, replay-safe for any tool), RFC 6585 §4 (429), and docs/DESIGN.md. A 500 that carries a
 * deadlock's SQLSTATE is a refusal, not an unknown outcome.
 */
import type { ExpectedTable4 } from './cases';

const NOT_SENT = 'DESIGN.md Phases: a refused connection left nothing; replay-safe for any tool → retry';
const DEADLOCK =
  'PostgreSQL 40P01 deadlock_detected (PostgREST: 500): the transaction was rolled back; docs/tools.md: 40P01 → transient, replay-safe → retry';
const PRIVILEGE = 'PostgREST: 42501 insufficient_privilege → 403; DESIGN.md Routes → stop';

export const POSTGREST_JS_EXPECTED: ExpectedTable4 = {
  'postgrest-js.refused.read': { class: 'transient', action: 'retry', harm: 'costly', source: NOT_SENT },
  'postgrest-js.refused.write': {
    class: 'transient',
    action: 'retry',
    applied: 'no',
    harm: 'costly',
    source: NOT_SENT,
  },
  'postgrest-js.foreign-key-23503-409.write': {
    class: 'semantic_rejection',
    action: 'replan',
    applied: 'no',
    harm: 'costly',
    source:
      'PostgreSQL 23503 foreign_key_violation (PostgREST: 409): the referenced customer does not exist; refused, nothing applied → replan',
  },
  'postgrest-js.unique-23505-409.write': {
    class: 'semantic_rejection',
    action: 'replan',
    applied: 'no',
    verify: true,
    harm: 'costly',
    source: 'PostgreSQL 23505 "Key (id)=(42) already exists." (409); DESIGN.md "Already done is done" → verify first',
  },
  'postgrest-js.deadlock-40P01-500.read': { class: 'transient', action: 'retry', harm: 'costly', source: DEADLOCK },
  'postgrest-js.deadlock-40P01-500.write': {
    class: 'transient',
    action: 'retry',
    applied: 'no',
    harm: 'costly',
    source: DEADLOCK,
  },
  'postgrest-js.insufficient-privilege-42501-403.read': {
    class: 'authorization',
    action: 'stop',
    harm: 'costly',
    source: PRIVILEGE,
  },
  'postgrest-js.insufficient-privilege-42501-403.write': {
    class: 'authorization',
    action: 'stop',
    applied: 'no',
    harm: 'costly',
    source: PRIVILEGE,
  },
  'postgrest-js.jwt-expired-401.read': {
    class: 'authentication',
    action: 'reauth',
    harm: 'costly',
    source: 'PostgREST PGRST303 "JWT expired" (401); DESIGN.md classes: an expired credential → reauth',
  },
  'postgrest-js.no-rows-PGRST116-406.read': {
    class: 'semantic_rejection',
    action: 'replan',
    harm: 'costly',
    source: 'PostgREST PGRST116 (406) "The result contains 0 rows": the asked-for row does not exist → replan',
  },
  'postgrest-js.gateway-429.write': {
    class: 'transient',
    action: 'retry',
    applied: 'no',
    harm: 'costly',
    source: 'RFC 6585 §4 429 Too Many Requests on a write: not processed → transient, replay-safe → retry',
  },
  'postgrest-js.html-200.read': {
    class: 'invalid_result',
    action: 'reject',
    harm: 'unsafe',
    source:
      "DESIGN.md Routes, Reject: a read's 200 with an HTML page where JSON was expected → invalid_result → reject",
  },
};
