/**
 * `npm run bench -- --only eval [--quick] [--k 8] [--cap-ms 30000] [--seed 14] [--concurrency 8]`: the recovery
 * eval (docs/EVAL.md). Every scenario of bench/eval/scenarios/ runs k times under each policy — the router,
 * Temporal's default retry policy cut off at `--cap-ms` per call, and 3 retries at 200/400/800 ms — on one embedded
 * dev server and real services; then each of PALADIN's 58 failure keys runs once through the router. Prints the
 * tables and writes bench/results/eval.json.
 *
 * `--quick`: the 30 s cap (the default); without it the cap is 120 s, which lets Temporal's default policy retry
 * longer (attempts at 0, 1, 3, 7, 15, 31 and 63 s). k stays 8 either way. `--policies router` runs the router's
 * runs only (and PALADIN's keys): all the gate reads, a third of the runs; CI's gate runs so (`.ci/run`). The two
 * baselines are docs/EVAL.md's comparison, not a verdict.
 *
 * Gate (exit 1): a router row not correct, an identical re-execution or a duplicate side effect under the router,
 * a PALADIN key not scored, a hallucinated success, or (all keys run) a PALADIN key missed that
 * bench/eval/paladin/known-misses.json does not list, or one it lists got right (the list must shrink).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { seeded } from './chaos/driver';
import { runScenario } from './eval/driver';
import { startEval, type Eval } from './eval/env';
import { PALADIN_KEYS } from './eval/paladin/keys';
import type { PaladinVerdict } from './eval/paladin/plan';
import { runPaladinKey } from './eval/paladin/run';
import knownPaladinMisses from './eval/paladin/known-misses.json';
import { paladinRatchet, paladinTotals } from './eval/paladin/score';
import { METHOD_NOTES, paladinMisses, paladinTable, scenarioTable, totalsTable } from './eval/report';
import type { Scenario } from './eval/scenario';
import { SCENARIOS } from './eval/scenarios';
import { policyTotals, scenarioRow, type PolicyName, type RunScore, type ScenarioRow } from './eval/scoring';
import { machineFacts } from './report';

const RESULTS_FILE = join(__dirname, 'results', 'eval.json');
/** Temporal-default runs in flight at once (they wait on timers, not on the CPU). */
const SLOW_POOL = 24;

export interface EvalOptions {
  quick: boolean;
  /** The policies whose runs are made and reported (`--policies`; all by default). */
  policies: readonly PolicyName[];
  k: number;
  capMs: number;
  seed: number;
  concurrency: number;
  /** Scenario names to run (all when empty); PALADIN runs unless `noPaladin`. */
  scenarios: string[];
  /** PALADIN keys to run (all when empty). */
  keys: string[];
  noPaladin: boolean;
}

/** Runs `jobs` with at most `limit` at a time, in order of start. */
async function pool<T>(jobs: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const out: T[] = new Array(jobs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, jobs.length) }, async () => {
      while (next < jobs.length) {
        const i = next++;
        out[i] = await jobs[i]!();
      }
    }),
  );
  return out;
}

/** A stable number for a name (FNV-1a), to vary seeds per scenario. */
function nameSeed(name: string): number {
  let h = 2166136261;
  for (const c of name) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return h % 100_000;
}

type ScoredRun = { scenario: string; policy: PolicyName; score: RunScore };

/**
 * The runs, in two pools on the same workers: Temporal's default policy (its runs mostly sleep between attempts,
 * up to the cap) all at once; the router's and the naive policy's runs, interleaved per seed so that both see the
 * same load, `concurrency` at a time, then PALADIN's keys.
 */
async function runAll(ev: Eval, o: EvalOptions): Promise<{ rows: ScenarioRow[]; paladin: PaladinVerdict[] }> {
  const scenarios = SCENARIOS.filter((s) => o.scenarios.length === 0 || o.scenarios.includes(s.name));
  let index = 0;
  const job = (scenario: Scenario, policy: ScoredRun['policy'], i: number) => {
    const seed = o.seed * 1_000_000 + nameSeed(scenario.name) * 10 + i;
    const runIndex = index++;
    return async (): Promise<ScoredRun> => ({
      scenario: scenario.name,
      policy,
      score: await runScenario(ev, scenario, policy, { seed, index: runIndex, random: seeded(seed), capMs: o.capMs }),
    });
  };
  const seeds = Array.from({ length: o.k }, (_, i) => i);
  const slow = o.policies.includes('temporal-default')
    ? scenarios.flatMap((s) => seeds.map((i) => job(s, 'temporal-default', i)))
    : [];
  const interleaved = o.policies.filter((p) => p !== 'temporal-default');
  const fast = scenarios.flatMap((s) => seeds.flatMap((i) => interleaved.map((p) => job(s, p, i))));
  // Port 2: nothing listens there and listen(0) never hands it out (a freed ephemeral port can be taken).
  const closedUrl = 'http://127.0.0.1:2/records';
  const paladinJobs = o.noPaladin
    ? []
    : PALADIN_KEYS.filter((k) => o.keys.length === 0 || o.keys.includes(k.key)).map((k, i) => {
        const slot =
          k.injection.kind === 'credential' && k.injection.mode === 'expired' ? ev.env.takeSlot() : undefined;
        const io = { closedUrl, worldUrl: ev.env.world.url, filesDir: ev.filesDir };
        const random = seeded(o.seed * 1_000 + i);
        return () => runPaladinKey(ev, k.key, { index: 100_000 + i, random, io, ...(slot ? { slot } : {}) });
      });
  const [slowScores, fastAndPaladin] = await Promise.all([
    pool(slow, SLOW_POOL),
    pool<ScoredRun | PaladinVerdict>([...fast, ...paladinJobs], o.concurrency),
  ]);
  const scores = [...slowScores, ...(fastAndPaladin.slice(0, fast.length) as ScoredRun[])];
  const paladin = fastAndPaladin.slice(fast.length) as PaladinVerdict[];
  const rows = scenarios.flatMap((s) =>
    o.policies.map((policy) =>
      scenarioRow(
        s.name,
        policy,
        scores.filter((r) => r.scenario === s.name && r.policy === policy).map((r) => r.score),
      ),
    ),
  );
  return { rows, paladin };
}

/** Runs the eval; returns the exit code (0 the gate passed, 1 it did not). */
export async function evalBench(o: EvalOptions): Promise<number> {
  const startedMs = Date.now();
  const loadBefore = loadavg();
  const slotsNeeded = SCENARIOS.filter((s) => s.name === 'token-expiry').length * o.k * o.policies.length + 1;
  const ev = await startEval({ slots: slotsNeeded });
  try {
    const { rows, paladin } = await ev.run(() => runAll(ev, o));
    const persistent = new Set(SCENARIOS.filter((s) => s.persistent).map((s) => s.name));
    const totals = policyTotals(rows, persistent, o.policies);
    const paladinSummary = paladinTotals(paladin);
    const router = rows.filter((r) => r.policy === 'router');
    const gate = {
      routerRowsCorrect: router.every((r) => r.correct),
      routerIdenticalReexecutions: router.reduce((a, r) => a + r.identicalReexecutions, 0),
      routerDuplicateSideEffects: router.reduce((a, r) => a + r.duplicateSideEffects, 0),
      paladinKeysScored: paladin.length,
      paladinHallucinatedSuccess: paladinSummary.hallucinatedSuccess,
      paladinRatchet: paladinRatchet(paladin, knownPaladinMisses),
    };
    const allKeys = !o.noPaladin && o.keys.length === 0;
    const passed =
      gate.routerRowsCorrect &&
      gate.routerIdenticalReexecutions === 0 &&
      gate.routerDuplicateSideEffects === 0 &&
      (!allKeys || gate.paladinKeysScored === PALADIN_KEYS.length) &&
      gate.paladinHallucinatedSuccess === 0 &&
      (!allKeys || (gate.paladinRatchet.newMisses.length === 0 && gate.paladinRatchet.nowRight.length === 0));
    const out = {
      benchmark: 'eval',
      date: new Date().toISOString(),
      machine: machineFacts(),
      /** The 1/5/15-minute load averages at the start and the end: the CPU is shared, timings depend on it. */
      loadAverage: { start: loadBefore, end: loadavg() },
      options: o,
      method: {
        k: o.k,
        capMs: o.capMs,
        policies: {
          router:
            'agentWorkflow + scripted planner, the plugin defaults (3 retries at 0.5/1/2 s + ≤20 % jitter, Retry-After as floor)',
          'temporal-default': `Temporal's default retry policy (1 s, ×2, max 100 s, unlimited attempts), scheduleToCloseTimeout ${o.capMs} ms per call`,
          'naive-3x': '3 retries at 200/400/800 ms',
        },
        notes: METHOD_NOTES,
      },
      rows: rows.map(({ perRun: _p, ...r }) => r),
      perRun: rows.map((r) => ({ scenario: r.scenario, policy: r.policy, runs: r.perRun })),
      paladin,
      totals: { policies: totals, paladin: paladinSummary },
      gate: { ...gate, passed },
      durationMs: Date.now() - startedMs,
    };
    mkdirSync(dirname(RESULTS_FILE), { recursive: true });
    writeFileSync(RESULTS_FILE, `${JSON.stringify(out, null, 2)}\n`);
    const cap = o.policies.includes('temporal-default') ? `, cap ${o.capMs} ms per call (temporal-default)` : '';
    console.log(`\nrecovery eval — k = ${o.k}${cap}, policies ${o.policies.join(', ')}\n`);
    console.log(scenarioTable(rows));
    console.log(`\n${totalsTable(totals)}`);
    if (!o.noPaladin) {
      console.log(`\nPALADIN — ${paladin.length} keys, one run each\n\n${paladinTable(paladinSummary)}`);
      const misses = paladinMisses(paladin);
      if (misses) console.log(`\n${misses}`);
      console.log(`\nMethod differences:\n${METHOD_NOTES.map((n) => `- ${n}`).join('\n')}`);
    }
    console.log(`\ngate: ${passed ? 'passed' : 'FAILED'} ${JSON.stringify(gate)}`);
    // What a failed gate needs to be read from CI's log alone: each router run scored wrong, with its timeline.
    for (const r of router.flatMap((row) => row.perRun.filter((p) => !p.correct).map((p) => ({ row, p }))))
      console.log(`wrong: ${r.row.scenario} seed ${r.p.seed}: ${r.p.finalState} ${JSON.stringify(r.p.timeline)}`);
    const load = (l: number[]) => l.map((x) => x.toFixed(1)).join(' ');
    console.log(`load average ${load(loadBefore)} → ${load(loadavg())} (1/5/15 min, ${machineFacts().cpus} CPUs)`);
    console.log(`duration ${((Date.now() - startedMs) / 1000).toFixed(1)} s; wrote ${RESULTS_FILE}`);
    return passed ? 0 : 1;
  } finally {
    await ev.close();
  }
}
