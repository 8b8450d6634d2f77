/**
 * What the main job (./main.ts) prints: after each scenario, its outcome, what the planner was told and what the
 * services counted; after them all, the recovery report (one row per tool call), a legend of its terms and the
 * run's telemetry. Console output only; `--report` keeps the same and more as JSON.
 */
import type { RecoverySummary } from '../../recovery/telemetry';
import type { ScenarioReport } from './run';
import { LEGEND, toldLines } from './told';

/**
 * One scenario's outcome: passed or not, the run's end, its Web UI link, every tool answer the planner saw (class,
 * action, message, observed state or fields to fix), the reason the user is told when the run ended without the
 * planner, and the requests and rows the services counted.
 */
export function printScenario(report: ScenarioReport, link: string | undefined): void {
  const a = report.actual;
  console.log(`  ${report.passed ? '✓' : '✗'} ${a.status} after ${a.turns} turn(s)${link ? `\n    ${link}` : ''}`);
  if (report.told.length) console.log('    told:');
  for (const entry of report.told) for (const line of toldLines(entry)) console.log(`      ${line}`);
  if (a.reason) console.log(`    ended: ${a.reason}`);
  const counted = [
    ...Object.entries(a.hits).map(([k, n]) => `${k} ${n} request(s)`),
    ...Object.entries(a.rows).map(([k, n]) => `${k} ${n} row(s)`),
  ];
  if (counted.length) console.log(`    downstream: ${counted.join(', ')}`);
}

/** What the terms of the output mean. */
export function printLegend(): void {
  console.log(`${LEGEND.join('\n')}\n`);
}

/** One row per recovery record: the tool call, how it failed, what the router did, and how it ended. */
export function printTable(reports: ScenarioReport[]): void {
  const rows = reports.flatMap((r) =>
    (r.records.length ? r.records : [undefined]).map((rec, i) => [
      i === 0 ? r.name : '',
      rec ? String(rec.turn) : '',
      rec?.tool.slice(0, 28) ?? '(no tool call)',
      rec?.class ?? '',
      rec?.action ?? (rec?.terminal === 'succeeded' ? 'ok' : ''),
      rec?.evidence ?? '',
      rec ? String(rec.attempts) : '',
      rec?.terminal ?? '',
      i === 0 ? `${r.actual.status}${r.passed ? '' : ' (UNEXPECTED)'}` : '',
    ]),
  );
  const header = ['scenario', 'turn', 'tool', 'class', 'action', 'evidence', 'attempts', 'terminal state', 'run'];
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((row) => row[c]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, c) => cell.padEnd(widths[c]!))
      .join('  ')
      .trimEnd();
  console.log(`\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const row of rows) console.log(line(row));
  console.log('');
}

/** The run's telemetry: the dashboard numbers of docs/DESIGN.md, "Telemetry", from every scenario's records. */
export function printTelemetry(summary: RecoverySummary, reports: ScenarioReport[]): void {
  const pct = (x: number | null) => (x === null ? 'n/a' : `${Math.round(x * 100)} %`);
  const byClass = Object.entries(summary.replans.byClass)
    .map(([c, n]) => `${c} ${n}`)
    .join(', ');
  const turns = reports.reduce((n, r) => n + r.actual.turns, 0);
  const retries = Object.entries(summary.retryBudget)
    .filter(([, b]) => b.retriesUsed > 0)
    .map(([tool, b]) => `${tool} ${b.retriesUsed} in ${b.dispatched} call(s)`)
    .join(', ');
  console.log('Telemetry');
  console.log(`  replans: ${summary.replans.total} in ${turns} planner turns (${byClass || 'none'})`);
  console.log(
    `  time to replan: ${summary.timeToReplanMs.count ? `mean ${Math.round(summary.timeToReplanMs.meanMs)} ms, max ${summary.timeToReplanMs.maxMs} ms` : 'n/a'}`,
  );
  console.log(`  retry budget used: ${retries || 'none'}`);
  console.log(
    `  retry then succeed: ${summary.retryThenSucceed.succeeded}/${summary.retryThenSucceed.needed} (${pct(summary.retryThenSucceed.rate)})`,
  );
  console.log(
    `  escalations: ${summary.escalations.count}${summary.escalations.count ? ` (${summary.escalations.calls.map((e) => `${e.tool}: ${e.class}`).join(', ')})` : ''}`,
  );
  console.log('');
}
