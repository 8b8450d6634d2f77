/** The scale benchmark's RSS sampler (bench/scale/rss-sampler.ts), on Jest's fake timers: no real process memory. */
import { rssSampler } from '../../bench/scale/rss-sampler';

const MiB = 2 ** 20;

describe('rssSampler', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('answers the peak and the mean of the samples since the last take, then starts a new window', () => {
    const readings = [100, 300, 200, 50].map((x) => x * MiB);
    let i = 0;
    const sampler = rssSampler(() => readings[i++]!, 100);
    jest.advanceTimersByTime(300); // three samples: 100, 300, 200 MiB
    expect(sampler.take()).toEqual({ peakRssMiB: 300, meanRssMiB: 200 });
    jest.advanceTimersByTime(100); // one sample: 50 MiB
    expect(sampler.take()).toEqual({ peakRssMiB: 50, meanRssMiB: 50 });
    sampler.stop();
  });

  it('takes one sample itself when none fell in the window, and stops sampling on stop()', () => {
    const read = jest.fn(() => 64 * MiB);
    const sampler = rssSampler(read, 100);
    expect(sampler.take()).toEqual({ peakRssMiB: 64, meanRssMiB: 64 });
    expect(read).toHaveBeenCalledTimes(1);
    sampler.stop();
    jest.advanceTimersByTime(1_000);
    expect(read).toHaveBeenCalledTimes(1);
  });
});
