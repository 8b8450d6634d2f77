/**
 * `npm run bench -- --only shadow [--k 4] [--seed 14] [--cap-ms 30000] [--scenarios a,b]`: shadow mode on a
 * Temporal user's existing activities (docs/shadow-mode.md). The eval's scenarios written as plain activities
 * (bench/shadow/activities.ts) and a small equivalent of Temporal's money-transfer sample (bench/shadow/bank.ts: the
 * sample itself is not reachable offline) run under three arms with the same seeds: Temporal's default retry policy,
 * the same with shadow mode, and with enforce. Then `shadow-report` reads the default arm's histories. Prints the
 * tables and writes bench/results/shadow.json.
 *
 * Gate (exit 1): a shadow run differs from the default run of the same seed (dispatches, retries, status, verdict);
 * enforce wasted as many retries as the default policy or more, made more duplicate side effects, or got fewer runs
 * right.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { shadowReport, shadowReportTable } from '../operator/shadow-report';
import { seeded } from './chaos/driver';
import { startEval } from './eval/env';
import { SCENARIOS } from './eval/scenarios';
import { machineFacts } from './report';
import { declarations } from './shadow/activities';
import { ARMS, queueOf, startArms } from './shadow/arms';
import { createBankActivities, lookUpDeposit, startBank, type PaymentDetails } from './shadow/bank';
import { runPlain, type PlainRunScore } from './shadow/eval-runs';
import { armTotals, runsTable, totalsTable, transferTable, type ArmTotals } from './shadow/report';
import { runTransfer, TRANSFER_CASES, type TransferScore } from './shadow/transfer-runs';

const RESULTS_FILE = join(__dirname, 'results', 'shadow.json');
/** Runs in flight: most wait on Temporal's retry timers, not on the CPU. */
const POOL = 24;
/**
 * Left out: a tool that does not exist is, as a plain activity, an activity type no worker registered; Temporal's
 * worker fails it before any interceptor runs, so there is no tool-side dispatch to count.
 */
const LEFT_OUT = new Set(['capability-missing']);

export interface ShadowBenchOptions {
  k: number;
  capMs: number;
  seed: number;
  scenarios: string[];
}

async function pool<T>(jobs: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const out: T[] = new Array(jobs.length);
  let next = 0;
  const work = async () => {
    while (next < jobs.length) {
      const i = next++;
      out[i] = await jobs[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, work));
  return out;
}

/** The bank's activities, each attempt counted by `kind ref`. */
function countedBank(bank: () => Awaited<ReturnType<typeof startBank>>) {
  const counts = new Map<string, number>();
  const activities = Object.fromEntries(
    Object.entries(createBankActivities(bank)).map(([kind, fn]) => [
      kind,
      async (d: PaymentDetails) => {
        counts.set(`${kind} ${d.referenceId}`, (counts.get(`${kind} ${d.referenceId}`) ?? 0) + 1);
        return fn(d);
      },
    ]),
  );
  return { activities, attempts: (kind: string, ref: string) => counts.get(`${kind} ${ref}`) ?? 0 };
}

export async function shadowBench(o: ShadowBenchOptions): Promise<number> {
  const startedMs = Date.now();
  const scenarios = SCENARIOS.filter(
    (s) => !LEFT_OUT.has(s.name) && (o.scenarios.length === 0 || o.scenarios.includes(s.name)),
  );
  const slots = scenarios.filter((s) => s.name === 'token-expiry').length * o.k * ARMS.length + 1;
  const ev = await startEval({ slots, workers: false });
  const bank = await startBank();
  const tmp = mkdtempSync(join(tmpdir(), 'rr-shadow-bench-'));
  const broker = ev.env.brokerFor('temporal-default');
  const counted = countedBank(() => bank);
  const bankDeclare = {
    withdraw: { effect: 'write' as const },
    refund: { effect: 'write' as const },
    deposit: {
      effect: 'write' as const,
      lookup: ({ args }: { args: readonly unknown[] }) => lookUpDeposit(bank, (args[0] as PaymentDetails).referenceId),
    },
  };
  const arms = await startArms({
    address: ev.address,
    tmp,
    tools: ev.tools,
    broker,
    workflowsPath: require.resolve('./shadow/workflows'),
    extraActivities: counted.activities,
    extraDeclarations: bankDeclare,
  });
  try {
    const seeds = Array.from({ length: o.k }, (_, i) => o.seed * 1_000 + i);
    let index = 0;
    const plainJobs = scenarios.flatMap((s) =>
      seeds.flatMap((seed) =>
        ARMS.map((arm) => {
          const spec = { seed, index: index++, random: seeded(seed), capMs: o.capMs };
          return () => runPlain(ev, s, arm, spec);
        }),
      ),
    );
    const transferJobs = TRANSFER_CASES.flatMap((c) =>
      seeds.flatMap((seed) => ARMS.map((arm) => () => runTransfer(ev.client, bank, counted.attempts, c, arm, seed))),
    );
    const { plain, transfers } = await arms.run(async () => {
      const [p, t] = await Promise.all([pool(plainJobs, POOL), pool(transferJobs, 8)]);
      return { plain: p, transfers: t };
    });
    const report = await shadowReport(ev.client, {
      query: `TaskQueue = "${queueOf('temporal-default')}"`,
      limit: 10_000,
      declare: { ...declarations(ev.tools, broker), ...bankDeclare },
    });
    return finish(o, { plain, transfers, reportTable: shadowReportTable(report), report, startedMs });
  } finally {
    await arms.close();
    await bank.close();
    await ev.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

function finish(
  o: ShadowBenchOptions,
  r: {
    plain: PlainRunScore[];
    transfers: TransferScore[];
    reportTable: string;
    report: Awaited<ReturnType<typeof shadowReport>>;
    startedMs: number;
  },
): number {
  const totals: ArmTotals[] = armTotals(r.plain, r.transfers);
  const by = (arm: string) => totals.find((t) => t.arm === arm)!;
  // The final state names the run's own rows (a customer id per run): compare what the policy decides.
  const same = (a: PlainRunScore, b: PlainRunScore) =>
    a.dispatches === b.dispatches && a.retries === b.retries && a.correct === b.correct && a.status === b.status;
  const shadowDiffers = r.plain.filter(
    (x) =>
      x.arm === 'shadow' &&
      !same(x, r.plain.find((d) => d.arm === 'temporal-default' && d.scenario === x.scenario && d.seed === x.seed)!),
  );
  const gate = {
    shadowRunsDifferingFromDefault: shadowDiffers.length,
    enforceWastedBelowDefault: by('enforce').wasted < by('temporal-default').wasted,
    enforceDuplicatesNotAboveDefault: by('enforce').duplicates <= by('temporal-default').duplicates,
    enforceCorrectNotBelowDefault: by('enforce').correct >= by('temporal-default').correct,
  };
  const passed =
    gate.shadowRunsDifferingFromDefault === 0 &&
    gate.enforceWastedBelowDefault &&
    gate.enforceDuplicatesNotAboveDefault &&
    gate.enforceCorrectNotBelowDefault;
  const { failed: _rows, ...reportSummary } = r.report;
  const out = {
    benchmark: 'shadow',
    date: new Date().toISOString(),
    machine: machineFacts(),
    options: o,
    method: {
      arms: {
        'temporal-default': `Temporal's default retry policy (1 s, ×2, max 100 s, unlimited attempts), scheduleToCloseTimeout ${o.capMs} ms per call; the money transfer: the sample's policy (1 s, ×2, 1 min, 5 attempts, InvalidAccountError and InsufficientFundsError not retried)`,
        shadow: 'the same, with ShadowPlugin({ mode: "shadow" }): must change nothing',
        enforce:
          'the same, with ShadowPlugin({ mode: "enforce" }) on every activity, each declared as its tool (effect, deduplication, lookup)',
      },
      notes: [
        'capability-missing is left out: an unknown tool is an activity type no worker registered, failed by the worker before any interceptor',
        "Temporal's money-transfer sample (temporalio/money-transfer-project-template-ts) is not reachable offline: bench/shadow/bank.ts is a small equivalent with a loopback bank",
      ],
    },
    totals,
    runs: r.plain,
    transfers: r.transfers,
    report: reportSummary,
    gate: { ...gate, passed },
    durationMs: Date.now() - r.startedMs,
  };
  mkdirSync(dirname(RESULTS_FILE), { recursive: true });
  writeFileSync(RESULTS_FILE, `${JSON.stringify(out, null, 2)}\n`);
  console.log(`\nshadow bench — k = ${o.k}, seed ${o.seed}, cap ${o.capMs} ms per call\n`);
  console.log(runsTable(r.plain));
  console.log(`\n${transferTable(r.transfers)}`);
  console.log(`\n${totalsTable(totals)}`);
  console.log(`\nshadow-report over the temporal-default arm's histories:\n\n${r.reportTable}`);
  console.log(`\ngate: ${passed ? 'passed' : 'FAILED'} ${JSON.stringify(gate)}`);
  console.log(`duration ${((Date.now() - r.startedMs) / 1000).toFixed(1)} s; wrote ${RESULTS_FILE}`);
  return passed ? 0 : 1;
}
