/**
 * `npm run bench [-- --only <names>] [options]`: the benchmarks, each printing a table and writing
 * bench/results/<name>.json. Names (comma-separated; all when `--only` is absent):
 * - `overhead`: the plugin's overhead against a bare activity, four arms (bench/overhead.ts);
 * - `scale`: throughput, p95, RSS and CPU at N ∈ {100, 500, 1000} concurrent workflows (bench/scale.ts);
 * - `chaos`: worker SIGKILLs and server restarts during reconciliations (bench/chaos.ts).
 * `--quick` runs each in a shorter form (all of them in under 5 minutes on 2 cores).
 *
 * Exit code: 0 when every benchmark's gate passed, 1 when one failed, 2 when a benchmark itself broke.
 */
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { Command, InvalidArgumentError } from 'commander';
import { chaos } from './chaos';
import { overhead } from './overhead';
import { scale } from './scale';

const BENCHMARKS = ['overhead', 'scale', 'chaos'] as const;
type BenchName = (typeof BENCHMARKS)[number];

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be an integer ≥ 1');
  return n;
}

function names(value: string): BenchName[] {
  const list = value.split(',').map((n) => n.trim());
  const unknown = list.find((n) => !(BENCHMARKS as readonly string[]).includes(n));
  if (unknown !== undefined)
    throw new InvalidArgumentError(`unknown benchmark ${unknown} (known: ${BENCHMARKS.join(', ')})`);
  return list as BenchName[];
}

interface BenchOptions {
  only: BenchName[];
  quick: boolean;
  runs: number;
  warmup: number;
  kills: number;
  inFlight: number;
  restarts: number;
  seed: number;
}

function parseArgs(argv: string[]): BenchOptions {
  return new Command('bench')
    .description('Recovery Router benchmarks')
    .option('--only <names>', `benchmarks to run, comma-separated (${BENCHMARKS.join(', ')})`, names, [...BENCHMARKS])
    .option('--quick', 'shorter runs: overhead 10 runs, scale N ∈ {100, 1000}, chaos 10 kills', false)
    .option('--runs <n>', 'overhead: measured runs per arm and scenario', positiveInt, 30)
    .option('--warmup <n>', 'overhead: unmeasured runs per arm and scenario first', positiveInt, 3)
    .option('--kills <n>', 'chaos: worker SIGKILLs', positiveInt, 50)
    .option('--in-flight <n>', 'chaos: runs kept in flight', positiveInt, 30)
    .option('--restarts <n>', 'chaos: dev server restarts (SIGTERM, then SIGKILL), evenly spread', Number, 2)
    .option('--seed <n>', 'chaos: seed of the fault mix and kill timing', Number, 16)
    .parse(argv)
    .opts<BenchOptions>();
}

async function main(): Promise<number> {
  const o = parseArgs(process.argv);
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  let code = 0;
  for (const name of o.only) {
    const result =
      name === 'overhead'
        ? await overhead({ runs: o.quick ? 10 : o.runs, warmup: o.warmup })
        : name === 'scale'
          ? await scale({ quick: o.quick })
          : await chaos({
              kills: o.quick ? 10 : o.kills,
              inFlight: o.quick ? 15 : o.inFlight,
              restarts: o.quick ? 1 : o.restarts,
              seed: o.seed,
            });
    code = Math.max(code, result);
  }
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
