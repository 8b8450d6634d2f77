/**
 * What each @mikro-orm/core case should route to. Sources: MikroORM docs, "Transactions and Concurrency"
 * (optimistic locking: the flush fails with `OptimisticLockError` when the row's version changed — nothing of this
 * unit of work was written), "Entity Manager" (`findOneOrFail` throws `NotFoundError` when nothing matches),
 * PostgreSQL Appendix A (23503, 23505), docs/tools.md's kinds and docs/DESIGN.md. An error's name is read as
 * words: an optimistic lock is a version conflict (RFC 9110 §15.5.13, 412), an empty result a not-found.
 */
import type { ExpectedTable4 } from './cases';

export const MIKRO_ORM_EXPECTED: ExpectedTable4 = {
  'mikro-orm.find-one-or-fail-not-found.read': {
    class: 'semantic_rejection',
    action: 'replan',
    harm: 'costly',
    source:
      'MikroORM NotFoundError "Order not found (4242)": an empty result where one was required, 404-like → replan',
  },
  'mikro-orm.optimistic-lock.write': {
    class: 'semantic_rejection',
    action: 'replan',
    applied: 'no',
    harm: 'costly',
    source:
      'MikroORM OptimisticLockError: the version changed under the unit of work, nothing written; a version conflict (412-like) → replan',
  },
  'mikro-orm.foreign-key-violation.write': {
    class: 'semantic_rejection',
    action: 'replan',
    applied: 'no',
    harm: 'costly',
    source:
      'MikroORM ForeignKeyConstraintViolationException (23503): the customer does not exist; not applied → replan',
  },
  'mikro-orm.unique-violation.write': {
    class: 'semantic_rejection',
    action: 'replan',
    applied: 'no',
    verify: true,
    harm: 'costly',
    source: 'MikroORM UniqueConstraintViolationException (23505); DESIGN.md "Already done is done" → verify first',
  },
  'mikro-orm.not-null-violation.write': {
    class: 'invalid_arguments',
    action: 'repair',
    applied: 'no',
    harm: 'costly',
    source:
      'MikroORM ValidationError "Value for Order.state is required" (checked before the insert): an argument to change → repair',
  },
};
