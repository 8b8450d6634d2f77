/**
 * A jest reporter that measures each test file's CPU time, not the machine's wall clock: on a shared machine a
 * file's wall time grows with everyone else's load, its CPU time does not. Run in band (`--maxWorkers=1`, so the
 * files run in this process) and name an output file:
 *
 *   RR_CPU_REPORT=/tmp/cpu.json npx jest --ci --maxWorkers=1 <paths...> --reporters=default \
 *     --reporters=./scripts/cpu-reporter.js --selectProjects temporal
 *
 * The paths come first: `--reporters`, like `--selectProjects`, takes every value after it (a path there is read as
 * a reporter's module, "Could not resolve a module for a custom reporter").
 *
 * Per file: `wallMs` (start to result), `cpuMs` = this process's user+system CPU (`process.cpuUsage`, which counts
 * the Temporal worker's native threads) + CPU of child processes reaped meanwhile (`cutime`+`cstime` of
 * /proc/self/stat: npm installs, worker processes) + CPU of live descendants and of what they reaped (the run's dev
 * server, from their /proc/<pid>/stat). The dev server's CPU on work an earlier file left behind counts toward the
 * file that runs then. Linux only; the JSON is sorted by `cpuMs`, largest first.
 */
const { readFileSync, readdirSync, writeFileSync } = require('node:fs');
const { relative } = require('node:path');

/** Clock ticks per second of /proc's times (USER_HZ, 100 on Linux). */
const HZ = 100;

function statTimes(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields after the name: state(0) ppid(1) … utime(11) stime(12) cutime(13) cstime(14)
    return { ppid: Number(f[1]), own: Number(f[11]) + Number(f[12]), children: Number(f[13]) + Number(f[14]) };
  } catch {
    return undefined;
  }
}

/** CPU ms of the live descendants of `root`, by pid. */
function descendants(root) {
  const parent = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const t = statTimes(name);
    if (t) parent.set(Number(name), t);
  }
  const out = new Map();
  const isUnder = (pid) => {
    for (let p = parent.get(pid)?.ppid, hops = 0; p !== undefined && hops < 64; p = parent.get(p)?.ppid, hops++)
      if (p === root) return true;
    return false;
  };
  // Its own CPU and its reaped children's (npm's and tsc's processes, reaped by a jest worker).
  for (const [pid, t] of parent) if (pid !== root && isUnder(pid)) out.set(pid, ((t.own + t.children) * 1000) / HZ);
  return out;
}

function sample() {
  const u = process.cpuUsage();
  const self = statTimes(process.pid);
  return {
    own: (u.user + u.system) / 1000,
    reaped: self ? (self.children * 1000) / HZ : 0,
    live: descendants(process.pid),
  };
}

function delta(a, b) {
  let live = 0;
  for (const [pid, ms] of b.live) live += ms - (a.live.get(pid) ?? 0);
  return b.own - a.own + (b.reaped - a.reaped) + live;
}

class CpuReporter {
  constructor(globalConfig) {
    this.root = globalConfig.rootDir;
    this.started = new Map();
    this.rows = [];
  }
  onTestFileStart(test) {
    this.started.set(test.path, { at: Date.now(), cpu: sample() });
  }
  onTestFileResult(test, result) {
    const s = this.started.get(test.path);
    if (!s) return;
    this.rows.push({
      file: relative(this.root, test.path),
      wallMs: Date.now() - s.at,
      cpuMs: Math.round(delta(s.cpu, sample())),
      tests: result.numPassingTests + result.numFailingTests,
      failed: result.numFailingTests,
    });
  }
  onRunComplete() {
    const out = process.env.RR_CPU_REPORT;
    this.rows.sort((a, b) => b.cpuMs - a.cpuMs);
    if (out) writeFileSync(out, `${JSON.stringify(this.rows, null, 2)}\n`);
  }
}

module.exports = CpuReporter;
