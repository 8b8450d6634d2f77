/** The eval's tables, as printed and as the README shows them (Markdown). Pure formatting. */
import type { PaladinVerdict } from './paladin/plan';
import { PAPER_RECOVERY_RATES, type PaladinTotals } from './paladin/score';
import type { PolicyTotals, ScenarioRow } from './scoring';

const pct = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(x === 0 || x === 1 ? 0 : 1)} %`);
const ms = (x: number | null) => (x === null ? 'never' : `${Math.round(x)}`);

function table(head: string[], rows: (string | number)[][]): string {
  return [
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

/** Per scenario and policy: sums over the k runs; wasted retry ms the median over the runs, ms to correct action over the correct runs. */
export function scenarioTable(rows: readonly ScenarioRow[]): string {
  return table(
    [
      'scenario',
      'policy',
      'correct',
      'pass^k',
      'dispatches',
      'retries',
      'wasted',
      'identical re-exec',
      'wasted retry ms (median)',
      'dup. rows',
      'ms to correct action (median)',
      'escalations',
    ],
    rows.map((r) => [
      r.scenario,
      r.policy,
      `${Math.round(r.meanCorrect * r.runs)}/${r.runs}`,
      r.passK.toFixed(2),
      r.dispatches,
      r.retries,
      pct(r.wastedRetries),
      r.identicalReexecutions,
      Math.round(r.wastedRetryMs),
      r.duplicateSideEffects,
      ms(r.msToCorrectAction),
      r.escalations,
    ]),
  );
}

export function totalsTable(totals: readonly PolicyTotals[]): string {
  return table(
    [
      'policy',
      'runs',
      'correct',
      'pass^k (mean)',
      'dispatches',
      'retries',
      'wasted',
      'identical re-exec',
      'dup. rows',
      'persistent-error tax (median wasted retry ms)',
      'escalations',
    ],
    totals.map((t) => [
      t.policy,
      t.runs,
      pct(t.meanCorrect),
      t.passK.toFixed(2),
      t.dispatches,
      t.retries,
      pct(t.wastedRetries),
      t.identicalReexecutions,
      t.duplicateSideEffects,
      t.persistentErrorTaxMs === null ? '—' : Math.round(t.persistentErrorTaxMs),
      t.escalations,
    ]),
  );
}

export function paladinTable(t: PaladinTotals): string {
  const ours = [
    [
      'Recovery Router (scripted planner), all keys',
      pct(t.recoveryRate),
      `${t.keys} keys, oracle end state (goal, or an honest hand-off where only a person can act)`,
    ],
    ['Recovery Router, recoverable keys: goal reached', pct(t.goalRate), `${t.recoverableKeys} keys`],
    ['Recovery Router, hand-off keys: nothing written, no submission', pct(t.handOffRate), `${t.handOffKeys} keys`],
  ];
  const paper = PAPER_RECOVERY_RATES.map((p) => [
    `paper: ${p.system}`,
    pct(p.recoveryRate),
    'ToolBench tasks, LLM grader',
  ]);
  return [
    table(['system', 'recovery rate', 'over'], [...ours, ...paper]),
    '',
    table(
      ['route accuracy', 'hallucinated success', 'tool calls per run', 'dispatches per run'],
      [[pct(t.routeAccuracy), t.hallucinatedSuccess, t.toolCallsPerRun.toFixed(2), t.dispatchesPerRun.toFixed(2)]],
    ),
  ].join('\n');
}

/** The keys whose route or end state missed, one line each (empty when none). */
export function paladinMisses(rows: readonly PaladinVerdict[]): string {
  return rows
    .filter((r) => !r.correct || !r.recovered || r.hallucinatedSuccess)
    .map(
      (r) =>
        `- ${r.key}: expected ${r.expectedAction}, got ${r.action}; ${r.recovered ? 'recovered' : 'not recovered'} (${r.status})${r.hallucinatedSuccess ? '; HALLUCINATED SUCCESS' : ''}`,
    )
    .join('\n');
}

/** What differs from the paper's method. */
export const METHOD_NOTES = [
  "The planner is scripted (activities/planners/scripted.ts), not a model: its reactions per route are fixed (repair → the script's fix, replan/reject → the script's alternative). PALADIN's figures come from fine-tuned LLM agents choosing recoveries themselves.",
  'One plan per key (read a record, save its summary), with the fault injected into real services and real error shapes; the paper runs ToolBench tasks through a failure-injection simulator.',
  "Scored against an oracle end state read from the services' rows, never by an LLM grader.",
  "Our world decides per key whether recovery is possible at all; where only a person or a code change can help (19 keys), the oracle is an honest hand-off (nothing written, no submission), which the paper's recovery rate does not count as recovered. The goal rate over the 39 recoverable keys is the closer comparison.",
];
