/**
 * `npm run bench -- --only body-memory [--runs N]`: what one failing call with a large body costs in memory (issue
 * 35: "every body, success or error, is read as a stream to a bound and never whole"). A loopback service answers
 * `503` with a body of 1 KiB (the baseline) or 50 MB (the subject), streamed in 64 KiB chunks; each call runs in a
 * fresh process (bench/body-memory-call.ts: the real `invokeTool` activity, a read tool using `ctx.http`), and the
 * process's peak resident set is read after it. Arms are interleaved, `runs` processes each (default 3; `--quick` 2);
 * the figure is the difference of the medians of the peaks, in MB (10^6 bytes).
 *
 * Gate (exit 1): the 50 MB body raises the peak by more than 16 MB, or a call did not fail as `transient` (a 503).
 * Writes bench/results/body-memory.json.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { machineFacts } from './report';
import { summarize } from './stats';
import { alignedTable } from './table';

const ROOT = resolve(__dirname, '..');
const CALL_SCRIPT = join(ROOT, 'bench', 'body-memory-call.ts');
const RESULTS_FILE = join(__dirname, 'results', 'body-memory.json');
const CHUNK = Buffer.alloc(64 * 1024, 0x78);
/** The subject's body, bytes. */
export const BIG_BODY_BYTES = 50_000_000;
/** The most the subject's peak may exceed the baseline's, MB (issue 35). */
export const MAX_EXTRA_PEAK_MB = 16;

/** A service answering `503` with `bytes` of body at `/<bytes>`, streamed with backpressure. */
async function startBodyService(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    let left = Number(req.url?.slice(1) ?? '0');
    res.writeHead(503, { 'content-type': 'application/json' });
    const pump = (): void => {
      while (left > 0 && !res.destroyed) {
        const chunk = left >= CHUNK.length ? CHUNK : CHUNK.subarray(0, left);
        left -= chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    res.on('close', () => (left = 0));
    pump();
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

interface CallResult {
  rssBeforeKb: number;
  maxRssKb: number;
  failureClass: string;
}

async function oneCall(url: string, bytes: number): Promise<CallResult> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['-r', 'ts-node/register', CALL_SCRIPT, `${url}/1024`, `${url}/${bytes}`],
    { cwd: ROOT, maxBuffer: 1 << 20 },
  );
  return JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as CallResult;
}

const mb = (kb: number) => Math.round((kb * 1024) / 1e5) / 10;

export async function bodyMemory(o: { runs: number }): Promise<number> {
  const service = await startBodyService();
  try {
    const arms = [
      { arm: 'baseline: 503 with 1 KiB', bytes: 1024, calls: [] as CallResult[] },
      { arm: 'subject: 503 with 50 MB', bytes: BIG_BODY_BYTES, calls: [] as CallResult[] },
    ];
    for (let i = 0; i < o.runs; i++) for (const a of arms) a.calls.push(await oneCall(service.url, a.bytes));
    const peaks = arms.map((a) => summarize(a.calls.map((c) => c.maxRssKb)).median);
    const extraMb = mb(peaks[1]! - peaks[0]!);
    const classes = arms.flatMap((a) => a.calls.map((c) => c.failureClass));
    console.log(
      alignedTable(
        `Peak RSS of one failing call (median of ${o.runs} processes per arm, interleaved)`,
        ['arm', 'peak RSS MB', 'RSS before the call MB', 'failure class'],
        arms.map((a, i) => [
          a.arm,
          String(mb(peaks[i]!)),
          String(mb(summarize(a.calls.map((c) => c.rssBeforeKb)).median)),
          [...new Set(a.calls.map((c) => c.failureClass))].join(','),
        ]),
      ),
    );
    const ok = extraMb <= MAX_EXTRA_PEAK_MB && classes.every((c) => c === 'transient');
    console.log(
      `\nthe 50 MB body adds ${extraMb} MB to the peak (limit ${MAX_EXTRA_PEAK_MB} MB): ${ok ? 'ok' : 'FAILED'}`,
    );
    mkdirSync(dirname(RESULTS_FILE), { recursive: true });
    writeFileSync(
      RESULTS_FILE,
      `${JSON.stringify({ benchmark: 'body-memory', date: new Date().toISOString(), machine: machineFacts(), runs: o.runs, arms, extraPeakMb: extraMb, limitMb: MAX_EXTRA_PEAK_MB, ok }, null, 2)}\n`,
    );
    console.log(`wrote ${RESULTS_FILE}`);
    return ok ? 0 : 1;
  } finally {
    await new Promise<void>((done) => {
      service.server.close(() => done());
      service.server.closeAllConnections();
    });
  }
}
