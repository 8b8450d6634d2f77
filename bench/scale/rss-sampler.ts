/**
 * A process's RSS sampled every `intervalMs` (100 ms by default) for the scale benchmark's workers
 * (bench/scale/worker-process.ts). `take()` answers the highest and the mean sample since the last `take()`, in MiB
 * (one sample taken then when none fell in between), and starts a new window; `stop()` ends the sampling.
 * `readRss` answers bytes (default `process.memoryUsage().rss`).
 */
export interface RssWindow {
  peakRssMiB: number;
  meanRssMiB: number;
}

export function rssSampler(
  readRss: () => number = () => process.memoryUsage().rss,
  intervalMs = 100,
): { take(): RssWindow; stop(): void } {
  let peak = 0;
  let sum = 0;
  let count = 0;
  const sample = () => {
    const rss = readRss();
    peak = Math.max(peak, rss);
    sum += rss;
    count += 1;
  };
  const timer = setInterval(sample, intervalMs);
  return {
    take() {
      if (count === 0) sample();
      const out = { peakRssMiB: peak / 2 ** 20, meanRssMiB: sum / count / 2 ** 20 };
      peak = sum = count = 0;
      return out;
    },
    stop: () => clearInterval(timer),
  };
}
