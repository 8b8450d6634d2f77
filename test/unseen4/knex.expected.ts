/**
 * What each knex case should route to. Sources: knex docs, "Configuration Options" (`acquireConnectionTimeout`: how
 * long knex waits for a connection from the pool before it throws; no query has been sent), PostgreSQL Appendix A
 * (23502, 23503, 23505, 40P01; a failed statement is not applied, a deadlock rolls its transaction back),
 * docs/tools.md's kinds (pool acquire timeout and 40P01: transient, replay-safe for any tool; 23502: repair), and
 * docs/DESIGN.md ("A failure known to happen before the request left — … a pool timeout — is replay-safe").
 */
import type { ExpectedTable4 } from './cases';

const POOL =
  'DESIGN.md Phases: a pool timeout happens before the request left; KnexTimeoutError "Timeout acquiring a connection" → retry';

export const KNEX_EXPECTED: ExpectedTable4 = {
  'knex.pool-acquire-timeout.read': { class: 'transient', action: 'retry', harm: 'costly', source: POOL },
  'knex.pool-acquire-timeout.write': {
    class: 'transient',
    action: 'retry',
    applied: 'no',
    harm: 'costly',
    source: POOL,
  },
  'knex.foreign-key-23503.write': {
    class: 'semantic_rejection',
    action: 'replan',
    applied: 'no',
    harm: 'costly',
    source: 'PostgreSQL 23503 foreign_key_violation: the referenced customer does not exist; not applied → replan',
  },
  'knex.unique-23505.write': {
    class: 'semantic_rejection',
    action: 'replan',
    applied: 'no',
    verify: true,
    harm: 'costly',
    source:
      'PostgreSQL 23505 unique_violation (docs/tools.md: conflict); DESIGN.md "Already done is done" → verify first',
  },
  'knex.not-null-23502.write': {
    class: 'invalid_arguments',
    action: 'repair',
    applied: 'no',
    harm: 'costly',
    source: 'PostgreSQL 23502 not_null_violation, column total_cents (docs/tools.md: invalid argument) → repair',
  },
  'knex.deadlock-40P01.write': {
    class: 'transient',
    action: 'retry',
    applied: 'no',
    harm: 'costly',
    source:
      'PostgreSQL 40P01 deadlock_detected: the transaction was rolled back; docs/tools.md: 40P01 → transient → retry',
  },
};
