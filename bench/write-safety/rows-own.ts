/**
 * Fault kinds of our own, which issue 27 does not name: held-out cases, written and committed before the matrix was
 * first run. Times in ms; `pay` has a 3 s StartToClose timeout and the runs' lookups a 2 s one
 * (bench/write-safety/columns.ts).
 */
import type { FaultRow } from './fault-kinds';

export const OWN_ROWS: readonly FaultRow[] = [
  {
    id: 'commit-after-lookup-timeout',
    title:
      'the first POST commits at 9 s; the first two lookup reads hang 2.5 s (past the lookup timeout), the third answers',
    source: 'own',
    post: { kind: 'hold_commit', holdMs: 9_000 },
    read: { kind: 'slow_first', hangMs: 2_500, count: 2 },
  },
  {
    id: 'replica-restored-from-backup',
    title: 'committed, answer lost; reads go to a replica restored from a backup taken before the commit, for 30 s',
    source: 'own',
    post: { kind: 'commit_then_drop' },
    read: { kind: 'restored_backup', forMs: 30_000 },
    readPath: true,
  },
  {
    id: 'worker-sigkill-during-lookup',
    title: 'committed, answer lost; the worker process is SIGKILLed while its first read is held; a new one starts',
    source: 'own',
    post: { kind: 'commit_then_drop' },
    read: { kind: 'slow_first', hangMs: 60_000, count: 1 },
    driver: { kind: 'worker_sigkill_during_lookup' },
    readPath: true,
  },
  {
    id: 'network-partition',
    title: 'a TCP proxy blackholes both directions once the POST passed (the service commits); heals after 8 s',
    source: 'own',
    post: { kind: 'none' },
    driver: { kind: 'partition', healMs: 8_000 },
  },
  {
    id: 'review-decision-storm',
    title: 'dropped before commit, reads down → review; 20 concurrent "replay" decisions (signals and updates)',
    source: 'own',
    post: { kind: 'drop_before_commit' },
    read: { kind: 'down' },
    driver: { kind: 'review_storm', decisions: 20 },
  },
  {
    id: 'headers-then-stalled-body',
    title: 'committed; status and headers arrive, the body stalls half-way forever',
    source: 'own',
    post: { kind: 'commit_then_stall_body' },
  },
  {
    id: 'lookup-200-html',
    title: 'dropped before commit; every read answers 200 text/html (a proxy login page)',
    source: 'own',
    post: { kind: 'drop_before_commit' },
    read: { kind: 'html_200' },
    readPath: true,
  },
  {
    id: 'lookup-200-empty',
    title: 'dropped before commit; every read answers 200 with an empty body',
    source: 'own',
    post: { kind: 'drop_before_commit' },
    read: { kind: 'empty_200' },
    readPath: true,
  },
  {
    id: 'gateway-504-late-commit',
    title: 'a gateway answers 504 at 1 s while the upstream commits at 5 s',
    source: 'own',
    post: { kind: 'gateway_timeout', answerMs: 1_000, commitMs: 5_000 },
  },
  {
    id: 'reset-then-async-commit',
    title: 'the connection is reset at once and an asynchronous queue commits the payment 4 s later',
    source: 'own',
    post: { kind: 'drop_then_commit', commitMs: 4_000 },
  },
  {
    id: 'lookup-result-unsendable',
    title: 'committed, answer lost; the lookup finds it and returns a 5 MB receipt',
    source: 'own',
    post: { kind: 'commit_then_drop' },
    read: { kind: 'huge_200', bytes: 5_000_000 },
    readPath: true,
  },
];
