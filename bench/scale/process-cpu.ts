/**
 * CPU time of a child process by its command name, for the scale benchmark's server column: the Temporal dev
 * server that `TestWorkflowEnvironment.createLocal` starts is a child of the bench process. Linux only: it reads
 * `/proc/<pid>/stat` (proc(5): fields 14 `utime` and 15 `stime`, in clock ticks of `sysconf(_SC_CLK_TCK)`, 100 on
 * Linux's supported architectures). Elsewhere, or when no such child exists, the answer is `undefined`.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of `/proc` times (`getconf CLK_TCK`). */
const CLOCK_TICKS_PER_SEC = 100;

interface Stat {
  pid: number;
  comm: string;
  ppid: number;
  cpuMs: number;
}

/** One `/proc/<pid>/stat` line → its fields, or undefined when it cannot be read (the process ended). */
function statOf(pid: number): Stat | undefined {
  let line: string;
  try {
    line = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // `comm` is in parentheses and may hold spaces: the fields after it start at the last ')'.
  const close = line.lastIndexOf(')');
  const comm = line.slice(line.indexOf('(') + 1, close);
  const rest = line.slice(close + 2).split(' ');
  // rest[0] is field 3 (state): field k is rest[k - 3].
  const ticks = Number(rest[11]) + Number(rest[12]);
  return { pid, comm, ppid: Number(rest[1]), cpuMs: (ticks * 1000) / CLOCK_TICKS_PER_SEC };
}

/** The pid of this process's child named `comm` (e.g. `temporal`), or undefined. */
export function childPidNamed(comm: string): number | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    const s = statOf(Number(e));
    if (s && s.ppid === process.pid && s.comm === comm) return s.pid;
  }
  return undefined;
}

/** CPU time (user + system) of process `pid` so far, in ms; undefined when it cannot be read. */
export function cpuMsOf(pid: number | undefined): number | undefined {
  return pid === undefined ? undefined : statOf(pid)?.cpuMs;
}
