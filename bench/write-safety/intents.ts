/**
 * A lifecycle cell's intents (bench/write-safety/lifecycle.ts): what each run said, and the rows and POSTs that are
 * its own. Pure.
 */
import type { PaymentsService } from './payments-service';
import type { Claim } from './verdict';

/** What a run (or the chain it continues into) said about its payment, or that it awaits review. */
export interface Watched {
  claim: Claim;
  said: string;
  /** The operation ids (idempotency keys) the run named: its outcome's, its open reconciliations'. */
  opIds: string[];
}

/** One intent (one payment) of a cell: what its runs left and said. */
export interface Intent extends Watched {
  label: string;
  /** Rows committed under its own keys. */
  rows: number;
  /** POSTs received with its own keys. */
  posts: number;
}

/**
 * The intents of runs that start by themselves (a cron's, a schedule's), each counted by its own keys, not by a time
 * window: a run the server starts may POST before the harness has seen it start, and a window then gives its row to
 * nobody or to the run before (a cron's second run, beside two busy loops: "LOST: 0 row(s), run said ok"). A key
 * belongs to the first intent that names it, so a new intent answered with an old intent's payment still has no row
 * of its own. Call once the runs were watched and the service drained.
 */
export function byKey(
  service: Pick<PaymentsService, 'rows' | 'posts'>,
  watched: readonly [label: string, w: Watched][],
): Intent[] {
  const owned = new Set<string>();
  return watched.map(([label, w]) => {
    const own = w.opIds.filter((k) => !owned.has(k));
    for (const k of own) owned.add(k);
    const sum = (count: (key: string) => number) => own.reduce((n, k) => n + count(k), 0);
    return { label, ...w, rows: sum((k) => service.rows(k)), posts: sum((k) => service.posts(k)) };
  });
}
