/**
 * `recovery-router shadow-report`: what the router would have done with the failures of a namespace's own
 * activities, read from recent histories (docs/shadow-mode.md, "The report"). For each workflow the visibility
 * query lists (`client.workflow.list`), its history (`fetchHistory`) and, while it runs, its pending activities
 * (`describe`); each activity execution is judged (operator/shadow-report-history.ts) and the report sums:
 * failures by class, retries that could never have worked (persistent failures retried), writes retried after an
 * unknown outcome, and the time those retries took. The router's own activities are left out of those sums; the
 * errors no rule recognised, its own tool calls' among them, are listed by fingerprint (operator/unknown-errors.ts).
 * Node-side only.
 */
import type { Client } from '@temporalio/client';
import { FAILURE_CLASSES } from '../recovery/failure';
import type { ShadowActivityDeclaration } from '../plugin/shadow/options';
import { executionsOf, pendingExecutions, type ActivityExecution, type HistoryReading } from './shadow-report-history';
import {
  groupUnknowns,
  routerUnknowns,
  shadowUnknowns,
  unknownErrorsText,
  type UnknownError,
  type UnknownSample,
} from './unknown-errors';

/** The activity types of the router itself (`RecoveryPlugin`'s activities): never in the report. */
export const ROUTER_ACTIVITY_TYPES: readonly string[] = Object.freeze([
  'invokeTool',
  'lookupOperation',
  'verifyPostcondition',
  'previewArguments',
  'operationOwner',
  'confirmApproval',
  'planNextStep',
  'recoveryRefreshCredential',
]);

/**
 * Which runs `shadowReport` reads (a visibility query, at most `limit`), and declarations of activities the
 * workers did not declare.
 */
export interface ShadowReportOptions {
  /** A visibility query (Temporal's List Filter). @default every workflow, newest first */
  query?: string;
  /** Most workflows read. @default 200 */
  limit?: number;
  /** Effects by activity type, as shadow mode's `declare` (undeclared: a write, on the safe side). */
  declare?: Record<string, ShadowActivityDeclaration>;
}

/**
 * One class's row. `unrecognized`: errors no rule of the classifier recognised (`unrecoverable/unrecognized`, or on a
 * write `outcome_unknown/unrecognized`).
 */
export interface ClassRow {
  /** Executions whose last failure (the final one, or the one before a success) is of this class. */
  failures: number;
  retries: number;
  wastedRetries: number;
  /** Time the wasted retries took (scheduling to the last attempt's start), ms. */
  wastedMs: number;
}

/**
 * What shadow mode found over a window of runs: per failure class, what the router would have done and what the
 * activity's own retry policy did (docs/shadow-mode.md).
 */
export interface ShadowReport {
  workflows: number;
  /** Activity executions read (the router's own left out). */
  executions: number;
  byClass: Record<string, ClassRow>;
  /** Retries of persistent failures: retries that could never have worked. */
  wastedRetries: number;
  wastedMs: number;
  /** Executions of writes (or of undeclared effect) retried after an attempt whose outcome was unknown. */
  writesRetriedAfterUnknown: number;
  unknownRetryMs: number;
  /** Every execution that failed at least once, for `--json`. */
  failed: ActivityExecution[];
  /**
   * Errors no rule recognised, by fingerprint, with their counts, samples and the rule to add: of these activities,
   * and of the router's own tool calls in the same histories (operator/unknown-errors.ts).
   */
  unknown: UnknownError[];
}

/** The class an execution is counted under: its last failure's (`unrecognized` when no rule recognised it). */
function classOf(x: ActivityExecution): string | undefined {
  const v = x.state === 'completed' ? x.retried : (x.final ?? x.retried);
  if (!v) return undefined;
  return v.failure.reason === 'tool_bug' || v.failure.reason === 'unrecognized' ? 'unrecognized' : v.failure.class;
}

/**
 * Sums executions into a report. Pure.
 * @param routed unknown errors of the router's own tool calls in the same histories.
 */
export function summarize(
  workflows: number,
  executions: readonly ActivityExecution[],
  routed: readonly UnknownSample[] = [],
): ShadowReport {
  const byClass: Record<string, ClassRow> = {};
  const failed = executions.filter((x) => classOf(x) !== undefined);
  for (const x of failed) {
    const row = (byClass[classOf(x)!] ??= { failures: 0, retries: 0, wastedRetries: 0, wastedMs: 0 });
    row.failures += 1;
    row.retries += x.attempts - 1;
    row.wastedRetries += x.wastedRetries;
    if (x.wastedRetries > 0) row.wastedMs += x.retryMs;
  }
  const unknown = failed.filter((x) => x.writeRetriedAfterUnknown);
  const sum = (xs: readonly ActivityExecution[], f: (x: ActivityExecution) => number) =>
    xs.reduce((a, x) => a + f(x), 0);
  return {
    workflows,
    executions: executions.length,
    byClass,
    wastedRetries: sum(failed, (x) => x.wastedRetries),
    wastedMs: sum(failed, (x) => (x.wastedRetries > 0 ? x.retryMs : 0)),
    writesRetriedAfterUnknown: unknown.length,
    unknownRetryMs: sum(unknown, (x) => x.retryMs),
    failed,
    unknown: groupUnknowns([...shadowUnknowns(failed), ...routed]),
  };
}

/**
 * Reads the workflows `options.query` lists and reports on their activities.
 * @throws the client's error when the server cannot be reached or the query is refused.
 */
export async function shadowReport(client: Client, options: ShadowReportOptions = {}): Promise<ShadowReport> {
  const reading: HistoryReading = { declare: options.declare ?? {}, exclude: new Set(ROUTER_ACTIVITY_TYPES) };
  const limit = options.limit ?? 200;
  const executions: ActivityExecution[] = [];
  const routed: UnknownSample[] = [];
  let workflows = 0;
  for await (const wf of client.workflow.list(options.query ? { query: options.query } : {})) {
    if (workflows >= limit) break;
    workflows += 1;
    const handle = client.workflow.getHandle(wf.workflowId, wf.runId);
    const history = await handle.fetchHistory();
    executions.push(...executionsOf(wf.workflowId, history.events ?? [], reading));
    routed.push(...routerUnknowns(wf.workflowId, history.events ?? []));
    if (wf.status.name === 'RUNNING') {
      const { raw } = await handle.describe();
      executions.push(...pendingExecutions(wf.workflowId, raw.pendingActivities ?? [], reading));
    }
  }
  return summarize(workflows, executions, routed);
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The report as the command prints it: one row per class, then the totals. */
export function shadowReportTable(r: ShadowReport): string {
  const order = [...FAILURE_CLASSES, 'unrecognized'].filter((c) => r.byClass[c] !== undefined);
  const header = ['class', 'failures', 'retries', 'wasted retries', 'time on wasted retries'];
  const rows = order.map((c) => {
    const row = r.byClass[c]!;
    return [c, String(row.failures), String(row.retries), String(row.wastedRetries), seconds(row.wastedMs)];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [
    `${r.workflows} workflows, ${r.executions} activity executions, ${r.failed.length} with failures`,
    '',
    line(header),
    ...rows.map(line),
    '',
    `retries that could never have worked (persistent failures retried): ${r.wastedRetries}, ${seconds(r.wastedMs)}`,
    `writes retried after an unknown outcome: ${r.writesRetriedAfterUnknown}, ${seconds(r.unknownRetryMs)}`,
    '',
    'errors no rule recognised (recovery-router rules suggest):',
    unknownErrorsText(r.unknown),
  ].join('\n');
}
