/**
 * The run's lifecycle around a write (issue 35): the kinds the issue names, and kinds of our own, written and
 * committed before the fixes. Each runs through bench/write-safety/lifecycle.ts and counts per intent. Times in ms;
 * `pay` has a 3 s StartToClose timeout and the runs' lookups a 2 s one (bench/write-safety/columns.ts).
 */
import type { FaultRow } from './fault-kinds';

/** Nothing committed and every read down: the write goes to review in every column with a lookup or no dedupe. */
const IN_REVIEW = { post: { kind: 'drop_before_commit' }, read: { kind: 'down' } } as const;
/** Committed, never answered: the attempt times out at 3 s. */
const HANGS = { post: { kind: 'commit_then_hang' } } as const;

export const LIFECYCLE_ROWS: readonly FaultRow[] = [
  {
    id: 'reused-id-second-start',
    title: 'the workflow id is started again once its first run completed, with the same plan (as cron does)',
    source: 'issue-35',
    post: { kind: 'none' },
    lifecycle: { kind: 'reused_id', via: 'start' },
  },
  {
    id: 'cron-second-run',
    title: 'a cron workflow (@every 4s) pays in each of two runs',
    source: 'issue-35',
    post: { kind: 'none' },
    lifecycle: { kind: 'cron', runs: 2 },
  },
  {
    id: 'reset-during-review',
    title: 'reset to the first workflow task while the write awaits review; then a reviewer replays',
    source: 'issue-35',
    ...IN_REVIEW,
    lifecycle: { kind: 'reset', at: 'review', type: 'FirstWorkflowTask' },
  },
  {
    id: 'continue-as-new-during-review',
    title:
      'the run continues as new (carrying its router) while the write awaits review, calls again; a reviewer replays',
    source: 'issue-35',
    ...IN_REVIEW,
    lifecycle: { kind: 'continue_as_new_during_review' },
  },
  {
    id: 'activity-reset-mid-write',
    title: 'temporal activity reset on the write while its POST hangs after committing',
    source: 'issue-35',
    ...HANGS,
    lifecycle: { kind: 'activity', op: 'reset' },
  },
  {
    id: 'activity-pause-unpause',
    title: 'temporal activity pause on the write while its POST hangs after committing; unpause 4 s later',
    source: 'issue-35',
    ...HANGS,
    lifecycle: { kind: 'activity', op: 'pause_unpause' },
  },
  {
    id: 'activity-update-options',
    title: 'temporal activity update-options --retry-maximum-attempts 3 on the write while its POST hangs',
    source: 'issue-35',
    ...HANGS,
    lifecycle: { kind: 'activity', op: 'update_attempts' },
  },
  {
    id: 'signal-with-start-reused-id',
    title: 'signal-with-start of the workflow id once its first run completed, with the same plan',
    source: 'own',
    post: { kind: 'none' },
    lifecycle: { kind: 'reused_id', via: 'signal_with_start' },
  },
  {
    id: 'workflow-retry-after-write',
    title: 'the run pays, then fails; its retry policy (2 attempts) runs it again',
    source: 'own',
    post: { kind: 'none' },
    lifecycle: { kind: 'workflow_retry' },
  },
  {
    id: 'reset-after-completed',
    title: 'reset to the first workflow task after the run paid and completed',
    source: 'own',
    post: { kind: 'none' },
    lifecycle: { kind: 'reset', at: 'completed', type: 'FirstWorkflowTask' },
  },
  {
    id: 'reset-last-task-during-review',
    title: 'reset to the last workflow task while the write awaits review; then a reviewer replays',
    source: 'own',
    ...IN_REVIEW,
    lifecycle: { kind: 'reset', at: 'review', type: 'LastWorkflowTask' },
  },
  {
    id: 'terminate-during-review',
    title: 'the run is terminated while the write awaits review; then a reviewer replays',
    source: 'own',
    ...IN_REVIEW,
    lifecycle: { kind: 'terminate_during_review' },
  },
  {
    id: 'schedule-overlapping-runs',
    title: 'a schedule (every 2 s, overlap ALLOW_ALL) whose payments are held 2.5 s: three runs overlap',
    source: 'own',
    post: { kind: 'hold_commit', holdMs: 2_500 },
    lifecycle: { kind: 'schedule', runs: 3 },
  },
];
