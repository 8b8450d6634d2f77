/**
 * Pure unit tests of the scale benchmark's rows (bench/scale/rows.ts) and the bare agent's observations
 * (bench/workflows.ts): no workers, no servers, no timing.
 */
import {
  formatScale,
  geometricMean,
  medianMeasured,
  scaleRow,
  scaleRowOf,
  type Measured,
  type Workload,
} from '../../bench/scale/rows';
import { toolResultObservation } from '../../bench/workflows';

const m = (runsPerSec: number, p95Ms = 1_000, peakRssMiB = 400, cpuMsPerCall = 10, meanRssMiB = 300): Measured => ({
  runsPerSec,
  p95Ms,
  peakRssMiB,
  meanRssMiB,
  cpuMsPerCall,
});
const measured: Record<Workload, Measured> = {
  bareActivityWorkflow: m(40),
  toolPlanWorkflow: m(38, 1_100, 440, 11),
  bareAgentWorkflow: m(25, 2_000, 420, 16),
  agentWorkflow: m(20, 2_500, 462, 20, 345),
};

describe('scaleRow', () => {
  it('holds toolPlanWorkflow to the one-activity workflow', () => {
    const row = scaleRow(100, 'toolPlanWorkflow', measured);
    expect(row).toMatchObject({
      n: 100,
      workflow: 'toolPlanWorkflow',
      baseline: 'bareActivityWorkflow',
      runsPerSec: 38,
      bareRunsPerSec: 40,
      throughputRatio: 0.95,
      throughputRatioVsOneActivity: 0.95,
      bareP95Ms: 1_000,
      rssRatio: 1.1,
      cpuRatio: 1.1,
    });
  });

  it('holds agentWorkflow to the bare agent loop, and keeps the one-activity ratio', () => {
    const row = scaleRow(1_000, 'agentWorkflow', measured);
    expect(row).toEqual({
      n: 1_000,
      workflow: 'agentWorkflow',
      baseline: 'bareAgentWorkflow',
      runsPerSec: 20,
      bareRunsPerSec: 25,
      throughputRatio: 0.8,
      throughputRatioVsOneActivity: 0.5,
      p95Ms: 2_500,
      bareP95Ms: 2_000,
      rssMiB: 462,
      bareRssMiB: 420,
      rssRatio: 1.1,
      rssMeanMiB: 345,
      bareRssMeanMiB: 300,
      rssMeanRatio: 1.15,
      cpuMsPerCall: 20,
      bareCpuMsPerCall: 16,
      cpuRatio: 1.25,
      repeats: 1,
      throughputRatios: [0.8],
    });
  });

  it('prints one line per row with both ratios', () => {
    const table = formatScale([scaleRow(1_000, 'agentWorkflow', measured)]).split('\n');
    expect(table).toHaveLength(4);
    expect(table[3]).toMatch(/^1000\s+agentWorkflow\s+bareAgentWorkflow\s+20 \(25\)\s+×0\.8\s+×0\.8\s+×0\.5\s/);
    expect(table[3]).toMatch(/\s462 \(420\) ×1\.1\s+345 \(300\) ×1\.15\s/);
  });
});

describe('repeats', () => {
  it("takes each metric's median over the repeats (the middle one, or the mean of the two middle ones)", () => {
    expect(medianMeasured([m(30, 900, 410, 9, 320), m(10, 1_100, 400, 12, 310), m(20, 1_000, 450, 10, 350)])).toEqual(
      m(20, 1_000, 410, 10, 320),
    );
    expect(medianMeasured([m(30), m(10)])).toEqual(m(20));
    expect(() => medianMeasured([])).toThrow(RangeError);
  });

  it("a row of repeats keeps the medians, each repeat's own ratio in order, and their geometric mean", () => {
    const repeats: Record<Workload, Measured[]> = {
      bareActivityWorkflow: [m(40), m(50), m(20)],
      toolPlanWorkflow: [m(38), m(40), m(22)],
      bareAgentWorkflow: [m(25), m(25), m(25)],
      agentWorkflow: [m(20), m(25), m(30)],
    };
    const row = scaleRowOf(500, 'toolPlanWorkflow', repeats);
    // (0.95 · 0.8 · 1.1)^(1/3) = 0.9423…, not the ratio of the medians (38 / 40 = 0.95).
    expect(row).toMatchObject({ runsPerSec: 38, bareRunsPerSec: 40, throughputRatio: 0.94, repeats: 3 });
    expect(row.throughputRatios).toEqual([0.95, 0.8, 1.1]);
    expect(scaleRowOf(500, 'agentWorkflow', repeats)).toMatchObject({
      throughputRatio: 0.99,
      throughputRatioVsOneActivity: 0.63,
      throughputRatios: [0.8, 1, 1.2],
    });
  });

  it('a steady slowdown cancels out of the ratio over alternating orders, not out of the ratio of medians', () => {
    // Each slot of the run 2 % slower than the one before, both arms the same speed (100 runs/s at slot 0): each
    // pair runs AB BA, which puts toolPlanWorkflow after its baseline in the first repeat and before it in the second.
    const at = (slot: number) => m(100 * 0.98 ** slot);
    const repeats: Record<Workload, Measured[]> = {
      bareActivityWorkflow: [at(0), at(3)],
      toolPlanWorkflow: [at(1), at(2)],
      bareAgentWorkflow: [at(4), at(7)],
      agentWorkflow: [at(5), at(6)],
    };
    const row = scaleRowOf(1_000, 'toolPlanWorkflow', repeats);
    expect(row.throughputRatios).toEqual([0.98, 1.02]);
    expect(row.throughputRatio).toBe(1);
    expect(scaleRowOf(1_000, 'agentWorkflow', repeats).throughputRatio).toBe(1);
    // Three repeats (AB BA AB) put the subject second twice: the same drift leaves a bias.
    const three = { ...repeats, bareActivityWorkflow: [at(0), at(3), at(4)], toolPlanWorkflow: [at(1), at(2), at(5)] };
    expect(scaleRowOf(1_000, 'toolPlanWorkflow', three).throughputRatio).toBe(0.99);
  });

  it('geometricMean: exp of the mean log; refuses an empty list', () => {
    expect(geometricMean([2, 8])).toBeCloseTo(4, 12);
    expect(geometricMean([0.5, 2])).toBeCloseTo(1, 12);
    expect(() => geometricMean([])).toThrow(RangeError);
  });

  it("keeps the dev server's CPU per run when every repeat read it, and prints it", () => {
    const s = (runsPerSec: number, serverCpuMsPerCall?: number): Measured => ({
      ...m(runsPerSec),
      ...(serverCpuMsPerCall === undefined ? {} : { serverCpuMsPerCall }),
    });
    expect(medianMeasured([s(10, 30), s(10, 20), s(10, 25)]).serverCpuMsPerCall).toBe(25);
    expect(medianMeasured([s(10, 30), s(10)])).not.toHaveProperty('serverCpuMsPerCall');
    const row = scaleRow(100, 'toolPlanWorkflow', {
      ...measured,
      toolPlanWorkflow: s(38, 24.456),
      bareActivityWorkflow: s(40, 22),
    });
    expect(row).toMatchObject({ serverCpuMsPerCall: 24.46, bareServerCpuMsPerCall: 22 });
    expect(formatScale([row]).split('\n')[3]).toMatch(/24\.46 \(22\)\s*$/);
    expect(scaleRow(100, 'toolPlanWorkflow', measured)).not.toHaveProperty('serverCpuMsPerCall');
  });
});

describe('toolResultObservation', () => {
  it('is a tool_result of the planner contract, empty only without a value', () => {
    const call = { callId: 'inv', tool: 'check_inventory', args: { sku: 'SKU-1' } };
    expect(toolResultObservation(call, { items: [] }, 1)).toEqual({
      kind: 'tool_result',
      ...call,
      value: { items: [] },
      empty: false,
      turn: 1,
    });
    expect(toolResultObservation(call, null, 2)).toMatchObject({ empty: true, turn: 2 });
  });
});
