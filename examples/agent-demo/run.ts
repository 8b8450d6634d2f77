/**
 * Runs agent scenarios as `agentWorkflow` executions and checks each against what the services saw. Shared by the
 * main job (./main.ts) and the history recorder (scripts/record-histories.ts).
 */
import type { Client } from '@temporalio/client';
import type { RecoveryPlugin } from '../../plugin/recovery-plugin';
import type { RecoveryRecord } from '../../recovery/records';
import { summarizeRecords, type RecoverySummary } from '../../recovery/telemetry';
import type { AgentResult } from '../../workflows/agent';
import { recoveryRecordsQuery } from '../../workflows/definitions';
import type { DemoFixtures } from './fixtures';
import type { ToldEntry } from './told';
import { withPlaceholders, type AgentScenario } from './scenario';

/** One scenario's entry in the report (`--report <path>`). */
export interface ScenarioReport {
  name: string;
  description: string;
  goal: string;
  workflowId: string;
  expected: AgentScenario['expect'];
  actual: {
    status: AgentResult['status'];
    result?: unknown;
    reason?: string;
    endedBy?: AgentResult['endedBy'];
    turns: number;
    actions: string[];
    hits: Record<string, number>;
    rows: Record<string, number>;
  };
  passed: boolean;
  /** What differs from `expected`, one line each (empty when passed). */
  mismatches: string[];
  records: RecoveryRecord[];
  /** What the planner was told: every tool answer it saw (told.ts); empty without `RunOptions.toldFor`. */
  told: ToldEntry[];
  /** The run's telemetry (recovery/telemetry.ts): replans by class, time to replan, retry budget use, escalations. */
  summary: RecoverySummary;
  durationMs: number;
}

export interface RunOptions {
  client: Client;
  plugin: RecoveryPlugin;
  fixtures: DemoFixtures;
  /** The id prefix of the runs. @default "main" */
  idPrefix?: string;
  /** A stable workflow id per scenario (history recording) instead of a timestamped one. @default false */
  stableIds?: boolean;
  /** Set the RecoveryStatus search attributes (needs them registered). @default true */
  searchAttributes?: boolean;
  /** What the planner saw for a goal (`recordingPlanner(…).toldFor`, told.ts). */
  toldFor?: (goal: string) => ToldEntry[];
  /** Called with a line of progress (turns, tool calls, the end). */
  progress?: (line: string) => void;
}

/** Every recovery record's action, or `ok` for a success. */
export const actionsOf = (records: readonly RecoveryRecord[]): string[] =>
  records.map((r) => (r.terminal === 'succeeded' ? 'ok' : (r.action ?? r.terminal)));

/** Runs one scenario to its end and checks it. Never throws for a scenario that ends unexpectedly. */
export async function runScenario(scenario: AgentScenario, options: RunOptions): Promise<ScenarioReport> {
  const { client, plugin, fixtures } = options;
  const startedAt = Date.now();
  fixtures.arrange(scenario);
  const before = fixtures.counts(scenario);
  const defaults = plugin.workflowDefaults();
  const catalog = scenario.tools ? defaults.catalog.filter((t) => scenario.tools!.includes(t.name)) : defaults.catalog;
  const workflowId = options.stableIds
    ? `${options.idPrefix ?? 'main'}-${scenario.name}`
    : `${options.idPrefix ?? 'main'}-${scenario.name}-${Date.now()}`;
  const handle = await client.workflow.start('agentWorkflow', {
    taskQueue: plugin.config.taskQueue,
    workflowId,
    args: [
      scenario.goal,
      {
        ...defaults,
        catalog,
        grantedScopes: scenario.grantedScopes,
        ...(scenario.maxTurns ? { maxTurns: scenario.maxTurns } : {}),
        ...(options.searchAttributes === false ? { searchAttributes: false } : {}),
      },
    ],
  });
  const stopWatching = options.progress ? watch(handle, options.progress) : () => undefined;
  let result: AgentResult;
  try {
    result = (await handle.result()) as AgentResult;
  } catch (err) {
    stopWatching([]);
    throw err;
  }
  stopWatching(result.records);
  const after = fixtures.counts(scenario);
  const delta = (keys: readonly string[]) =>
    Object.fromEntries(keys.map((k) => [k, (after[k] ?? 0) - (before[k] ?? 0)]));
  const hits = delta(Object.keys(scenario.expect.hits ?? {}));
  const rows = delta(Object.keys(scenario.expect.rows ?? {}));
  const actions = actionsOf(result.records);
  const expect = scenario.expect;
  const mismatches = [
    ...differs('status', result.status, expect.status),
    ...(expect.result !== undefined
      ? differs('result', result.result, withPlaceholders(expect.result, fixtures.folders))
      : []),
    ...(expect.actions ? differs('actions', actions, expect.actions) : []),
    ...Object.entries(expect.hits ?? {}).flatMap(([k, v]) => differs(`hits ${k}`, hits[k], v)),
    ...Object.entries(expect.rows ?? {}).flatMap(([k, v]) => differs(`rows ${k}`, rows[k], v)),
  ];
  return {
    name: scenario.name,
    description: scenario.description,
    goal: scenario.goal,
    workflowId,
    expected: expect,
    actual: {
      status: result.status,
      ...(result.result !== undefined ? { result: result.result } : {}),
      ...(result.reason ? { reason: result.reason } : {}),
      ...(result.endedBy ? { endedBy: result.endedBy } : {}),
      turns: result.turns,
      actions,
      hits,
      rows,
    },
    passed: mismatches.length === 0,
    mismatches,
    records: result.records,
    told: options.toldFor?.(scenario.goal) ?? [],
    summary: summarizeRecords(result.records),
    durationMs: Date.now() - startedAt,
  };
}

function differs(what: string, actual: unknown, expected: unknown): string[] {
  return JSON.stringify(actual) === JSON.stringify(expected)
    ? []
    : [`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`];
}

/** One progress line for a recovery record: `turn 2  book_calendar_slot  semantic_rejection → replan (fed_back)`. */
export function progressLine(r: RecoveryRecord): string {
  const how = r.class ? `${r.class} → ${r.action ?? r.terminal}` : 'ok';
  const extra = [
    r.evidence ? `evidence ${r.evidence}` : '',
    r.reconciled ? `reconciled ${r.reconciled}` : '',
    r.attempts > 1 ? `${r.attempts} attempts` : '',
    r.class && r.terminal !== 'fed_back' ? r.terminal : '',
  ].filter(Boolean);
  return `turn ${r.turn}  ${r.tool}  ${how}${extra.length ? ` (${extra.join(', ')})` : ''}`;
}

/**
 * Polls the `recovery.records` query and reports each new record as it appears; `stop()` reports the rest from the
 * final result, so every record is shown once, in order, however fast the run was.
 */
function watch(
  handle: { query: (q: typeof recoveryRecordsQuery) => Promise<RecoveryRecord[]> },
  progress: (line: string) => void,
) {
  let shown = 0;
  let stopped = false;
  const show = (records: readonly RecoveryRecord[]) => {
    for (; shown < records.length; shown++) progress(progressLine(records[shown]!));
  };
  const tick = async () => {
    while (!stopped) {
      try {
        show(await handle.query(recoveryRecordsQuery));
      } catch {
        // The run may not have started its first task yet, or may have ended: the rest is shown at stop().
      }
      await new Promise((r) => setTimeout(r, 150));
    }
  };
  void tick();
  return (final: readonly RecoveryRecord[]) => {
    stopped = true;
    show(final);
  };
}
