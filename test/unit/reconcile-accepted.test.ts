/**
 * The reconcile decision for a write the receiver accepted (workflows/reconcile-not-found.ts; issue 35): a lookup's
 * `not_applied` is never final for it — an asynchronous job that reads "failed" may be retried by its service and
 * succeed — whatever the tool's `commit` declares. Pure: the `accepted` answer needs no workflow context.
 */
import type { ToolSpec } from '../../recovery/tool-spec';
import { notFoundFinality } from '../../workflows/reconcile-not-found';

const spec = (o: Partial<ToolSpec>): ToolSpec => ({
  name: 'pay',
  description: 'Captures a payment.',
  inputSchema: {},
  effect: 'write',
  idempotency: { carrier: 'header', name: 'Idempotency-Key', deduplicates: false },
  hasLookup: true,
  approvalCanLift: false,
  startToCloseTimeoutMs: 3_000,
  ...o,
});

test.each([
  ['commit declared 0/0 (one "not found" would be final)', { settleMs: 0, lookupLagMs: 0 }, 1],
  ['commit declared, its window long past, two in a row', { settleMs: 10, lookupLagMs: 10 }, 2],
  ['commit undeclared', {}, 3],
])('accepted, %s → never: nothing is replayed', (_what, commit, streak) => {
  expect(notFoundFinality(spec(commit), 0, streak, { reason: 'accepted' })).toEqual({ kind: 'never' });
});
