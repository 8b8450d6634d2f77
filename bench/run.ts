/**
 * `npm run bench [-- --only <names>] [options]`: the benchmarks, each printing a table and writing
 * bench/results/<name>.json. Names (comma-separated; without `--only`: overhead, scale, chaos):
 * - `overhead`: the plugin's overhead against a bare activity, four arms (bench/overhead.ts);
 * - `scale`: throughput, p95, RSS and CPU at N ∈ {100, 500, 1000} concurrent workflows (bench/scale.ts);
 * - `chaos`: worker SIGKILLs and server restarts during reconciliations (bench/chaos.ts);
 * - `cluster`: the shared breaker and credential refresh against per-worker ones, on 3 worker processes
 *   (bench/cluster.ts). Not run by default: name it with `--only cluster`.
 * - `eval`: the recovery eval — scenarios under the router and two retry baselines, and PALADIN's catalogue
 *   (bench/eval.ts). Not run by default (it takes minutes): name it with `--only eval`.
 * - `promises`: promises and bytes one run of each scale workload creates in workflow code, against its baseline
 *   (bench/promises.ts). Not run by default: name it with `--only promises`.
 * - `unseen`: issue 28's held-out cases, client libraries no table names, routed by the real activity
 *   (bench/unseen.ts, test/unseen). Not run by default: name it with `--only unseen`.
 * - `shadow`: the eval's scenarios as plain activities and a money-transfer equivalent under Temporal's default retry
 *   policy, shadow mode and enforce, with the same seeds, then `shadow-report` (bench/shadow.ts). Not run by default:
 *   name it with `--only shadow` (`--k`, `--seed`, `--cap-ms`, `--scenarios` as for eval; k defaults to 4 here).
 * - `write-safety`: issue 27's write-safety matrix — fault kinds against `pay` tool declarations, each cell counted
 *   in a real SQLite store (bench/write-safety.ts). Not run by default (minutes): name it with `--only write-safety`;
 *   `--rows` and `--columns` pick cells, `--quick` runs the 58 cells of bench/write-safety/quick.ts.
 * - `long-agent`: one agent making 10,000 tool calls with continue-as-new: history bytes per run, the longest
 *   history's replay time, RSS over the calls (bench/long-agent.ts). Not run by default: name it with
 *   `--only long-agent` (`--calls` sets N; `--quick` 1,000).
 * - `body-memory`: the peak RSS one failing call with a 50 MB body adds against one with 1 KiB, each in a process of
 *   its own (bench/body-memory.ts). Not run by default: name it with `--only body-memory`.
 * - `desk`: the approval desk with 1,000 calls waiting in chromium: page render and decision time (bench/desk.ts).
 *   Not run by default: name it with `--only desk` (`--calls` sets N; `--quick` 200).
 * - `two-operators`: issue 37's two operators deciding on one desk, 50 repetitions, no decision on a card other than
 *   the one aimed at (bench/two-operators.ts; the jest test runs 6). Not run by default: name it with
 *   `--only two-operators` (`--repeat` sets the repetitions; `--quick` 12).
 * `--quick` runs each in a shorter form.
 *
 * Exit code: 0 when every benchmark's gate passed, 1 when one failed, 2 when a benchmark itself broke.
 */
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { Command, InvalidArgumentError } from 'commander';
import { bodyMemory } from './body-memory';
import { chaos } from './chaos';
import { clusterBench } from './cluster';
import { deskBench } from './desk';
import { evalBench } from './eval';
import { POLICIES, type PolicyName } from './eval/scoring';
import { historyBench } from './history-bytes';
import { longAgent } from './long-agent';
import { overhead } from './overhead';
import { promisesBench } from './promises';
import { scale } from './scale';
import { twoOperatorsBench } from './two-operators';
import { shadowBench } from './shadow';
import { unseenBench } from './unseen';
import { writeSafety } from './write-safety';

const BENCHMARKS = [
  'overhead',
  'scale',
  'chaos',
  'eval',
  'cluster',
  'promises',
  'unseen',
  'shadow',
  'write-safety',
  'history',
  'long-agent',
  'body-memory',
  'desk',
  'two-operators',
] as const;
type BenchName = (typeof BENCHMARKS)[number];
/** What runs without `--only`. */
const DEFAULT_BENCHMARKS: readonly BenchName[] = ['overhead', 'scale', 'chaos'];

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be an integer ≥ 1');
  return n;
}

/** `--sizes 500,1000` → [500, 1000]. @throws InvalidArgumentError for an entry that is not an integer ≥ 1. */
function sizes(value: string): number[] {
  return value.split(',').map((n) => positiveInt(n.trim()));
}

/**
 * A comma-separated list of `known`'s names (`what` names one in the error).
 * @throws InvalidArgumentError naming an entry that is not one of them.
 */
function oneOf<T extends string>(known: readonly T[], what: string): (value: string) => T[] {
  return (value) => {
    const list = value.split(',').map((n) => n.trim());
    const unknown = list.find((n) => !(known as readonly string[]).includes(n));
    if (unknown !== undefined)
      throw new InvalidArgumentError(`unknown ${what} ${unknown} (known: ${known.join(', ')})`);
    return list as T[];
  };
}

interface BenchOptions {
  only: BenchName[];
  quick: boolean;
  runs: number;
  repeat?: number;
  sizes?: number[];
  warmup: number;
  kills: number;
  inFlight: number;
  restarts: number;
  seed?: number;
  k?: number;
  capMs?: number;
  concurrency: number;
  scenarios?: string[];
  keys?: string[];
  policies?: PolicyName[];
  paladin: boolean;
  rows?: string[];
  columns?: string[];
  calls?: number;
}

function parseArgs(argv: string[]): BenchOptions {
  return new Command('bench')
    .description('Recovery Router benchmarks')
    .option(
      '--only <names>',
      `benchmarks to run, comma-separated (${BENCHMARKS.join(', ')})`,
      oneOf(BENCHMARKS, 'benchmark'),
      [...DEFAULT_BENCHMARKS],
    )
    .option(
      '--quick',
      'shorter runs: overhead 10 runs, scale N ∈ {100, 1000}, chaos 10 kills, eval with a 30 s cap (full: 120 s)',
      false,
    )
    .option('--runs <n>', 'overhead: measured runs per arm and scenario; promises: per workload', positiveInt, 30)
    .option(
      '--repeat <n>',
      'scale: interleaved runs of every arm at each N (default 4; --quick 1; an even count cancels a steady drift); two-operators: repetitions (default 50; --quick 12)',
      positiveInt,
    )
    .option('--sizes <list>', 'scale: the Ns, comma-separated (default 100,500,1000; --quick 1000)', sizes)
    .option('--warmup <n>', 'overhead: unmeasured runs per arm and scenario first', positiveInt, 3)
    .option('--kills <n>', 'chaos: worker SIGKILLs', positiveInt, 50)
    .option('--in-flight <n>', 'chaos: runs kept in flight', positiveInt, 30)
    .option('--restarts <n>', 'chaos: dev server restarts (SIGTERM, then SIGKILL), evenly spread', Number, 2)
    .option('--seed <n>', 'chaos: seed of the fault mix and kill timing (eval: of the fault schedules)', Number)
    .option(
      '--k <n>',
      'eval, shadow: runs per scenario and policy (eval: pass^k, default 8; shadow: default 4)',
      positiveInt,
    )
    .option('--cap-ms <ms>', 'eval: per-call wall-clock cap of temporal-default, ms', positiveInt)
    .option(
      '--concurrency <n>',
      'eval: router and naive-3x runs in flight; write-safety: cells at once',
      positiveInt,
      8,
    )
    .option('--scenarios <names>', 'eval: scenarios to run, comma-separated (all by default)', (v) => v.split(','))
    .option('--keys <names>', 'eval: PALADIN keys to run, comma-separated (all by default)', (v) => v.split(','))
    .option(
      '--policies <names>',
      `eval: policies to run, comma-separated (${POLICIES.join(', ')}: all by default)`,
      oneOf(POLICIES, 'policy'),
    )
    .option('--no-paladin', 'eval: skip the PALADIN catalogue')
    .option('--rows <ids>', 'write-safety: fault kinds to run, comma-separated (all by default)', (v) => v.split(','))
    .option('--columns <ids>', 'write-safety: columns to run, e.g. _L_,DL_ (all by default)', (v) => v.split(','))
    .option(
      '--calls <n>',
      'long-agent: tool calls in the chain (default 10000; --quick 1000); desk: calls waiting (default 1000; --quick 200)',
      positiveInt,
    )
    .parse(argv)
    .opts<BenchOptions>();
}

function runOne(name: BenchName, o: BenchOptions): Promise<number> {
  switch (name) {
    case 'overhead':
      return overhead({ runs: o.quick ? 10 : o.runs, warmup: o.warmup });
    case 'scale':
      return scale({
        quick: o.quick,
        ...(o.repeat !== undefined ? { repeat: o.repeat } : {}),
        ...(o.sizes !== undefined ? { sizes: o.sizes } : {}),
      });
    case 'chaos':
      return chaos({
        kills: o.quick ? 10 : o.kills,
        inFlight: o.quick ? 15 : o.inFlight,
        restarts: o.quick ? 1 : o.restarts,
        seed: o.seed ?? 16,
      });
    case 'cluster':
      return clusterBench({ quick: o.quick });
    case 'promises':
      return promisesBench({ runs: o.quick ? 10 : o.runs, warmup: o.warmup });
    case 'history':
      return historyBench();
    case 'long-agent':
      return longAgent({ calls: o.calls ?? (o.quick ? 1_000 : 10_000) });
    case 'unseen':
      return unseenBench();
    case 'shadow':
      return shadowBench({
        k: o.k ?? (o.quick ? 2 : 4),
        capMs: o.capMs ?? 30_000,
        seed: o.seed ?? 14,
        scenarios: o.scenarios ?? [],
      });
    case 'eval':
      return evalBench({
        quick: o.quick,
        policies: o.policies ?? POLICIES,
        k: o.k ?? 8,
        capMs: o.capMs ?? (o.quick ? 30_000 : 120_000),
        seed: o.seed ?? 14,
        concurrency: o.concurrency,
        scenarios: o.scenarios ?? [],
        keys: o.keys ?? [],
        noPaladin: !o.paladin,
      });
    case 'body-memory':
      return bodyMemory({ runs: o.quick ? 2 : 3 });
    case 'desk':
      return deskBench({ calls: o.calls ?? (o.quick ? 200 : 1_000), decisions: o.quick ? 10 : 40 });
    case 'two-operators':
      return twoOperatorsBench({ repetitions: o.repeat ?? (o.quick ? 12 : 50) });
    case 'write-safety':
      return writeSafety({ quick: o.quick, rows: o.rows ?? [], columns: o.columns ?? [], concurrency: o.concurrency });
  }
}

async function main(): Promise<number> {
  const o = parseArgs(process.argv);
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  let code = 0;
  for (const name of o.only) code = Math.max(code, await runOne(name, o));
  return code;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(err);
    process.exitCode = 2;
  },
);
