/**
 * The scale benchmark's server CPU reader (bench/scale/process-cpu.ts) against real processes: a child it started
 * is found by its command name, its CPU time only grows, and what does not exist is undefined.
 */
import { spawn } from 'node:child_process';
import { childPidNamed, cpuMsOf } from '../../bench/scale/process-cpu';

const linux = process.platform === 'linux' ? describe : describe.skip;

linux('process-cpu', () => {
  it('finds a child by its command name and reads its CPU time in ms', async () => {
    // `sleep`: no other child of a jest worker has that name.
    const sleeper = spawn('sleep', ['30']);
    try {
      await new Promise((ok) => sleeper.once('spawn', ok));
      expect(childPidNamed('sleep')).toBe(sleeper.pid);
      const cpu = cpuMsOf(sleeper.pid);
      expect(cpu).toBeGreaterThanOrEqual(0);
      expect(cpu! % 10).toBe(0); // whole clock ticks of 10 ms
    } finally {
      sleeper.kill('SIGKILL');
    }
  });

  it("reads this process's own CPU time, which grows with work", () => {
    const before = cpuMsOf(process.pid)!;
    // Work counted in this process's CPU time (30 ms, three clock ticks), not in wall time a loaded machine spends
    // elsewhere.
    const cpuMs = () => process.cpuUsage().user / 1_000;
    const until = cpuMs() + 30;
    let x = 0;
    while (cpuMs() < until) x += Math.sqrt(x + 1);
    expect(x).toBeGreaterThan(0);
    expect(cpuMsOf(process.pid)!).toBeGreaterThan(before);
  });

  it('is undefined for no process and for a name no child has', () => {
    expect(cpuMsOf(undefined)).toBeUndefined();
    expect(cpuMsOf(2 ** 30)).toBeUndefined();
    expect(childPidNamed('no-such-command-rr')).toBeUndefined();
  });
});
