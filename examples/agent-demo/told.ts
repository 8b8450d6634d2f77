/**
 * What the planner (the model) was told in a scenario: every tool answer it saw, as the agent workflow hands them
 * over (workflows/planner-contract.ts, `Observation`) — a result as data, a failure only as the router's feedback:
 * class, action, the public message, what the server said (data), the observed state or the fields to fix. The main job records the planner's
 * input (a wrapper around the planner activity's planner), prints it per scenario with the downstream's counts, and
 * keeps it whole in `--report`. Node side.
 */
import type { Planner } from '../../activities/planners/planner';
import type { FieldIssue } from '../../recovery/failure';
import type { Observation } from '../../workflows/planner-contract';

/** One answer the planner saw, in the order it saw them. */
export type ToldEntry =
  | { turn: number | undefined; tool: string; kind: 'result'; value: unknown }
  | {
      turn: number | undefined;
      tool: string;
      kind: 'failure';
      class: string;
      action: string;
      message: string;
      nextStep: string;
      serverSaid?: string;
      observedState?: unknown;
      issues?: FieldIssue[];
    };

/**
 * Wraps `planner` so that the last input it got for each goal is kept: its observations are everything the planner
 * was told in that run (each turn's input repeats the earlier ones).
 */
export function recordingPlanner(planner: Planner): { planner: Planner; toldFor(goal: string): ToldEntry[] } {
  const last = new Map<string, Observation[]>();
  return {
    planner: {
      plan: (input, options) => {
        last.set(input.goal, input.observations);
        return planner.plan(input, options);
      },
    },
    toldFor: (goal) => toldOf(last.get(goal) ?? []),
  };
}

/** The tool answers among `observations` (user messages and rejected decisions left out). */
export function toldOf(observations: readonly Observation[]): ToldEntry[] {
  return observations.flatMap((o): ToldEntry[] => {
    if (o.kind === 'tool_result') return [{ turn: o.turn, tool: o.tool, kind: 'result', value: o.value }];
    if (o.kind !== 'tool_failure') return [];
    const f = o.feedback;
    return [
      {
        turn: o.turn,
        tool: o.tool,
        kind: 'failure',
        class: f.errorClass,
        action: f.action,
        message: f.message,
        nextStep: f.nextStep,
        ...(f.serverSaid !== undefined ? { serverSaid: f.serverSaid } : {}),
        ...(f.observedState !== undefined ? { observedState: f.observedState } : {}),
        ...(f.issues?.length ? { issues: f.issues } : {}),
      },
    ];
  });
}

/** `value` as one line of JSON, at most `max` characters (then `…`). */
export function oneLine(value: unknown, max = 140): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The lines the main job prints for one entry (indented by the caller). */
export function toldLines(entry: ToldEntry): string[] {
  const at = `turn ${entry.turn ?? '?'}  ${entry.tool}`;
  if (entry.kind === 'result') return [`${at} → result ${oneLine(entry.value)}`];
  const lines = [`${at} → ${entry.class} → ${entry.action}`, `  message: ${entry.message}`];
  if (entry.serverSaid !== undefined) lines.push(`  server said (data): ${JSON.stringify(entry.serverSaid)}`);
  if (entry.issues) {
    const said = (i: FieldIssue) =>
      i.serverSaid === undefined ? '' : ` (server said ${JSON.stringify(i.serverSaid)})`;
    const issue = (i: FieldIssue) =>
      `${i.path.join('.') || '(root)'}: expected ${i.expected}, received ${i.received}${said(i)}`;
    lines.push(`  fields: ${entry.issues.map(issue).join('; ')}`);
  }
  if (entry.observedState !== undefined) lines.push(`  observed state: ${oneLine(entry.observedState)}`);
  return lines;
}

/** What the terms of the main job's output mean (printed once, after the scenarios). */
export const LEGEND: readonly string[] = [
  'Legend',
  '  class → action   how the router read a failure, and the one recovery it chose (README, "Routes")',
  '  told             what the planner saw: a result as data, a failure as class, action, message, and the',
  "                   observed state or the fields to fix; a server's words only as data (server said);",
  '                   never a stack, host, token or header',
  '  ended            why the run ended without a submission: the reason the user is told',
  '  downstream       requests and rows the services counted during the run (their own logs and tables)',
  '  terminal state   succeeded; fed_back (the failure went back to the planner, the run goes on); refused (the',
  '                   Change-before-Retry gate refused an identical call); stopped; escalated (a person must act)',
  '  evidence         why a repeat was allowed: time_elapsed (backoff over), args_changed, tool_changed,',
  '                   credential_refreshed, approval_granted, state_verified (a lookup by operation id settled',
  '                   a write whose answer was lost)',
  '  reconciled       lookup (the write had landed), replay (it had not: sent once more, same key),',
  '                   already_satisfied (verify found the state already held)',
];
